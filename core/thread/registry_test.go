package thread

import (
	"context"
	"testing"
	"time"

	"github.com/rs/zerolog"

	"github.com/xxl-admin-go/xxl-admin-go/compat/api"
	"github.com/xxl-admin-go/xxl-admin-go/compat/schema"
	"github.com/xxl-admin-go/xxl-admin-go/internal/testsupport/storetest"
)

func groupList(t *testing.T, s *schema.Store, id int) *string {
	t.Helper()
	g, err := s.GroupLoad(context.Background(), id)
	if err != nil {
		t.Fatal(err)
	}
	return g.AddressList
}

func registryRows(t *testing.T, s *schema.Store, now time.Time) []schema.Registry {
	t.Helper()
	rows, err := s.RegistryFindAll(context.Background(), 24*time.Hour, now)
	if err != nil {
		t.Fatal(err)
	}
	return rows
}

// TestRegistrar: update-then-insert without duplicates (executor-protocol.md
// §2.4), and our documented early address-list refresh on a new executor.
func TestRegistrar(t *testing.T) {
	storetest.ForEach(t, func(t *testing.T, s *schema.Store) {
		ctx := context.Background()
		now := time.Now()
		r := NewRegistrar(RegistrarConfig{Store: s, Now: func() time.Time { return now }, Log: zerolog.Nop()})
		p := api.RegistryParam{RegistryGroup: "EXECUTOR", RegistryKey: "xxl-job-executor-sample", RegistryValue: "http://127.0.0.1:9999/"}
		for i := 0; i < 3; i++ { // beats within the same second: one row
			if err := r.Registry(ctx, p); err != nil {
				t.Fatal(err)
			}
		}
		if rows := registryRows(t, s, now); len(rows) != 1 {
			t.Fatalf("rows %+v", rows)
		}
		if got := groupList(t, s, 1); got == nil || *got != "http://127.0.0.1:9999/" {
			t.Fatalf("address_list %v", got)
		}
		p2 := p
		p2.RegistryValue = "http://127.0.0.1:9998/"
		if err := r.Registry(ctx, p2); err != nil {
			t.Fatal(err)
		}
		if got := groupList(t, s, 1); got == nil || *got != "http://127.0.0.1:9998/,http://127.0.0.1:9999/" {
			t.Fatalf("address_list %v", got)
		}
		// Another group name is stored but never feeds address_list (§2.4 point 4).
		if err := r.Registry(ctx, api.RegistryParam{RegistryGroup: "ADMIN", RegistryKey: "xxl-job-executor-sample", RegistryValue: "http://x/"}); err != nil {
			t.Fatal(err)
		}
		if got := groupList(t, s, 1); *got != "http://127.0.0.1:9998/,http://127.0.0.1:9999/" {
			t.Fatalf("address_list %v", *got)
		}
		for _, q := range []api.RegistryParam{p, p2} {
			if err := r.RegistryRemove(ctx, q); err != nil {
				t.Fatal(err)
			}
		}
		if got := groupList(t, s, 1); got != nil {
			t.Fatalf("address_list after removal %q, want NULL", *got)
		}
		if rows := registryRows(t, s, now); len(rows) != 1 || rows[0].RegistryGroup != "ADMIN" {
			t.Fatalf("rows %+v", rows)
		}
	})
}

// TestRegistryMonitorPass: scheduler.md §9 — purge rows older than 90 s,
// rebuild automatic groups sorted and comma-joined, leave manual groups.
func TestRegistryMonitorPass(t *testing.T) {
	storetest.ForEach(t, func(t *testing.T, s *schema.Store) {
		ctx := context.Background()
		now := time.Now().Truncate(time.Second)
		manualList := "http://manual:1/"
		manualID, err := s.GroupSave(ctx, schema.Group{AppName: "manual-app", Title: "m", AddressType: 1, AddressList: &manualList})
		if err != nil {
			t.Fatal(err)
		}
		otherID, err := s.GroupSave(ctx, schema.Group{AppName: "other-app", Title: "o", AddressType: 0, AddressList: schema.Ptr("http://stale/")})
		if err != nil {
			t.Fatal(err)
		}
		for _, r := range []struct {
			key, value string
			age        time.Duration
		}{
			{"xxl-job-executor-sample", "http://b:1/", 10 * time.Second},
			{"xxl-job-executor-sample", "http://a:1/", 89 * time.Second},
			{"xxl-job-executor-sample", "http://dead:1/", 91 * time.Second},
			{"manual-app", "http://m:2/", time.Second},
		} {
			if err := s.RegistrySave(ctx, "EXECUTOR", r.key, r.value, now.Add(-r.age)); err != nil {
				t.Fatal(err)
			}
		}
		m := NewRegistryMonitor(RegistryMonitorConfig{Store: s, Now: func() time.Time { return now }, Log: zerolog.Nop()})
		if err := m.Pass(ctx); err != nil {
			t.Fatal(err)
		}
		if got := groupList(t, s, 1); got == nil || *got != "http://a:1/,http://b:1/" {
			t.Fatalf("sample group %v", got)
		}
		if got := groupList(t, s, otherID); got != nil {
			t.Fatalf("group without executors should be NULL, got %q", *got)
		}
		if got := groupList(t, s, manualID); got == nil || *got != manualList {
			t.Fatalf("manual group touched: %v", got)
		}
		rows := registryRows(t, s, now)
		if len(rows) != 3 {
			t.Fatalf("dead row not purged: %+v", rows)
		}
	})
}

// TestRegistryMonitorNoAutoGroup: with no automatic group the pass does
// nothing, dead rows included (scheduler.md §9 step 1).
func TestRegistryMonitorNoAutoGroup(t *testing.T) {
	s := storetest.SQLite(t)
	ctx := context.Background()
	now := time.Now()
	if _, err := s.GroupRemove(ctx, 1); err != nil {
		t.Fatal(err)
	}
	if err := s.RegistrySave(ctx, "EXECUTOR", "k", "v", now.Add(-time.Hour)); err != nil {
		t.Fatal(err)
	}
	m := NewRegistryMonitor(RegistryMonitorConfig{Store: s, Now: func() time.Time { return now }, Log: zerolog.Nop()})
	if err := m.Pass(ctx); err != nil {
		t.Fatal(err)
	}
	if rows := registryRows(t, s, now.Add(-2*time.Hour)); len(rows) != 1 {
		t.Fatalf("rows %+v", rows)
	}
}

// TestRegistryMonitorRuns: the component runs its first pass at once and
// stops cleanly (goleak in TestMain).
func TestRegistryMonitorRuns(t *testing.T) {
	s := storetest.SQLite(t)
	ctx := context.Background()
	if err := s.RegistrySave(ctx, "EXECUTOR", "xxl-job-executor-sample", "http://a/", time.Now()); err != nil {
		t.Fatal(err)
	}
	m := NewRegistryMonitor(RegistryMonitorConfig{Store: s, Now: time.Now, Interval: time.Hour, Log: zerolog.Nop()})
	done := make(chan struct{}, 1)
	m.passDone = func() { done <- struct{}{} }
	if err := m.Start(ctx); err != nil {
		t.Fatal(err)
	}
	<-done
	m.Stop()
	m.Stop()
	if got := groupList(t, s, 1); got == nil || *got != "http://a/" {
		t.Fatalf("address_list %v", got)
	}
}
