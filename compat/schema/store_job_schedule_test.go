package schema

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/go-sql-driver/mysql"
	"github.com/jackc/pgx/v5/pgconn"
)

// TestJobScheduleUpdateBatch checks the batched scheduleUpdate (schema.md
// §4.2) leaves every row as one scheduleUpdate per job would: across batch
// boundaries, with a repeated id (last wins), without touching other
// columns or other jobs, in and out of the schedule-lock transaction.
func TestJobScheduleUpdateBatch(t *testing.T) {
	forEachPrepared(t, func(t *testing.T, s *Store) {
		ctx := context.Background()
		const n = 2*scheduleBatch + 50
		var jobs []JobInfo
		err := s.WithTx(ctx, func(tx *Store) error {
			for i := range n + 1 { // the last job is not in any batch
				j := JobInfo{JobGroup: 1, JobDesc: fmt.Sprintf("job %d", i), ScheduleType: "CRON",
					MisfireStrategy: "DO_NOTHING", GlueType: "BEAN", TriggerStatus: 1, TriggerNextTime: int64(i)}
				id, err := tx.JobSave(ctx, j)
				if err != nil {
					return err
				}
				j.ID = id
				jobs = append(jobs, j)
			}
			return nil
		})
		mustNoErr(t, err)
		untouched := jobs[n]
		jobs = jobs[:n]

		mustNoErr(t, s.JobScheduleUpdateBatch(ctx, nil))
		update := func(round int64) []JobInfo {
			var batch []JobInfo
			for i, j := range jobs {
				j.TriggerLastTime = 1_700_000_000_000 + round*1000 + int64(i)
				j.TriggerNextTime = 1_800_000_000_000 + round*1000 + int64(i)
				j.TriggerStatus = int((int64(i) + round) % 2)
				j.JobDesc = "must not be written"
				batch = append(batch, j)
			}
			return batch
		}
		check := func(want []JobInfo) {
			t.Helper()
			for _, w := range want {
				got, err := s.JobLoad(ctx, w.ID)
				mustNoErr(t, err)
				if got.TriggerLastTime != w.TriggerLastTime || got.TriggerNextTime != w.TriggerNextTime ||
					got.TriggerStatus != w.TriggerStatus || got.JobDesc == "must not be written" {
					t.Fatalf("job %d = %d/%d/%d %q, want %d/%d/%d", w.ID, got.TriggerLastTime, got.TriggerNextTime,
						got.TriggerStatus, got.JobDesc, w.TriggerLastTime, w.TriggerNextTime, w.TriggerStatus)
				}
			}
			got, err := s.JobLoad(ctx, untouched.ID)
			mustNoErr(t, err)
			assertRow(t, got, untouched)
		}

		first := update(1)
		mustNoErr(t, s.JobScheduleUpdateBatch(ctx, first))
		check(first)

		second := update(2)
		// A repeated id: the later entry wins, as with one statement per job.
		dup := second[3]
		dup.TriggerNextTime, dup.TriggerStatus = 42, 0
		// Both entries fall in the first batch.
		withDup := append(append(append([]JobInfo{}, second[:4]...), dup), second[4:]...)
		mustNoErr(t, s.WithScheduleLock(ctx, func(tx *Store) error { return tx.JobScheduleUpdateBatch(ctx, withDup) }))
		second[3] = dup
		check(second)
	})
}

