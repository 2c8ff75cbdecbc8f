package thread

import (
	"context"
	"time"

	"github.com/rs/zerolog"

	"github.com/xxl-admin-go/xxl-admin-go/core/lifecycle"
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
}

// RegistryMonitorConfig wires a RegistryMonitor.
type RegistryMonitorConfig struct {
	Store    registryStore
	Now      func() time.Time // nil: time.Now
	Interval time.Duration    // 0: the Java 30 s
	Log      zerolog.Logger
}

// NewRegistryMonitor creates the monitor.
func NewRegistryMonitor(cfg RegistryMonitorConfig) *RegistryMonitor {
	if cfg.Interval <= 0 {
		cfg.Interval = BeatTimeout
	}
	return &RegistryMonitor{store: cfg.Store, now: orNow(cfg.Now), interval: cfg.Interval,
		log: cfg.Log.With().Str("component", "registry-monitor").Logger()}
}

// Start runs a pass at once and then every interval.
func (m *RegistryMonitor) Start(ctx context.Context) error {
	return m.StartLoop(ctx, "registry monitor pass", m.log, m.interval, m.interval, m.Pass, m.passDone)
}

// Pass is one monitor round. Like Java it does nothing when no automatic
// group exists.
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
	return rebuildAddressLists(ctx, m.store, groups, now)
}
