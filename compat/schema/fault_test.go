package schema

import (
	"context"
	"database/sql/driver"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/DATA-DOG/go-sqlmock"
	"github.com/go-sql-driver/mysql"
)

// Faults a real server cannot be made to produce on demand (dropped
// connections, deadlocks, failed commits), injected with go-sqlmock on the
// MySQL dialect. Every expectation is matched in order against a substring
// of the statement, and a test fails on any statement it did not expect or
// on expectations left over.

func faultStore(t *testing.T, expect func(m sqlmock.Sqlmock)) *Store {
	t.Helper()
	loc, err := time.LoadLocation(testZone)
	mustNoErr(t, err)
	db, mock, err := sqlmock.New(sqlmock.QueryMatcherOption(sqlmock.QueryMatcherFunc(containsQuery)))
	mustNoErr(t, err)
	db.SetMaxOpenConns(1)
	expect(mock)
	t.Cleanup(func() {
		if err := mock.ExpectationsWereMet(); err != nil {
			t.Error(err)
		}
		_ = db.Close()
	})
	return newStore(db, mysqlDialect{}, loc)
}

// containsQuery matches a statement that contains the expected text.
func containsQuery(expected, actual string) error {
	if !strings.Contains(actual, expected) {
		return fmt.Errorf("statement %q does not contain %q", actual, expected)
	}
	return nil
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
			s := faultStore(t, func(m sqlmock.Sqlmock) {
				m.ExpectBegin()
				m.ExpectExec("INSERT INTO xxl_job_log").WillReturnResult(sqlmock.NewResult(41, 1))
				m.ExpectExec("UPDATE xxl_job_log SET trigger_time").WillReturnError(fault)
				m.ExpectRollback()
			})
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
		s := faultStore(t, func(m sqlmock.Sqlmock) {
			m.ExpectExec("UPDATE xxl_job_info SET trigger_last_time").WillReturnError(deadlock)
		})
		check(t, s.JobScheduleUpdate(context.Background(), JobInfo{ID: 7}), "schedule update of job 7")
	})
	t.Run("under the schedule lock", func(t *testing.T) {
		s := faultStore(t, func(m sqlmock.Sqlmock) {
			m.ExpectBegin()
			// The MySQL dialect locks the very row Java admins lock (§4.8).
			m.ExpectQuery("SELECT lock_name FROM xxl_job_lock WHERE lock_name = 'schedule_lock' FOR UPDATE").
				WillReturnRows(sqlmock.NewRows([]string{"lock_name"}).AddRow("schedule_lock"))
			m.ExpectExec("UPDATE xxl_job_info SET trigger_last_time").WillReturnError(deadlock)
			m.ExpectRollback()
		})
		err := s.WithScheduleLock(context.Background(), func(tx *Store) error {
			return tx.JobScheduleUpdate(context.Background(), JobInfo{ID: 8})
		})
		check(t, err, "schedule update of job 8")
	})
	t.Run("lock wait timeout", func(t *testing.T) {
		s := faultStore(t, func(m sqlmock.Sqlmock) {
			m.ExpectBegin()
			m.ExpectQuery("FOR UPDATE").WillReturnError(&mysql.MySQLError{Number: 1205, Message: "Lock wait timeout exceeded"})
			m.ExpectRollback()
		})
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
	s := faultStore(t, func(m sqlmock.Sqlmock) {
		m.ExpectBegin()
		m.ExpectExec("INSERT INTO xxl_job_log").WillReturnResult(sqlmock.NewResult(1, 1))
		m.ExpectExec("UPDATE xxl_job_log").WillReturnResult(sqlmock.NewResult(0, 1))
		m.ExpectCommit().WillReturnError(reset)
	})
	assertErr(t, triggerWrite(context.Background(), s), reset, "commit")
}

// TestFaultBeginAndRollback: BEGIN failing is named; a failing ROLLBACK does
// not hide the error that caused it.
func TestFaultBeginAndRollback(t *testing.T) {
	t.Run("begin", func(t *testing.T) {
		tooMany := &mysql.MySQLError{Number: 1040, Message: "Too many connections"}
		s := faultStore(t, func(m sqlmock.Sqlmock) { m.ExpectBegin().WillReturnError(tooMany) })
		err := s.WithTx(context.Background(), func(*Store) error { t.Error("fn ran"); return nil })
		assertErr(t, err, tooMany, "begin transaction")
	})
	t.Run("rollback", func(t *testing.T) {
		cause := errors.New("validation failed")
		s := faultStore(t, func(m sqlmock.Sqlmock) {
			m.ExpectBegin()
			m.ExpectRollback().WillReturnError(errors.New("rollback failed"))
		})
		err := s.WithTx(context.Background(), func(*Store) error { return cause })
		if !errors.Is(err, cause) {
			t.Errorf("WithTx = %v, want the cause", err)
		}
	})
}

// TestFaultReads: query and row errors name what was being read.
func TestFaultReads(t *testing.T) {
	t.Run("query", func(t *testing.T) {
		s := faultStore(t, func(m sqlmock.Sqlmock) { m.ExpectQuery("FROM xxl_job_info").WillReturnError(mysql.ErrInvalidConn) })
		_, err := s.JobScheduleQuery(context.Background(), 1000, 10)
		assertErr(t, err, mysql.ErrInvalidConn, "pre-read jobs due by 1000")
	})
	t.Run("row", func(t *testing.T) {
		broken := errors.New("packet truncated")
		s := faultStore(t, func(m sqlmock.Sqlmock) {
			m.ExpectQuery("FROM xxl_job_group").WillReturnRows(sqlmock.NewRows(groupColumns).
				AddRow(int64(1), "a", "b", int64(0), nil, nil).AddRow(int64(2), "c", "d", int64(0), nil, nil).RowError(1, broken))
		})
		_, err := s.GroupFindAll(context.Background())
		assertErr(t, err, broken, "list groups")
	})
	t.Run("bad datetime", func(t *testing.T) {
		s := faultStore(t, func(m sqlmock.Sqlmock) {
			m.ExpectQuery("FROM xxl_job_group").WillReturnRows(sqlmock.NewRows(groupColumns).
				AddRow(int64(1), "a", "b", int64(0), nil, []byte("not a date")))
		})
		_, err := s.GroupLoad(context.Background(), 1)
		assertErr(t, err, nil, "load group 1", "not a date")
	})
	t.Run("schema inspection", func(t *testing.T) {
		s := faultStore(t, func(m sqlmock.Sqlmock) {
			m.ExpectQuery("SELECT DATABASE()").WillReturnRows(sqlmock.NewRows([]string{"db"}).AddRow("xxl_job"))
			m.ExpectQuery("GET_LOCK").WillReturnRows(sqlmock.NewRows([]string{"got"}).AddRow(int64(1)))
			m.ExpectQuery("information_schema.columns").WillReturnError(mysql.ErrInvalidConn)
			// The preparation lock is released after a failed preparation too.
			m.ExpectQuery("RELEASE_LOCK").WillReturnRows(sqlmock.NewRows([]string{"released"}).AddRow(int64(1)))
		})
		_, err := s.Prepare(context.Background(), PrepareOptions{})
		assertErr(t, err, mysql.ErrInvalidConn, "inspect schema", "columns of xxl_job_")
	})
}

// TestFaultTxRolledBackPassedOver: once a statement of a MySQL transaction
// fails with 1213 the server has rolled the transaction back and would
// autocommit whatever follows; the store sends nothing more in it, not
// even when the caller passed over the error (as a Galera node raises it
// at a plain read: issue 28), and never answers such a transaction as
// committed. The error is a conflict, which callers redo.
func TestFaultTxRolledBackPassedOver(t *testing.T) {
	ctx := context.Background()
	deadlock := &mysql.MySQLError{Number: 1213, Message: "Deadlock found when trying to get lock; try restarting transaction"}
	for _, tc := range []struct {
		name    string
		expect  func(m sqlmock.Sqlmock)
		skipped func(tx *Store)
	}{
		{"a row read", func(m sqlmock.Sqlmock) {
			m.ExpectQuery("FROM " + WorkflowTable).WillReturnError(deadlock)
		}, func(tx *Store) { _, _ = tx.WorkflowLoad(ctx, 3) }},
		{"a statement", func(m sqlmock.Sqlmock) {
			m.ExpectExec("UPDATE xxl_job_log SET alarm_status").WillReturnError(deadlock)
		}, func(tx *Store) { _, _ = tx.LogUpdateAlarmStatus(ctx, 41, 0, 1) }},
		{"a query", func(m sqlmock.Sqlmock) {
			m.ExpectQuery("FROM xxl_job_log").WillReturnError(deadlock)
		}, func(tx *Store) { _, _ = tx.LogLoadManyForUpdate(ctx, []int64{41}) }},
	} {
		for _, tail := range []string{"reported", "passed over"} {
			t.Run(tc.name+", tail error "+tail, func(t *testing.T) {
				s := faultStore(t, func(m sqlmock.Sqlmock) {
					m.ExpectBegin()
					m.ExpectExec("UPDATE xxl_job_log SET handle_time").WillReturnResult(sqlmock.NewResult(0, 1))
					tc.expect(m)
					// no second UPDATE, no COMMIT
					m.ExpectRollback()
				})
				err := s.WithTx(ctx, func(tx *Store) error {
					if _, err := tx.LogFinish(ctx, JobLog{ID: 40, HandleCode: 500}); err != nil {
						return err
					}
					tc.skipped(tx)
					_, err := tx.LogFinish(ctx, JobLog{ID: 41, HandleCode: 500})
					if tail == "passed over" {
						return nil
					}
					return err
				})
				if !IsConflict(err) || !errors.Is(err, ErrTxRolledBack) {
					t.Fatalf("error %v: want ErrTxRolledBack, a conflict", err)
				}
			})
		}
	}
}
