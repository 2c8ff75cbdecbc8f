package schema

import (
	"context"
	"errors"
	"testing"
	"time"
)

// TestTxPassedOverDeadlockStoresNothing: a transaction the server chose
// as a deadlock's victim, whose caller passes over the error and writes
// on, stores nothing of what followed and is not answered as committed.
// Without the guard MariaDB runs the write on its own, in autocommit, and
// the COMMIT succeeds: the transaction's tail stored without its head
// (issue 28, where Galera raised the error at a plain read).
func TestTxPassedOverDeadlockStoresNothing(t *testing.T) {
	forEachPrepared(t, func(t *testing.T, s *Store) {
		if s.Backend() == SQLite {
			t.Skip("one writer: no deadlocks")
		}
		ctx := context.Background()
		for attempt := 1; attempt <= 3; attempt++ {
			ids, err := s.LogSaveMany(ctx, []JobLog{{JobGroup: 1, JobID: 1}, {JobGroup: 1, JobID: 2}, {JobGroup: 1, JobID: 3}})
			mustNoErr(t, err)
			victimErr, otherErr := passOverDeadlock(t, s, ids[0], ids[1], ids[2])
			if otherErr != nil {
				if !IsConflict(otherErr) {
					t.Fatalf("other transaction: %v", otherErr)
				}
				t.Logf("attempt %d: the server rolled back the other transaction; again", attempt)
				continue
			}
			l, err := s.LogLoad(ctx, ids[2])
			mustNoErr(t, err)
			if l.HandleCode != 0 {
				t.Errorf("log %d: handle_code %d, want 0: the write after the passed-over deadlock was stored", l.ID, l.HandleCode)
			}
			if victimErr == nil {
				t.Fatal("the victim's transaction was answered as committed")
			}
			if s.Backend() == MySQL && (!IsConflict(victimErr) || !errors.Is(victimErr, ErrTxRolledBack)) {
				t.Errorf("victim: %v, want ErrTxRolledBack (a conflict)", victimErr)
			}
			return
		}
		t.Fatal("the passing-over transaction was never the deadlock's victim")
	})
}

// passOverDeadlock runs a transaction into a deadlock with another one,
// arranged (as deadlockUnit) so that the server rolls it back; it passes
// over the error and finishes log c. It returns its WithTx's error and the
// other transaction's.
func passOverDeadlock(t *testing.T, s *Store, a, b, c int64) (victimErr, otherErr error) {
	ctx := context.Background()
	victimWaitsFirst := s.Backend() == Postgres
	aLocked, bLocked := make(chan struct{}), make(chan struct{})
	other := make(chan error, 1)
	go func() {
		other <- s.WithTx(ctx, func(tx *Store) error {
			if _, err := tx.LogLoadManyForUpdate(ctx, []int64{b}); err != nil {
				return err
			}
			close(bLocked)
			<-aLocked
			if victimWaitsFirst {
				if err := waitLockWaiter(ctx, s); err != nil {
					return err
				}
				time.Sleep(500 * time.Millisecond) // the victim's deadlock timer must run out first
			}
			_, err := tx.LogLoadManyForUpdate(ctx, []int64{a})
			return err
		})
	}()
	victimErr = s.WithTx(ctx, func(tx *Store) error {
		if _, err := tx.LogLoadManyForUpdate(ctx, []int64{a}); err != nil {
			return err
		}
		<-bLocked
		close(aLocked)
		if !victimWaitsFirst {
			if err := waitLockWaiter(ctx, s); err != nil {
				return err
			}
		}
		_, _ = tx.LogLoadManyForUpdate(ctx, []int64{b}) // the deadlock, passed over
		_, _ = tx.LogFinish(ctx, JobLog{ID: c, HandleCode: 500})
		return nil
	})
	return victimErr, <-other
}
