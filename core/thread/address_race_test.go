package thread

import (
	"context"
	"sync"
	"testing"
	"time"

	"github.com/rs/zerolog"

	"github.com/xxl-admin-go/xxl-admin-go/compat/api"
	"github.com/xxl-admin-go/xxl-admin-go/compat/schema"
	"github.com/xxl-admin-go/xxl-admin-go/internal/testsupport/storetest"
)

// pausedReads is the store with a monitor pass held after it read the
// live registrations, until the test lets it write.
type pausedReads struct {
	registryStore
	read, release chan struct{}
}

func (p pausedReads) RegistryFindAll(ctx context.Context, dead time.Duration, now time.Time) ([]schema.Registry, error) {
	rows, err := p.registryStore.RegistryFindAll(ctx, dead, now)
	close(p.read)
	<-p.release
	return rows, err
}

// contended is a mutex that says when a second Lock call is waiting.
type contended struct {
	mu      sync.Mutex
	held    bool
	hmu     sync.Mutex
	waiting chan struct{}
}

func (c *contended) Lock() {
	c.hmu.Lock()
	if c.held {
		close(c.waiting)
	}
	c.held = true
	c.hmu.Unlock()
	c.mu.Lock()
}

func (c *contended) Unlock() { c.mu.Unlock() }

// TestNewExecutorSurvivesMonitorPass: a monitor pass that read the live
// registrations just before a new executor registered must not write its
// older list over the one rebuilt for the newcomer (the registrar's early
// refresh, our addition to scheduler.md §9). The CI run that found it: the
// admin's first pass at start-up raced the test's registration, leaving
// address_list NULL for up to 30 s.
func TestNewExecutorSurvivesMonitorPass(t *testing.T) {
	s := storetest.SQLite(t)
	ctx := context.Background()
	now := time.Now()
	lists := &contended{waiting: make(chan struct{})}
	store := pausedReads{registryStore: s, read: make(chan struct{}), release: make(chan struct{})}
	m := NewRegistryMonitor(RegistryMonitorConfig{Store: store, Now: func() time.Time { return now }, Log: zerolog.Nop(), Lists: lists})
	r := NewRegistrar(RegistrarConfig{Store: s, Now: func() time.Time { return now }, Log: zerolog.Nop(), Lists: lists})

	passed := make(chan error, 1)
	go func() { passed <- m.Pass(ctx) }()
	<-store.read // the pass saw no executor
	registered := make(chan error, 1)
	go func() {
		registered <- r.Registry(ctx, api.RegistryParam{RegistryGroup: "EXECUTOR", RegistryKey: "xxl-job-executor-sample", RegistryValue: "http://new:1/"})
	}()
	select {
	case <-lists.waiting: // the registrar's rebuild waits for the pass
	case err := <-registered:
		t.Fatalf("registration rebuilt the list while the pass held an older read (err %v)", err)
	case <-time.After(10 * time.Second):
		t.Fatal("the registrar neither waited for the pass nor finished")
	}
	close(store.release)
	if err := <-passed; err != nil {
		t.Fatal(err)
	}
	if err := <-registered; err != nil {
		t.Fatal(err)
	}
	if got := groupList(t, s, 1); got == nil || *got != "http://new:1/" {
		t.Fatalf("address_list %v, want the new executor", got)
	}
}
