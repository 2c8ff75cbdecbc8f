package schema

import (
	"context"
	"errors"
	"testing"
	"time"
)

// TestIsDuplicate: a second insert of a report day is a duplicate on every
// backend (i_trigger_day is unique), other errors are not.
func TestIsDuplicate(t *testing.T) {
	forEachPrepared(t, func(t *testing.T, s *Store) {
		ctx := context.Background()
		day := time.Date(2026, 11, 23, 0, 0, 0, 0, s.Location())
		mustNoErr(t, s.ReportSave(ctx, LogReport{TriggerDay: &day}))
		err := s.ReportSave(ctx, LogReport{TriggerDay: &day})
		if !IsDuplicate(err) {
			t.Errorf("second insert of a day: %v, want a duplicate", err)
		}
		if IsDuplicate(errors.New("boom")) || IsDuplicate(nil) {
			t.Error("other errors are not duplicates")
		}
	})
}

// TestIsConflictDeadlock: two transactions locking two jobs in opposite
// orders deadlock; the server rolls one back (MySQL 1213, PostgreSQL
// 40P01) and IsConflict says so, while the other commits.
func TestIsConflictDeadlock(t *testing.T) {
	forEachPrepared(t, func(t *testing.T, s *Store) {
		if s.Backend() == SQLite {
			t.Skip("SQLite has one writer and no row locks")
		}
		ctx := context.Background()
		var ids [2]int
		for i := range ids {
			id, err := s.JobSave(ctx, JobInfo{JobGroup: 1, JobDesc: "j", ScheduleType: "NONE",
				MisfireStrategy: "DO_NOTHING", GlueType: "BEAN"})
			mustNoErr(t, err)
			ids[i] = id
		}
		firstHeld := make(chan struct{})
		secondHeld := make(chan struct{})
		lockBoth := func(first, second int, held chan<- struct{}, other <-chan struct{}, waitBlocked bool) error {
			return s.WithTx(ctx, func(tx *Store) error {
				if _, err := tx.JobLoadForUpdate(ctx, first); err != nil {
					return err
				}
				close(held)
				<-other
				if waitBlocked { // lock second only once the other side waits on us
					if err := waitLockWaiter(ctx, s); err != nil {
						return err
					}
				}
				_, err := tx.JobLoadForUpdate(ctx, second)
				return err
			})
		}
		errs := make(chan error, 2)
		go func() { errs <- lockBoth(ids[0], ids[1], firstHeld, secondHeld, false) }()
		go func() { errs <- lockBoth(ids[1], ids[0], secondHeld, firstHeld, true) }()
		a, b := <-errs, <-errs
		if (a == nil) == (b == nil) {
			t.Fatalf("results %v and %v: want exactly one transaction rolled back", a, b)
		}
		lost := a
		if lost == nil {
			lost = b
		}
		if !IsConflict(lost) {
			t.Errorf("deadlock victim's error %v: IsConflict false", lost)
		}
	})
}

// waitLockWaiter polls until a session of the database waits on a lock.
func waitLockWaiter(ctx context.Context, s *Store) error {
	deadline := time.Now().Add(30 * time.Second)
	for time.Now().Before(deadline) {
		n, _, err := s.ScheduleLockWaiters(ctx)
		if err != nil || n > 0 {
			return err
		}
		time.Sleep(5 * time.Millisecond) // no event to wait on: the server's lock tables
	}
	return errors.New("no session ever waited on a lock")
}
