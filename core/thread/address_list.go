package thread

import (
	"context"
	"fmt"
	"sort"
	"strings"
	"time"

	"github.com/rs/zerolog"

	"github.com/xxl-admin-go/xxl-admin-go/compat/schema"
	"github.com/xxl-admin-go/xxl-admin-go/internal/loglimit"
)

// MaxAddressList is the capacity of xxl_job_group.address_list, a MySQL
// TEXT column, in bytes.
const MaxAddressList = 65535

// AddressList joins addresses the way the Java monitor stores them: sorted
// ascending, comma-joined without spaces, nil (NULL) when there are none.
func AddressList(addrs []string) *string {
	list, _ := fitAddressList(addrs)
	return list
}

// fitAddressList is AddressList cut to MaxAddressList bytes: the addresses
// that do not fit (the last in sort order) are dropped and returned. Java
// writes the whole list; MariaDB refuses it ("Data too long") and SQLite
// stores it, so the same app routed differently per backend.
func fitAddressList(addrs []string) (list *string, dropped []string) {
	if len(addrs) == 0 {
		return nil, nil
	}
	s := append([]string(nil), addrs...)
	sort.Strings(s)
	size := -1
	for i, a := range s {
		if size+1+len(a) > MaxAddressList {
			s, dropped = s[:i], s[i:]
			break
		}
		size += 1 + len(a)
	}
	if len(s) == 0 {
		return nil, dropped
	}
	joined := strings.Join(s, ",")
	return &joined, dropped
}

// writeAddressList stores one group's list, cut to fit, warning with the
// addresses dropped (at most maxDroppedLogged of them are named): every
// time when warn is nil (the monitor: once per group and pass), else as
// warn allows.
func writeAddressList(ctx context.Context, store registryStore, g schema.Group, addrs []string, now time.Time,
	log zerolog.Logger, warn *loglimit.Repeats) error {
	list, dropped := fitAddressList(addrs)
	if len(dropped) > 0 {
		ok, n := true, 0
		if warn != nil {
			ok, n = warn.Allow("address-list-cut")
		}
		if ok {
			named := dropped[:min(len(dropped), maxDroppedLogged)]
			for i, a := range named {
				named[i] = loglimit.Cut(a)
			}
			log.Warn().Int("job_group", g.ID).Str("appname", loglimit.Cut(g.AppName)).Int("addresses", len(addrs)).
				Int("dropped_count", len(dropped)).Strs("dropped", named).Int("suppressed", n).
				Msgf("address list longer than %d bytes: the last addresses in sort order are left out", MaxAddressList)
		}
	}
	if err := store.GroupUpdateAddressList(ctx, g.ID, list, now); err != nil {
		return fmt.Errorf("group %d (%s): %w", g.ID, loglimit.Cut(g.AppName), err)
	}
	return nil
}

// maxDroppedLogged bounds the addresses a cut warning names.
const maxDroppedLogged = 50

// liveByApp groups the live executor registrations by exact appname,
// without duplicates (Java's monitor: a HashMap of lists, exact keys).
func liveByApp(live []schema.Registry) map[string][]string {
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
	return byApp
}
