package schema

import (
	"context"
	"errors"
	"strings"
	"sync"
	"testing"
	"time"
)

func groupCount(t *testing.T, s *Store, app string) int {
	t.Helper()
	_, n, err := s.GroupPageList(context.Background(), 0, 1, GroupFilter{AppName: app, Title: ""})
	mustNoErr(t, err)
	return n
}

// TestWithTx checks commit on success, rollback on error and on panic (the
// panic propagates), and that nested calls join the outer transaction.
func TestWithTx(t *testing.T) {
	forEachPrepared(t, func(t *testing.T, s *Store) {
		ctx := context.Background()
		boom := errors.New("boom")
		err := s.WithTx(ctx, func(tx *Store) error {
			if _, err := tx.GroupSave(ctx, Group{AppName: "rolled-back", Title: "x"}); err != nil {
				return err
			}
			// Not visible outside before commit.
			if n := groupCount(t, s, "rolled-back"); n != 0 {
				t.Errorf("uncommitted row visible outside: %d", n)
			}
			return boom
		})
		if !errors.Is(err, boom) {
			t.Fatalf("WithTx = %v, want boom", err)
		}
		if n := groupCount(t, s, "rolled-back"); n != 0 {
			t.Errorf("row survived an error: %d", n)
		}

		func() {
			defer func() {
				if p := recover(); p != "kaboom" {
					t.Errorf("recovered %v, want the original panic", p)
				}
			}()
			_ = s.WithTx(ctx, func(tx *Store) error {
				if _, err := tx.GroupSave(ctx, Group{AppName: "panicked", Title: "x"}); err != nil {
					return err
				}
				panic("kaboom")
			})
			t.Errorf("panic swallowed")
		}()
		if n := groupCount(t, s, "panicked"); n != 0 {
			t.Errorf("row survived a panic: %d", n)
		}

		// The rolled-back transactions released their locks and connections:
		// a write now neither waits for them nor fails.
		wctx, cancel := context.WithTimeout(ctx, 5*time.Second)
		defer cancel()
		err = s.WithTx(wctx, func(tx *Store) error {
			if _, err := tx.GroupSave(wctx, Group{AppName: "committed", Title: "x"}); err != nil {
				return err
			}
			// A nested WithTx runs in the same transaction.
			return tx.WithTx(wctx, func(inner *Store) error {
				if inner.q != tx.q {
					t.Errorf("nested WithTx opened a new transaction")
				}
				_, err := inner.GroupSave(wctx, Group{AppName: "committed", Title: "y"})
				return err
			})
		})
		mustNoErr(t, err)
		if n := groupCount(t, s, "committed"); n != 2 {
			t.Errorf("committed rows = %d, want 2", n)
		}
	})
}

// TestWithScheduleLock checks two holders of the schedule lock exclude each
// other (schema.md §4.8): the second enters only after the first committed.
func TestWithScheduleLock(t *testing.T) {
	forEachPrepared(t, func(t *testing.T, s *Store) {
		ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
		defer cancel()
		entered1, release1 := make(chan struct{}), make(chan struct{})
		var once sync.Once
		release := func() { once.Do(func() { close(release1) }) }
		defer release() // also on a failed assertion, so no goroutine is left blocked
		done1, done2 := make(chan error, 1), make(chan error, 1)
		seen2 := make(chan int, 1)
		go func() {
			done1 <- s.WithScheduleLock(ctx, func(tx *Store) error {
				close(entered1)
				<-release1
				_, err := tx.GroupSave(ctx, Group{AppName: "holder-one", Title: "x"})
				return err
			})
		}()
		select {
		case <-entered1:
		case err := <-done1:
			t.Fatalf("first holder: %v", err)
		}
		go func() {
			done2 <- s.WithScheduleLock(ctx, func(tx *Store) error {
				_, n, err := tx.GroupPageList(ctx, 0, 1, GroupFilter{AppName: "holder-one", Title: ""})
				seen2 <- n
				return err
			})
		}()
		waitForLockWaiter(t, s, seen2, done2)
		release()
		mustNoErr(t, <-done1)
		mustNoErr(t, <-done2)
		// Holder two saw holder one's committed row, so it entered after the
		// commit, not merely after holder one's callback started.
		if n := <-seen2; n != 1 {
			t.Errorf("second holder saw %d rows of the first, want 1 (entered before commit)", n)
		}
	})
}

// waitForLockWaiter returns once the second schedule-lock holder is blocked.
// MySQL shows the waiter in information_schema; SQLite offers no such view,
// so there we can only give the waiter time to (wrongly) get in.
func waitForLockWaiter(t *testing.T, s *Store, entered <-chan int, done <-chan error) {
	t.Helper()
	deadline := time.Now().Add(45 * time.Second) // generous: the server may be busy with parallel tests
	grace := time.Duration(0)
	if s.Backend() == SQLite {
		grace = 300 * time.Millisecond
	}
	for {
		select {
		case n := <-entered:
			t.Fatalf("second holder entered while the first held the lock (saw %d)", n)
		case err := <-done:
			t.Fatalf("second holder returned while the first held the lock: %v", err)
		case <-time.After(grace):
		}
		if s.Backend() == SQLite {
			return
		}
		// Blocked = the server lists the second holder as waiting for a lock
		// (see ScheduleLockWaiters for why that is not innodb_trx alone).
		waiting, _, err := s.ScheduleLockWaiters(context.Background())
		mustNoErr(t, err)
		if waiting > 0 {
			return
		}
		if time.Now().After(deadline) {
			rows, _ := s.db.Query("SELECT concat_ws(' | ', id, command, time, coalesce(state,'-'), coalesce(info,'-')) FROM information_schema.processlist WHERE db = DATABASE()")
			for rows != nil && rows.Next() {
				var line string
				_ = rows.Scan(&line)
				t.Log(line)
			}
			t.Fatalf("second holder never blocked")
		}
		grace = 10 * time.Millisecond // polling information_schema; no event to wait on
	}
}

// TestWithScheduleLockMissingRow checks the lock refuses to run without the
// schedule_lock row rather than locking nothing (schema.md §2).
func TestWithScheduleLockMissingRow(t *testing.T) {
	forEachPrepared(t, func(t *testing.T, s *Store) {
		rawExec(t, s, "DELETE FROM xxl_job_lock")
		called := false
		err := s.WithScheduleLock(context.Background(), func(*Store) error { called = true; return nil })
		if err == nil || !strings.Contains(err.Error(), "schedule_lock") || called {
			t.Errorf("WithScheduleLock without the row = %v (fn called: %v)", err, called)
		}
	})
}
