// Package thread holds the admin's helper goroutines that are not the
// schedule loop or the trigger pools: executor registration and the registry
// monitor (JobRegistryHelper), callback completion (JobCompleteHelper and
// XxlJobCompleter). Each long-lived part is a component with Start/Stop.
//
// The texts they store come from the bundle they are given (the 3.4.2
// bundle on a 3.x database); where the 3.4.2 admin changed more than a
// text, the component takes an explicit option: CompleterConfig.Children
// (ChildRule342: a job naming itself as child is skipped, ids are digits
// only) and FailMonitorConfig.RetryColor (RetryColor342). The lost-job
// text (joblog_lost_fail) is the same in both admins.
package thread

import (
	"context"
	"time"

	"github.com/xxl-admin-go/xxl-admin-go/compat/schema"
)

// Registry timing constants of the Java admin (config.md §3).
const (
	BeatTimeout = 30 * time.Second
	DeadTimeout = 90 * time.Second
	// RegistryGroupExecutor is the registry_group of executors; other
	// groups (ADMIN) are stored but never routed to.
	RegistryGroupExecutor = "EXECUTOR"
)

// Texts is the i18n lookup the stored messages are built from.
type Texts interface {
	Text(key string) string
	Format(key string, args ...any) string
}

// registryStore is the part of the store registration needs.
type registryStore interface {
	RegistryDelete(ctx context.Context, group, key, value string) (int64, error)
	RegistryFindAll(ctx context.Context, timeout time.Duration, now time.Time) ([]schema.Registry, error)
	RegistryFindLiveValues(ctx context.Context, group, key string, timeout time.Duration, now time.Time) ([]string, error)
	RegistryFindDead(ctx context.Context, timeout time.Duration, now time.Time) ([]int64, error)
	RegistryRemoveDead(ctx context.Context, ids []int64) (int64, error)
	GroupFindByAddressType(ctx context.Context, addressType int) ([]schema.Group, error)
	GroupUpdateAddressList(ctx context.Context, id int, addressList *string, now time.Time) error
}

// orNow defaults a component's clock to the system clock.
func orNow(now func() time.Time) func() time.Time {
	if now == nil {
		return time.Now
	}
	return now
}
