package durable

import (
	"cmp"
	"context"
	"database/sql"
	"fmt"
	"os"
	"slices"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/xxl-admin-go/xxl-admin-go/compat/schema"
	"github.com/xxl-admin-go/xxl-admin-go/conformance/cluster"
	"github.com/xxl-admin-go/xxl-admin-go/conformance/galera"
	"github.com/xxl-admin-go/xxl-admin-go/core/trigger"
	"github.com/xxl-admin-go/xxl-admin-go/internal/testsupport/storetest"
)

const galeraNodes = 3

// envGalera switches the Galera suite on, as for conformance/galera.
const envGalera = "XXL_TEST_GALERA"

// TestDurableGalera runs on a 3-node MariaDB Galera cluster on loopback
// (conformance/galera's): the takeover claim with one store per node
// racing for the same rows, then the crash test with one admin per node.
func TestDurableGalera(t *testing.T) {
	if os.Getenv(envGalera) == "" {
		t.Skip("[suite-off] " + envGalera + "=1 runs the 3-node Galera test (mariadb-server and galera-4; see .ci/packages.d/galera)")
	}
	if testing.Short() {
		t.Skip("real-clock test of about a minute and a half")
	}
	bins, err := galera.FindBinaries()
	if err != nil {
		t.Fatalf("%s is set but the cluster cannot be built: %v", envGalera, err)
	}
	cluster.Exclusive(t)
	ctx, cancel := context.WithTimeout(context.Background(), 15*time.Minute)
	defer cancel()
	base, err := os.MkdirTemp("", "xxl-gdur-") // short: socket paths are limited to 108 bytes
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = os.RemoveAll(base) })
	built := make(chan struct{})
	go func() { defer close(built); adminBinary(t) }()
	c, err := galera.Start(ctx, bins, base, galeraNodes)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if err := c.Stop(); err != nil {
			t.Error(err)
		}
	})
	<-built
	if t.Failed() {
		t.FailNow()
	}
	databases := 0
	newDatabase := func(t *testing.T) []string {
		databases++
		name := fmt.Sprintf("xxl_durable_%d", databases)
		root, err := sql.Open("mysql", c.DSN(0, ""))
		if err != nil {
			t.Fatal(err)
		}
		defer root.Close()
		if _, err := root.ExecContext(ctx, "CREATE DATABASE "+name+" DEFAULT CHARACTER SET utf8mb4"); err != nil {
			t.Fatal(err)
		}
		urls := make([]string, galeraNodes)
		for i := range urls {
			urls[i] = c.JDBCURL(i, name, "Asia/Shanghai")
		}
		return urls
	}

	t.Run("claim", func(t *testing.T) { galeraClaim(t, ctx, newDatabase(t)) })
	t.Run("crash", func(t *testing.T) {
		var total Figures
		for run := range envInt(envRuns, 1) {
			urls := newDatabase(t)
			// Prepared through node 1 before any admin starts: the schema
			// preparation lock is a node's own.
			storetest.OpenGen(t, schema.Gen2, urls[0], galera.User, galera.Password)
			total.Add(runOne(t, run, urls, galera.User, galera.Password, schema.Gen2, envCount(envGaleraWorkflows, defaultWorkflows)))
		}
		report(t, "galera", total)
	})
}

// galeraClaim: three admins, one per node, take the same expired rows over
// at the same moment; of each row exactly one wins — the others' commits
// fail certification (a conflict) or find the claim already changed — and
// every node then holds the winner's claim.
func galeraClaim(t *testing.T, ctx context.Context, urls []string) {
	const rows = 40
	stores := make([]*schema.Store, len(urls))
	for i, url := range urls {
		stores[i] = storetest.Open(t, url, galera.User, galera.Password)
	}
	now := time.Now()
	var decided []schema.PendingTrigger
	for i := range rows {
		req := trigger.Request{JobID: 1, Type: trigger.TypeParent, FailRetryCount: -1}
		d := &trigger.Durable{Owner: "admin-gone", Lease: -time.Minute, Now: func() time.Time { return now }}
		decided = append(decided, d.Decision(&req, int64(1000+i), 0))
	}
	if err := stores[0].PendingInsert(ctx, decided); err != nil {
		t.Fatal(err)
	}
	expired := make([][]schema.PendingTrigger, len(stores))
	for i, s := range stores {
		expired[i] = waitRows(t, ctx, s, rows, func(schema.PendingTrigger) bool { return true })
	}
	var conflicts atomic.Int32
	winners := map[int64]int64{} // row id → winning claim
	for r := range rows {
		var wg sync.WaitGroup
		var mu sync.Mutex
		var won []int64
		start := make(chan struct{})
		for i, s := range stores {
			wg.Go(func() {
				claim := trigger.NewClaim()
				<-start
				ok, err := s.PendingClaim(ctx, expired[i][r], claim, fmt.Sprintf("admin-%d", i), now.Add(time.Hour))
				switch {
				case err != nil && schema.IsConflict(err):
					conflicts.Add(1)
				case err != nil:
					t.Errorf("node %d: claim: %v", i+1, err)
				case ok:
					mu.Lock()
					won = append(won, claim)
					mu.Unlock()
				}
			})
		}
		close(start)
		wg.Wait()
		if len(won) != 1 {
			t.Fatalf("row %d: %d of %d nodes' takeovers won, want exactly 1", expired[0][r].ID, len(won), len(stores))
		}
		winners[expired[0][r].ID] = won[0]
	}
	// Every node holds the winners' claims.
	for i, s := range stores {
		waitRows(t, ctx, s, rows, func(p schema.PendingTrigger) bool { return winners[p.ID] == p.Claim })
		t.Logf("node %d holds every winner's claim", i+1)
	}
	t.Logf("%d rows taken over by 3 nodes at once: one winner each; %d takeovers lost at certification", rows, conflicts.Load())
}

// waitRows waits until a node holds n pending rows that all satisfy ok
// (replication applies a moment after the commit) and returns them by id.
func waitRows(t *testing.T, ctx context.Context, s *schema.Store, n int, ok func(schema.PendingTrigger) bool) []schema.PendingTrigger {
	t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for {
		rows, err := s.PendingExpired(ctx, time.UnixMilli(1<<62), 1000)
		if err != nil {
			t.Fatal(err)
		}
		good := len(rows) == n
		for _, p := range rows {
			good = good && ok(p)
		}
		if good {
			slices.SortFunc(rows, func(a, b schema.PendingTrigger) int { return cmp.Compare(a.ID, b.ID) })
			return rows
		}
		if time.Now().After(deadline) {
			t.Fatalf("a node holds %d rows, not the %d expected", len(rows), n)
		}
		time.Sleep(20 * time.Millisecond)
	}
}
