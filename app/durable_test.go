package app_test

import (
	"context"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/xxl-admin-go/xxl-admin-go/app"
	"github.com/xxl-admin-go/xxl-admin-go/compat/schema"
	"github.com/xxl-admin-go/xxl-admin-go/core/trigger"
	"github.com/xxl-admin-go/xxl-admin-go/internal/testsupport/fakeexec"
	"github.com/xxl-admin-go/xxl-admin-go/internal/testsupport/storetest"
	"github.com/xxl-admin-go/xxl-admin-go/internal/testsupport/testfactory"
)

// TestDurableTriggersWired: an admin starting on a database where another
// admin left a decided child trigger creates nothing twice, and its
// sweeper sends that trigger once (counted at the executor).
func TestDurableTriggersWired(t *testing.T) {
	url := "jdbc:sqlite:" + filepath.Join(t.TempDir(), "xxl-job.db")
	s := storetest.Open(t, url, "", "")
	exec := fakeexec.Start(fakeexec.Config{})
	t.Cleanup(exec.Close)
	group := testfactory.Group(t, s, testfactory.GroupOpts{AddressType: 1, AddressList: schema.Ptr(exec.Address())})
	job := testfactory.Job(t, s, testfactory.JobOpts{Group: group.ID, Handler: "h"})
	left := trigger.Request{JobID: job.ID, Type: trigger.TypeParent, FailRetryCount: -1}
	d := &trigger.Durable{Owner: "admin-gone", Lease: -time.Second} // expired already
	if err := s.PendingInsert(context.Background(), []schema.PendingTrigger{d.Decision(&left, 77, 0)}); err != nil {
		t.Fatal(err)
	}

	a := startAdmin(t, app.Options{Tuning: app.Tuning{SweepInterval: 50 * time.Millisecond}}, "--spring.datasource.url="+url)
	deadline := time.Now().Add(20 * time.Second)
	for {
		n, err := s.PendingCount(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		if n == 0 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the left trigger is still pending\n%s", a.logs.String())
		}
		time.Sleep(20 * time.Millisecond)
	}
	rows, _, err := s.LogPageList(context.Background(), 0, 10, schema.LogFilter{JobID: job.ID})
	if err != nil || len(rows) != 1 || rows[0].TriggerCode != 200 {
		t.Fatalf("log rows %+v, %v", rows, err)
	}
	if e := exec.Entry(rows[0].ID); e.Received != 1 {
		t.Fatalf("executor ledger %+v, want one /run", e)
	}
	if !strings.Contains(a.logs.String(), `"outcome":"submitted"`) {
		t.Errorf("no sweeper line for the trigger taken over\n%s", a.logs.String())
	}
}

// TestDurableTriggersOff: xxl.job.durable-triggers=false creates no table
// of ours; by default an admin creates it and says so.
func TestDurableTriggersOff(t *testing.T) {
	for _, on := range []bool{true, false} {
		url := "jdbc:sqlite:" + filepath.Join(t.TempDir(), "xxl-job.db")
		args := []string{"--spring.datasource.url=" + url}
		if !on {
			args = append(args, "--xxl.job.durable-triggers=false")
		}
		a := startAdmin(t, app.Options{}, args...)
		if err := a.stop(); err != nil {
			t.Fatal(err)
		}
		said := strings.Contains(a.logs.String(), "created our table of durable retries")
		target, err := schema.ParseJDBC(url, "", "")
		if err != nil {
			t.Fatal(err)
		}
		s, err := schema.Open(context.Background(), target, schema.PoolSettings{MaxOpen: 1}) // no Prepare
		if err != nil {
			t.Fatal(err)
		}
		_, err = s.PendingCount(context.Background())
		s.Close()
		if exists := err == nil; exists != on || said != on {
			t.Errorf("durable triggers %v: table exists %v (%v), start-up line %v", on, exists, err, said)
		}
	}
}