// TestJobScheduleMove checks the round's compare-and-set write-back: moves
// from the times read are written across batch boundaries; one row no
// longer at its time read (another writer moved it, or removed the job)
// writes nothing at all and reports ErrScheduleConflict, also when the
// stale row is in a later batch than rows already updated; a job moved
// twice in one write-back is refused.
func TestJobScheduleMove(t *testing.T) {
	forEachPrepared(t, func(t *testing.T, s *Store) {
		ctx := context.Background()
		const n = scheduleBatch + 30
		var jobs []JobInfo
		err := s.WithTx(ctx, func(tx *Store) error {
			for i := range n {
				j := JobInfo{JobGroup: 1, JobDesc: fmt.Sprintf("job %d", i), ScheduleType: "FIX_RATE",
					MisfireStrategy: "DO_NOTHING", GlueType: "BEAN", TriggerStatus: 1, TriggerNextTime: 1000 + int64(i)}
				id, err := tx.JobSave(ctx, j)
				if err != nil {
					return err
				}
				j.ID = id
				jobs = append(jobs, j)
			}
			return nil
		})
		mustNoErr(t, err)
		moves := func(step int64) []ScheduleMove {
			out := make([]ScheduleMove, len(jobs))
			for i, j := range jobs {
				out[i] = ScheduleMove{ID: j.ID, FromNext: j.TriggerNextTime, Status: 1,
					Last: j.TriggerNextTime, Next: j.TriggerNextTime + step}
			}
			return out
		}
		check := func(next func(i int) int64) {
			t.Helper()
			for i, j := range jobs {
				got, err := s.JobLoad(ctx, j.ID)
				mustNoErr(t, err)
				if got.TriggerNextTime != next(i) {
					t.Fatalf("job %d next %d, want %d", j.ID, got.TriggerNextTime, next(i))
				}
			}
		}

		mustNoErr(t, s.JobScheduleMove(ctx, nil))
		mustNoErr(t, s.JobScheduleMove(ctx, moves(1000)))
		check(func(i int) int64 { return 2000 + int64(i) })
		for i := range jobs {
			jobs[i].TriggerNextTime += 1000
		}

		// Stale: the last job (second batch) was moved by someone else.
		last := jobs[n-1]
		mustNoErr(t, s.JobScheduleUpdate(ctx, JobInfo{ID: last.ID, TriggerStatus: 1, TriggerNextTime: 9999}))
		err = s.JobScheduleMove(ctx, moves(1000))
		if !errors.Is(err, ErrScheduleConflict) || !IsConflict(err) {
			t.Fatalf("stale move: %v, want ErrScheduleConflict", err)
		}
		check(func(i int) int64 {
			if i == n-1 {
				return 9999
			}
			return 2000 + int64(i)
		})
		mustNoErr(t, s.JobScheduleUpdate(ctx, JobInfo{ID: last.ID, TriggerStatus: 1, TriggerNextTime: last.TriggerNextTime}))

		// Removed job: no row to move is a conflict too, inside a caller's
		// transaction as well (which the caller then rolls back).
		_, err = s.JobDelete(ctx, jobs[0].ID)
		mustNoErr(t, err)
		err = s.WithScheduleLock(ctx, func(tx *Store) error { return tx.JobScheduleMove(ctx, moves(1000)) })
		if !IsConflict(err) {
			t.Fatalf("move of a removed job: %v, want a conflict", err)
		}
		check2 := jobs[1:]
		for i, j := range check2 {
			got, err := s.JobLoad(ctx, j.ID)
			mustNoErr(t, err)
			if got.TriggerNextTime != 2001+int64(i) {
				t.Fatalf("job %d moved by a conflicting write-back: next %d", j.ID, got.TriggerNextTime)
			}
		}

		twice := []ScheduleMove{{ID: jobs[1].ID, FromNext: 2001, Next: 3001}, {ID: jobs[1].ID, FromNext: 3001, Next: 4001}}
		if err := s.JobScheduleMove(ctx, twice); err == nil || IsConflict(err) || !strings.Contains(err.Error(), "moved twice") {
			t.Errorf("duplicate move: %v, want a refusal", err)
		}
	})
}

// TestJobScheduleQueryLocks: on MySQL/MariaDB and PostgreSQL the pre-read
// is a locking read. Inside a transaction whose snapshot predates a
// committed edit it still returns the edited row (on MySQL a plain read
// returns the snapshot; PostgreSQL's read committed takes a snapshot per
// statement), and it holds the rows it read until commit, so a concurrent
// writer waits.
func TestJobScheduleQueryLocks(t *testing.T) {
	forEachPrepared(t, func(t *testing.T, s *Store) {
		if s.Backend() == SQLite {
			t.Skip("SQLite has one writer and no row locks")
		}
		snapshot := int64(1000)
		if s.Backend() == Postgres {
			snapshot = 1500
		}
		ctx := context.Background()
		id, err := s.JobSave(ctx, JobInfo{JobGroup: 1, JobDesc: "j", ScheduleType: "FIX_RATE",
			MisfireStrategy: "DO_NOTHING", GlueType: "BEAN", TriggerStatus: 1, TriggerNextTime: 1000})
		mustNoErr(t, err)
		err = s.WithScheduleLock(ctx, func(tx *Store) error {
			if _, err := tx.JobLoad(ctx, id); err != nil { // opens the snapshot
				return err
			}
			rawExec(t, s, "UPDATE xxl_job_info SET trigger_next_time = 1500 WHERE id = ?", id)
			snap, err := tx.JobLoad(ctx, id)
			if err != nil {
				return err
			}
			due, err := tx.JobScheduleQuery(ctx, 5000, 10)
			if err != nil {
				return err
			}
			if snap.TriggerNextTime != snapshot || len(due) != 1 || due[0].TriggerNextTime != 1500 {
				t.Errorf("snapshot read %d, locking read %+v; want %d and the committed 1500", snap.TriggerNextTime, due, snapshot)
			}
			// The row is held: another session gives up after its lock wait.
			conn, err := s.db.Conn(ctx)
			if err != nil {
				return err
			}
			defer conn.Close()
			if s.Backend() == Postgres {
				if _, err := conn.ExecContext(ctx, "SET lock_timeout = '1s'"); err != nil {
					return err
				}
				_, err = conn.ExecContext(ctx, "UPDATE xxl_job_info SET trigger_next_time = 1700 WHERE id = $1", id)
				var pe *pgconn.PgError
				if !errors.As(err, &pe) || pe.Code != "55P03" {
					t.Errorf("write of a pre-read row during the round: %v, want a lock timeout (55P03)", err)
				}
				return nil
			}
			if _, err := conn.ExecContext(ctx, "SET SESSION innodb_lock_wait_timeout = 1"); err != nil {
				return err
			}
			_, err = conn.ExecContext(ctx, "UPDATE xxl_job_info SET trigger_next_time = 1700 WHERE id = ?", id)
			var me *mysql.MySQLError
			if !errors.As(err, &me) || me.Number != 1205 {
				t.Errorf("write of a pre-read row during the round: %v, want a lock wait timeout (1205)", err)
			}
			return nil
		})
		mustNoErr(t, err)
	})
}

