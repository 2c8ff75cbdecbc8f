package thread

import (
	"context"
	"fmt"
	"sync"
	"time"

	"github.com/rs/zerolog"

	"github.com/xxl-admin-go/xxl-admin-go/core/lifecycle"
	"github.com/xxl-admin-go/xxl-admin-go/internal/loglimit"
)

// RegistryMonitor is JobRegistryHelper's monitor thread: every 30 s it
// purges registrations older than 90 s and rewrites the address_list of the
// automatic groups (scheduler.md §9).
type RegistryMonitor struct {
	lifecycle.Base
	store    registryStore
	now      func() time.Time
	log      zerolog.Logger
	interval time.Duration
	passDone func() // test hook, called after each pass
	observer RegistryObserver
	lists    sync.Locker
}

// RegistryMonitorConfig wires a RegistryMonitor.
type RegistryMonitorConfig struct {
	Store    registryStore
	Now      func() time.Time // nil: time.Now
	Interval time.Duration    // 0: the Java 30 s
	Log      zerolog.Logger
	Observer RegistryObserver // nil: none
	Lists    sync.Locker      // shared with the Registrar (see RegistrarConfig.Lists); nil: not shared
}

// NewRegistryMonitor creates the monitor.
func NewRegistryMonitor(cfg RegistryMonitorConfig) *RegistryMonitor {
	if cfg.Interval <= 0 {
		cfg.Interval = BeatTimeout
	}
	return &RegistryMonitor{store: cfg.Store, now: orNow(cfg.Now), interval: cfg.Interval, observer: cfg.Observer, lists: orNoLock(cfg.Lists),
		log: cfg.Log.With().Str("component", "registry-monitor").Logger()}
}

// Start runs a pass at once and then every interval.
func (m *RegistryMonitor) Start(ctx context.Context) error {
	return m.StartLoop(ctx, "registry monitor pass", m.log, m.interval, m.interval, m.Pass, m.passDone)
}

// Pass is one monitor round. Like Java it does nothing when no automatic
// group exists. Unlike Java, whose pass stops at the first group it cannot
// write (one app's list over 65,535 bytes left every later group with dead
// addresses), every group is written on its own: a failure is logged with
// its group each pass, and the pass reports how many failed.
func (m *RegistryMonitor) Pass(ctx context.Context) error {
	groups, err := m.store.GroupFindByAddressType(ctx, 0)
	if err != nil {
		return err
	}
	if len(groups) == 0 {
		return nil
	}
	now := m.now()
	dead, err := m.store.RegistryFindDead(ctx, DeadTimeout, now)
	if err != nil {
		return err
	}
	if len(dead) > 0 {
		if _, err := m.store.RegistryRemoveDead(ctx, dead); err != nil {
			return err
		}
		m.log.Info().Int("count", len(dead)).Msg("removed dead executor registrations")
	}
	m.lists.Lock()
	defer m.lists.Unlock()
	live, err := m.store.RegistryFindAll(ctx, DeadTimeout, now)
	if err != nil {
		return err
	}
	byApp := liveByApp(live)
	failed := 0
	counts := make([]GroupExecutors, 0, len(groups))
	for _, g := range groups {
		counts = append(counts, GroupExecutors{GroupID: g.ID, AppName: g.AppName, Executors: len(byApp[g.AppName])})
		if err := writeAddressList(ctx, m.store, g, byApp[g.AppName], now, m.log, nil); err != nil {
			if ctx.Err() != nil {
				return err
			}
			failed++
			m.log.Error().Err(err).Int("job_group", g.ID).Str("appname", loglimit.Cut(g.AppName)).
				Msg("group address list not written; the other groups are")
		}
	}
	if m.observer != nil {
		m.observer.Executors(counts)
	}
	if failed > 0 {
		return fmt.Errorf("%d of %d group address lists not written", failed, len(groups))
	}
	return nil
}

// orNoLock is l, or a lock that does nothing when l is nil.
func orNoLock(l sync.Locker) sync.Locker {
	if l == nil {
		return noLock{}
	}
	return l
}

type noLock struct{}

func (noLock) Lock()   {}
func (noLock) Unlock() {}
