package thread

import (
	"context"
	"fmt"
	"sort"
	"strings"
	"time"

	"github.com/rs/zerolog"

	"github.com/xxl-admin-go/xxl-admin-go/compat/api"
	"github.com/xxl-admin-go/xxl-admin-go/compat/schema"
)

// Registrar stores executor registrations for /api/registry and
// /api/registryRemove (executor-protocol.md §2.4).
//
// Beyond Java, which rebuilds address_list only in the 30 s monitor pass:
// when a registration is new or removed, the matching automatic groups are
// rebuilt at once, so a new executor is routable within its first beat and a
// stopped one stops receiving triggers as soon as it says goodbye. Refreshes
// of an existing registration (every 30 s per executor) do not touch groups.
type Registrar struct {
	store registryStore
	gc    *schema.GroupCommit
	now   func() time.Time
	log   zerolog.Logger
}

var _ api.Registry = (*Registrar)(nil)

// RegistrarConfig wires a Registrar.
type RegistrarConfig struct {
	Store *schema.Store
	Now   func() time.Time // nil: time.Now
	Log   zerolog.Logger
}

// NewRegistrar creates the registration service. Beats of many executors
// arriving together share commits through the store's group commit.
func NewRegistrar(cfg RegistrarConfig) *Registrar {
	return &Registrar{store: cfg.Store, gc: cfg.Store.NewGroupCommit(128), now: orNow(cfg.Now),
		log: cfg.Log.With().Str("component", "registrar").Logger()}
}

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
		r.log.Info().Str("appname", p.RegistryKey).Str("address", p.RegistryValue).Msg("executor registered")
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
		r.log.Info().Str("appname", p.RegistryKey).Str("address", p.RegistryValue).Msg("executor removed")
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
	if err := r.rebuildApp(ctx, appname, now); err != nil {
		r.log.Warn().Err(err).Str("appname", appname).Msg("refresh group address list after registration")
	}
}

func (r *Registrar) rebuildApp(ctx context.Context, appname string, now time.Time) error {
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
		if err := r.store.GroupUpdateAddressList(ctx, g.ID, AddressList(live), now); err != nil {
			return fmt.Errorf("group %d (%s): %w", g.ID, g.AppName, err)
		}
	}
	return nil
}

// rebuildAddressLists writes address_list of the given automatic groups
// from the live registrations: sorted,
// comma-joined, NULL when empty (scheduler.md §9).
func rebuildAddressLists(ctx context.Context, store registryStore, groups []schema.Group, now time.Time) error {
	if len(groups) == 0 {
		return nil
	}
	live, err := store.RegistryFindAll(ctx, DeadTimeout, now)
	if err != nil {
		return err
	}
	byApp := map[string][]string{}
	seen := map[[2]string]bool{}
	for _, reg := range live {
		if reg.RegistryGroup != RegistryGroupExecutor {
			continue
		}
		k := [2]string{reg.RegistryKey, reg.RegistryValue}
		if seen[k] {
			continue
		}
		seen[k] = true
		byApp[reg.RegistryKey] = append(byApp[reg.RegistryKey], reg.RegistryValue)
	}
	for _, g := range groups {
		if err := store.GroupUpdateAddressList(ctx, g.ID, AddressList(byApp[g.AppName]), now); err != nil {
			return fmt.Errorf("group %d (%s): %w", g.ID, g.AppName, err)
		}
	}
	return nil
}

// AddressList joins addresses the way the Java monitor stores them: sorted
// ascending, comma-joined without spaces, nil (NULL) when there are none.
func AddressList(addrs []string) *string {
	if len(addrs) == 0 {
		return nil
	}
	s := append([]string(nil), addrs...)
	sort.Strings(s)
	joined := strings.Join(s, ",")
	return &joined
}