// TestIsConflict: deadlocks and certification failures (1213), PostgreSQL's
// serialization failures and deadlocks (40001, 40P01) and the schedule
// compare-and-set are conflicts; outages and other errors are not.
func TestIsConflict(t *testing.T) {
	for _, c := range []struct {
		err  error
		want bool
	}{
		{nil, false},
		{fmt.Errorf("commit: %w", &mysql.MySQLError{Number: 1213, Message: "Deadlock found when trying to get lock"}), true},
		{fmt.Errorf("round: %w", ErrScheduleConflict), true},
		{&mysql.MySQLError{Number: 1205, Message: "Lock wait timeout exceeded"}, false},
		{&mysql.MySQLError{Number: 1047, Message: "WSREP has not yet prepared node for application use"}, false},
		{mysql.ErrInvalidConn, false},
		{fmt.Errorf("commit: %w", &pgconn.PgError{Code: "40001", Message: "could not serialize access due to concurrent update"}), true},
		{&pgconn.PgError{Code: "40P01", Message: "deadlock detected"}, true},
		{&pgconn.PgError{Code: "55P03", Message: "canceling statement due to lock timeout"}, false},
		{&pgconn.PgError{Code: "23505", Message: "duplicate key value violates unique constraint"}, false},
		{&pgconn.PgError{Code: "57P01", Message: "terminating connection due to administrator command"}, false},
	} {
		if got := IsConflict(c.err); got != c.want {
			t.Errorf("IsConflict(%v) = %v, want %v", c.err, got, c.want)
		}
	}
}

// TestJobScheduleMoveShared: jobs due together on one schedule share one
// plain UPDATE per move (beyond 1,000 ids as well), mixed with jobs of
// their own; the compare-and-set holds for them too: one shared job moved
// by someone else makes the whole write-back a conflict that writes
// nothing.
func TestJobScheduleMoveShared(t *testing.T) {
	forEachPrepared(t, func(t *testing.T, s *Store) {
		ctx := context.Background()
		var moves []ScheduleMove
		err := s.WithTx(ctx, func(tx *Store) error {
			for i := range 1300 {
				next := int64(5000) // three groups of shared moves, and singles
				switch {
				case i >= 1200:
					next = 6000 + int64(i)
				case i >= 1100:
					next = 5500
				}
				id, err := tx.JobSave(ctx, JobInfo{JobGroup: 1, JobDesc: "shared", ScheduleType: "FIX_RATE",
					MisfireStrategy: "DO_NOTHING", GlueType: "BEAN", TriggerStatus: 1, TriggerNextTime: next})
				if err != nil {
					return err
				}
				status := 1
				if i%2 == 1 && i < 1100 {
					status = 0 // a second shared move among the same time read
				}
				moves = append(moves, ScheduleMove{ID: id, FromNext: next, Status: status, Last: next, Next: next + 1000})
			}
			return nil
		})
		mustNoErr(t, err)
		if shared, rest := groupMoves(moves, true); len(shared) != 3 || len(rest) != 100 {
			t.Fatalf("grouped into %d shared moves and %d singles, want 3 and 100", len(shared), len(rest))
		}
		check := func(moved bool) {
			t.Helper()
			for _, m := range moves {
				got, err := s.JobLoad(ctx, m.ID)
				mustNoErr(t, err)
				want := triggerOf(1, 0, m.FromNext)
				if moved {
					want = triggerOf(m.Status, m.Last, m.Next)
				}
				if have := triggerOf(got.TriggerStatus, got.TriggerLastTime, got.TriggerNextTime); have != want {
					t.Fatalf("job %d = %v, want %v", m.ID, have, want)
				}
			}
		}
		// One shared job moved by another writer: nothing is written.
		stale := moves[700]
		mustNoErr(t, s.JobScheduleUpdate(ctx, JobInfo{ID: stale.ID, TriggerStatus: 1, TriggerNextTime: 4242}))
		if err := s.JobScheduleMove(ctx, moves); !IsConflict(err) {
			t.Fatalf("stale shared move: %v, want a conflict", err)
		}
		mustNoErr(t, s.JobScheduleUpdate(ctx, JobInfo{ID: stale.ID, TriggerStatus: 1, TriggerNextTime: stale.FromNext}))
		check(false)
		mustNoErr(t, s.WithScheduleLock(ctx, func(tx *Store) error { return tx.JobScheduleMove(ctx, moves) }))
		check(true)
	})
}

func triggerOf(status int, last, next int64) string { return fmt.Sprint(status, "/", last, "/", next) }
