package schema

import (
	"context"
	"errors"
	"strings"
	"sync"
	"testing"
	"time"
)

// TestGroupCommitBatchesAndIsolates: units queued while a commit is in
// flight share one transaction; a unit failing inside a shared transaction
// does not fail the others (they are run again on their own).
func TestGroupCommitBatchesAndIsolates(t *testing.T) {
	forEachPrepared(t, func(t *testing.T, s *Store) {
		ctx := context.Background()
		g := s.NewGroupCommit(16)
		ids := make([]int64, 5)
		bad := errors.New("unit refused")
		batch := make([]*unit, len(ids))
		for i := range batch {
			i := i
			batch[i] = &unit{wake: make(chan bool, 1), fn: func(ctx context.Context, tx *Store) (err error) {
				if i == 3 {
					return bad
				}
				ids[i], err = tx.LogSave(ctx, JobLog{JobGroup: 1, JobID: 1})
				return err
			}}
		}
		g.flush(batch)
		for i, u := range batch {
			if (u.err != nil) != (i == 3) || (i == 3 && !errors.Is(u.err, bad)) {
				t.Errorf("unit %d err = %v", i, u.err)
			}
		}
		n, _ := s.count(ctx, s.sb.Select("count(1)").From("xxl_job_log"))
		if n != 4 {
			t.Fatalf("%d rows, want 4 (the failed shared transaction must not leave duplicates)", n)
		}
		for i, id := range ids {
			if i != 3 {
				if _, err := s.LogLoad(ctx, id); err != nil {
					t.Errorf("row %d: %v", i, err)
				}
			}
		}

		// Concurrent callers: every unit commits, fewer commits than units.
		var wg sync.WaitGroup
		for i := 0; i < 64; i++ {
			wg.Add(1)
			go func() {
				defer wg.Done()
				err := g.Do(ctx, func(ctx context.Context, tx *Store) error {
					_, err := tx.LogSave(ctx, JobLog{JobGroup: 1, JobID: 2})
					return err
				})
				if err != nil {
					t.Error(err)
				}
			}()
		}
		wg.Wait()
		n, _ = s.count(ctx, s.sb.Select("count(1)").From("xxl_job_log").Where("job_id = 2"))
		if n != 64 {
			t.Fatalf("%d rows, want 64", n)
		}
		units, commits := g.Stats()
		t.Logf("units %d commits %d", units, commits)
	})
}

// TestGroupCommitOverlongValue: strict MariaDB and PostgreSQL reject an
// over-long value inside a shared batch; only that unit fails.
func TestGroupCommitOverlongValue(t *testing.T) {
	forEachPrepared(t, func(t *testing.T, s *Store) {
		ctx := context.Background()
		id, err := s.LogSave(ctx, JobLog{JobGroup: 1, JobID: 1})
		if err != nil {
			t.Fatal(err)
		}
		g := s.NewGroupCommit(16)
		long := strings.Repeat("9", 40) // over varchar(20) on MySQL and PostgreSQL; SQLite stores it
		batch := []*unit{
			{wake: make(chan bool, 1), fn: func(ctx context.Context, tx *Store) error {
				return tx.LogUpdateTriggerInfo(ctx, JobLog{ID: id, TriggerCode: 200, ExecutorShardingParam: Ptr("0/1")})
			}},
			{wake: make(chan bool, 1), fn: func(ctx context.Context, tx *Store) error {
				return tx.LogUpdateTriggerInfo(ctx, JobLog{ID: id, TriggerCode: 500, ExecutorShardingParam: &long})
			}},
		}
		g.flush(batch)
		if batch[0].err != nil {
			t.Fatalf("good unit failed: %v", batch[0].err)
		}
		row, _ := s.LogLoad(ctx, id)
		switch s.Backend() {
		case MySQL, Postgres:
			if batch[1].err == nil || row.TriggerCode != 200 {
				t.Fatalf("over-long unit: err %v, trigger_code %d", batch[1].err, row.TriggerCode)
			}
		default:
			if batch[1].err != nil || row.TriggerCode != 500 {
				t.Fatalf("sqlite: err %v, trigger_code %d", batch[1].err, row.TriggerCode)
			}
		}
	})
}

// TestGroupCommitLanesStress: many callers through all lanes, repeatedly;
// every call returns (no lost wake-up, no deadlock) with its own result.
func TestGroupCommitLanesStress(t *testing.T) {
	forEachPrepared(t, func(t *testing.T, s *Store) {
		g := s.NewGroupCommit(32)
		var wg sync.WaitGroup
		for w := 0; w < 100; w++ {
			wg.Add(1)
			go func() {
				defer wg.Done()
				for i := 0; i < 20; i++ {
					var got int
					err := g.Do(context.Background(), func(ctx context.Context, tx *Store) error {
						got = i
						return tx.Ping(ctx)
					})
					if err != nil || got != i {
						t.Errorf("call %d: got %d, err %v", i, got, err)
						return
					}
				}
			}()
		}
		wg.Wait()
		units, commits := g.Stats()
		if units < 2000 {
			t.Fatalf("%d units ran, want at least 2000", units)
		}
		t.Logf("lanes %d: %d units in %d commits", g.lanes, units, commits)
	})
}

