package thread

import (
	"context"
	"sync"
	"time"

	"github.com/rs/zerolog"

	"github.com/xxl-admin-go/xxl-admin-go/compat/api"
	"github.com/xxl-admin-go/xxl-admin-go/compat/schema"
	"github.com/xxl-admin-go/xxl-admin-go/internal/loglimit"
)

// Registrar stores executor registrations for /api/registry and
// /api/registryRemove (executor-protocol.md §2.4).
//
// Beyond Java, which rebuilds address_list only in the 30 s monitor pass:
// when a registration is new or removed, the matching automatic groups are
// rebuilt at once, so a new executor is routable within its first beat and a
// stopped one stops receiving triggers as soon as it says goodbye. Refreshes
// of an existing registration (every 30 s per executor) do not touch groups.
// While the Registrar runs (Start), those rebuilds are merged per app in
// the background and a registration waits up to refreshWait for the one
// that includes it; before Start and after Stop it rebuilds itself.
type Registrar struct {
	store   registryStore
	gc      *schema.GroupCommit
	now     func() time.Time
	log     zerolog.Logger
	refresh *refresher
	cutWarn *loglimit.Repeats
	lists   sync.Locker
}

var _ api.Registry = (*Registrar)(nil)

// refreshWait bounds how long a registration waits for its app's address
// list; the list is rebuilt all the same, just answered without waiting.
const refreshWait = time.Second

// RegistrarConfig wires a Registrar.
type RegistrarConfig struct {
	Store *schema.Store
	Now   func() time.Time // nil: time.Now
	Log   zerolog.Logger
	// Lists, shared with the RegistryMonitor, is held while a group's
	// address list is read and written, so a monitor pass that read the
	// registrations before a new one was stored cannot write its older
	// list over the one rebuilt for the newcomer. nil: not shared.
	Lists sync.Locker
}

// NewRegistrar creates the registration service. Beats of many executors
// arriving together share commits through the store's group commit.
func NewRegistrar(cfg RegistrarConfig) *Registrar {
	r := &Registrar{store: cfg.Store, gc: cfg.Store.NewGroupCommit(128), now: orNow(cfg.Now),
		log: cfg.Log.With().Str("component", "registrar").Logger(), cutWarn: loglimit.NewRepeats(0, nil), lists: orNoLock(cfg.Lists)}
	r.refresh = newRefresher(func(ctx context.Context, app string) error { return r.rebuildApp(ctx, app, r.now()) }, r.log)
	return r
}

// Start runs the background address-list refresh.
func (r *Registrar) Start(ctx context.Context) error { return r.refresh.Start(ctx) }

// Stop ends it; later registrations rebuild their lists themselves.
func (r *Registrar) Stop() { r.refresh.Stop() }

// Registry refreshes or inserts the registration (update-then-insert).
func (r *Registrar) Registry(ctx context.Context, p api.RegistryParam) error {
	now := r.now()
	var inserted bool
	err := r.gc.Do(ctx, func(ctx context.Context, tx *schema.Store) (err error) {
		inserted, err = tx.RegistryUpsert(ctx, p.RegistryGroup, p.RegistryKey, p.RegistryValue, now)
		return err
	})
	if err != nil {
		return err
	}
	if inserted {
		r.log.Info().Str("appname", loglimit.Cut(p.RegistryKey)).Str("address", loglimit.Cut(p.RegistryValue)).Msg("executor registered")
		r.refreshApp(ctx, p.RegistryGroup, p.RegistryKey, now)
	}
	return nil
}

// RegistryRemove deletes the registration.
func (r *Registrar) RegistryRemove(ctx context.Context, p api.RegistryParam) error {
	n, err := r.store.RegistryDelete(ctx, p.RegistryGroup, p.RegistryKey, p.RegistryValue)
	if err != nil {
		return err
	}
	if n > 0 {
		r.log.Info().Str("appname", loglimit.Cut(p.RegistryKey)).Str("address", loglimit.Cut(p.RegistryValue)).Msg("executor removed")
		r.refreshApp(ctx, p.RegistryGroup, p.RegistryKey, r.now())
	}
	return nil
}

// refreshApp rebuilds the address lists of the automatic groups of one
// appname from that app's live registrations only. Failure is only logged:
// the registration itself is stored and the monitor's next pass repairs it.
func (r *Registrar) refreshApp(ctx context.Context, registryGroup, appname string, now time.Time) {
	if registryGroup != RegistryGroupExecutor {
		return
	}
	if done, ok := r.refresh.request(appname); ok {
		t := time.NewTimer(refreshWait)
		defer t.Stop()
		select {
		case <-done:
		case <-t.C:
		case <-ctx.Done():
		}
		return
	}
	if err := r.rebuildApp(ctx, appname, now); err != nil {
		r.log.Warn().Err(err).Str("appname", loglimit.Cut(appname)).Msg("refresh group address list after registration")
	}
}

func (r *Registrar) rebuildApp(ctx context.Context, appname string, now time.Time) error {
	r.lists.Lock()
	defer r.lists.Unlock()
	groups, err := r.store.GroupFindByAddressType(ctx, 0)
	if err != nil {
		return err
	}
	var live []string
	loaded := false
	for _, g := range groups {
		if g.AppName != appname {
			continue
		}
		if !loaded {
			if live, err = r.store.RegistryFindLiveValues(ctx, RegistryGroupExecutor, appname, DeadTimeout, now); err != nil {
				return err
			}
			loaded = true
		}
		if err := writeAddressList(ctx, r.store, g, live, now, r.log, r.cutWarn); err != nil {
			return err
		}
	}
	return nil
}
