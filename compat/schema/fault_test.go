package schema

import (
	"context"
	"database/sql/driver"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/go-sql-driver/mysql"
)

// Faults a real server cannot be made to produce on demand (dropped
// connections, deadlocks, failed commits), injected through a scripted
// driver on the MySQL dialect.

func faultStore(t *testing.T, steps ...step) *Store {
	t.Helper()
	loc, err := time.LoadLocation(testZone)
	mustNoErr(t, err)
	return newStore(newScriptDB(t, steps...), mysqlDialect{}, loc)
}

func assertErr(t *testing.T, err, target error, mentions ...string) {
	t.Helper()
	if err == nil {
		t.Fatalf("no error")
	}
	if target != nil && !errors.Is(err, target) {
		t.Errorf("error %q does not wrap %v", err, target)
	}
	for _, m := range mentions {
		if !strings.Contains(err.Error(), m) {
			t.Errorf("error %q does not mention %q", err, m)
		}
	}
}

// triggerWrite is the trigger flow's two statements in one transaction.
func triggerWrite(ctx context.Context, s *Store) error {
	return s.WithTx(ctx, func(tx *Store) error {
		id, err := tx.LogSave(ctx, JobLog{JobGroup: 1, JobID: 7})
		if err != nil {
			return err
		}
		return tx.LogUpdateTriggerInfo(ctx, JobLog{ID: id, TriggerCode: 200})
	})
}

// TestFaultDroppedConnectionInTx: the connection dies on the second
// statement; the error names the operation and the transaction is rolled
// back, never committed.
func TestFaultDroppedConnectionInTx(t *testing.T) {
	for _, fault := range []error{driver.ErrBadConn, mysql.ErrInvalidConn} {
		t.Run(fault.Error(), func(t *testing.T) {
			s := faultStore(t,
				step{op: "begin"},
				step{op: "exec", match: "INSERT INTO xxl_job_log", result: insertResult{41, 1}},
				step{op: "exec", match: "UPDATE xxl_job_log SET trigger_time", err: fault},
				step{op: "rollback"})
			assertErr(t, triggerWrite(context.Background(), s), fault, "update trigger info of log 41")
		})
	}
}

// TestFaultDeadlock: InnoDB error 1213 surfaces with its number intact (so a
// caller can retry) and the operation named, in and out of a transaction.
func TestFaultDeadlock(t *testing.T) {
	deadlock := &mysql.MySQLError{Number: 1213, Message: "Deadlock found when trying to get lock; try restarting transaction"}
	check := func(t *testing.T, err error, mention string) {
		t.Helper()
		assertErr(t, err, nil, mention, "Deadlock")
		var me *mysql.MySQLError
		if !errors.As(err, &me) || me.Number != 1213 {
			t.Errorf("error %q does not carry MySQL error 1213", err)
		}
	}
	t.Run("autocommit", func(t *testing.T) {
		s := faultStore(t, step{op: "exec", match: "UPDATE xxl_job_info SET trigger_last_time", err: deadlock})
		check(t, s.JobScheduleUpdate(context.Background(), JobInfo{ID: 7}), "schedule update of job 7")
	})
	t.Run("under the schedule lock", func(t *testing.T) {
		s := faultStore(t,
			step{op: "begin"},
			// The MySQL dialect locks the very row Java admins lock (§4.8).
			step{op: "query", match: "SELECT lock_name FROM xxl_job_lock WHERE lock_name = 'schedule_lock' FOR UPDATE",
				cols: []string{"lock_name"}, rows: [][]driver.Value{{"schedule_lock"}}},
			step{op: "exec", match: "UPDATE xxl_job_info SET trigger_last_time", err: deadlock},
			step{op: "rollback"})
		err := s.WithScheduleLock(context.Background(), func(tx *Store) error {
			return tx.JobScheduleUpdate(context.Background(), JobInfo{ID: 8})
		})
		check(t, err, "schedule update of job 8")
	})
	t.Run("lock wait timeout", func(t *testing.T) {
		s := faultStore(t,
			step{op: "begin"},
			step{op: "query", match: "FOR UPDATE", err: &mysql.MySQLError{Number: 1205, Message: "Lock wait timeout exceeded"}},
			step{op: "rollback"})
		called := false
		err := s.WithScheduleLock(context.Background(), func(*Store) error { called = true; return nil })
		assertErr(t, err, nil, "schedule lock", "Lock wait timeout")
		if called {
			t.Errorf("fn ran without the lock")
		}
	})
}

// TestFaultCommit: a failed COMMIT is reported as such, not as success.
func TestFaultCommit(t *testing.T) {
	reset := errors.New("connection reset by peer")
	s := faultStore(t,
		step{op: "begin"},
		step{op: "exec", match: "INSERT INTO xxl_job_log", result: insertResult{1, 1}},
		step{op: "exec", match: "UPDATE xxl_job_log", result: insertResult{0, 1}},
		step{op: "commit", err: reset})
	assertErr(t, triggerWrite(context.Background(), s), reset, "commit")
}

// TestFaultBeginAndRollback: BEGIN failing is named; a failing ROLLBACK does
// not hide the error that caused it.
func TestFaultBeginAndRollback(t *testing.T) {
	t.Run("begin", func(t *testing.T) {
		tooMany := &mysql.MySQLError{Number: 1040, Message: "Too many connections"}
		s := faultStore(t, step{op: "begin", err: tooMany})
		err := s.WithTx(context.Background(), func(*Store) error { t.Error("fn ran"); return nil })
		assertErr(t, err, tooMany, "begin transaction")
	})
	t.Run("rollback", func(t *testing.T) {
		cause := errors.New("validation failed")
		s := faultStore(t, step{op: "begin"}, step{op: "rollback", err: errors.New("rollback failed")})
		err := s.WithTx(context.Background(), func(*Store) error { return cause })
		if !errors.Is(err, cause) {
			t.Errorf("WithTx = %v, want the cause", err)
		}
	})
}

// TestFaultReads: query and row errors name what was being read.
func TestFaultReads(t *testing.T) {
	t.Run("query", func(t *testing.T) {
		s := faultStore(t, step{op: "query", match: "FROM xxl_job_info", err: mysql.ErrInvalidConn})
		_, err := s.JobScheduleQuery(context.Background(), 1000, 10)
		assertErr(t, err, mysql.ErrInvalidConn, "pre-read jobs due by 1000")
	})
	t.Run("row", func(t *testing.T) {
		broken := errors.New("packet truncated")
		s := faultStore(t, step{op: "query", match: "FROM xxl_job_group", cols: groupColumns,
			rows: [][]driver.Value{{int64(1), "a", "b", int64(0), nil, nil}, {int64(2), "c", "d", int64(0), nil, nil}}, rowErr: broken})
		_, err := s.GroupFindAll(context.Background())
		assertErr(t, err, broken, "list groups")
	})
	t.Run("bad datetime", func(t *testing.T) {
		s := faultStore(t, step{op: "query", match: "FROM xxl_job_group", cols: groupColumns,
			rows: [][]driver.Value{{int64(1), "a", "b", int64(0), nil, []byte("not a date")}}})
		_, err := s.GroupLoad(context.Background(), 1)
		assertErr(t, err, nil, "load group 1", "not a date")
	})
	t.Run("schema inspection", func(t *testing.T) {
		s := faultStore(t, step{op: "query", match: "information_schema.columns", err: mysql.ErrInvalidConn})
		_, err := s.Prepare(context.Background())
		assertErr(t, err, mysql.ErrInvalidConn, "inspect schema", "columns of xxl_job_")
	})
}