// TestGroupCommitRetriesDeadlockVictim: a unit chosen as the victim of a
// real deadlock is run again and its caller sees success, not the
// deadlock (a callback POST answered 500 for it).
func TestGroupCommitRetriesDeadlockVictim(t *testing.T) {
	forEachPrepared(t, func(t *testing.T, s *Store) {
		if s.Backend() == SQLite {
			t.Skip("one writer: no deadlocks")
		}
		// The server picks the victim; the set-up below makes it the unit,
		// but on a loaded machine PostgreSQL's timer can still pick the
		// other one: then the scenario runs again.
		for attempt := 1; attempt <= 3; attempt++ {
			runs, err, otherErr := deadlockUnit(t, s)
			if otherErr != nil {
				if !IsConflict(otherErr) {
					t.Fatalf("other transaction: %v", otherErr)
				}
				t.Logf("attempt %d: the server rolled back the other transaction; again", attempt)
				continue
			}
			if err != nil {
				t.Fatalf("unit: %v", err)
			}
			if runs != 2 {
				t.Errorf("the unit ran %d times, want 2 (rolled back once, then committed)", runs)
			}
			return
		}
		t.Fatal("the unit was never the deadlock's victim: the retry was not exercised")
	})
}

// deadlockUnit runs one group-commit unit into a deadlock with another
// transaction, arranged so that the server rolls back the unit: MariaDB
// rolls back the transaction whose lock request closes the cycle,
// PostgreSQL the one whose deadlock_timeout (1 s) runs out first, i.e. the
// one that began waiting first (the other starts waiting 500 ms later).
func deadlockUnit(t *testing.T, s *Store) (runs int, err, otherErr error) {
	ctx := context.Background()
	ids, err := s.LogSaveMany(ctx, []JobLog{{JobGroup: 1, JobID: 1}, {JobGroup: 1, JobID: 2}})
	mustNoErr(t, err)
	a, b := ids[0], ids[1]
	unitWaitsFirst := s.Backend() == Postgres
	aLocked, bLocked := make(chan struct{}), make(chan struct{})
	other := make(chan error, 1)
	go func() {
		other <- s.WithTx(ctx, func(tx *Store) error {
			if _, err := tx.LogLoadManyForUpdate(ctx, []int64{b}); err != nil {
				return err
			}
			close(bLocked)
			<-aLocked
			if unitWaitsFirst {
				if err := waitLockWaiter(ctx, s); err != nil {
					return err
				}
				time.Sleep(500 * time.Millisecond) // see above: the unit's timer must run out first
			}
			_, err := tx.LogLoadManyForUpdate(ctx, []int64{a})
			return err
		})
	}()
	g := s.NewGroupCommit(16)
	err = g.Do(ctx, func(ctx context.Context, gtx *Store) error {
		return gtx.WithTx(ctx, func(tx *Store) error {
			runs++
			if _, err := tx.LogLoadManyForUpdate(ctx, []int64{a}); err != nil {
				return err
			}
			if runs == 1 {
				<-bLocked
				close(aLocked)
				if !unitWaitsFirst {
					if err := waitLockWaiter(ctx, s); err != nil {
						return err
					}
				}
			}
			_, err := tx.LogLoadManyForUpdate(ctx, []int64{b})
			return err
		})
	})
	return runs, err, <-other
}

// TestGroupCommitSkipsAbandonedUnits: a unit whose caller's context ends
// while it waits behind a busy lane is not run (the caller already gave
// up and its client sends the work again); its Do returns the context's
// error, and the units queued beside it that are still wanted run.
func TestGroupCommitSkipsAbandonedUnits(t *testing.T) {
	s := openSQLite(t) // one lane: the second and third callers queue
	g := s.NewGroupCommit(16)
	release := make(chan struct{})
	busy := make(chan struct{})
	first := make(chan error, 1)
	go func() {
		first <- g.Do(context.Background(), func(context.Context, *Store) error {
			close(busy)
			<-release
			return nil
		})
	}()
	<-busy
	queued := func(n int) bool {
		g.mu.Lock()
		defer g.mu.Unlock()
		return len(g.pending) == n
	}
	gone, giveUp := context.WithCancel(context.Background())
	ran := make(chan string, 2)
	results := make(chan error, 2)
	go func() {
		results <- g.Do(gone, func(context.Context, *Store) error { ran <- "abandoned"; return nil })
	}()
	for !queued(1) {
		time.Sleep(time.Millisecond)
	}
	go func() {
		results <- g.Do(context.Background(), func(context.Context, *Store) error { ran <- "wanted"; return nil })
	}()
	for !queued(2) {
		time.Sleep(time.Millisecond)
	}
	giveUp()
	close(release)
	if err := <-first; err != nil {
		t.Fatal(err)
	}
	var errs []error
	for range 2 {
		errs = append(errs, <-results)
	}
	close(ran)
	var runs []string
	for r := range ran {
		runs = append(runs, r)
	}
	if len(runs) != 1 || runs[0] != "wanted" {
		t.Errorf("units run: %v, want only the wanted one", runs)
	}
	var canceled int
	for _, err := range errs {
		if errors.Is(err, context.Canceled) {
			canceled++
		} else if err != nil {
			t.Errorf("unexpected error %v", err)
		}
	}
	if canceled != 1 || g.Abandoned() != 1 {
		t.Errorf("%d callers told their unit was not run, %d abandoned; want 1 and 1", canceled, g.Abandoned())
	}
}
