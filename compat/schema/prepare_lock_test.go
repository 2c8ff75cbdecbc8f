package schema

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/DATA-DOG/go-sqlmock"
	"github.com/go-sql-driver/mysql"
	"github.com/xxl-admin-go/xxl-admin-go/internal/testsupport/testdb"
)

// TestPrepareLockTimeout: on MySQL an admin that cannot get the preparation
// lock within its wait (another session holds it) fails with an error that
// names the lock and its holder, and creates nothing; once the holder lets
// go it comes up.
func TestPrepareLockTimeout(t *testing.T) {
	forEachBackend(t, func(t *testing.T, s *Store) {
		if s.Backend() != MySQL {
			t.Skip("only MySQL takes a named lock; elsewhere the creation is one transaction")
		}
		ctx := context.Background()
		holder, err := s.db.Conn(ctx)
		mustNoErr(t, err)
		defer holder.Close()
		name, err := prepareLockName(ctx, holder)
		mustNoErr(t, err)
		var got, holderID int64
		mustNoErr(t, holder.QueryRowContext(ctx, "SELECT GET_LOCK(?, 0), CONNECTION_ID()", name).Scan(&got, &holderID))
		if got != 1 {
			t.Fatalf("GET_LOCK(%q) = %d, want 1", name, got)
		}

		admin := newStore(s.db, s.d, s.loc)
		admin.prepareLockWait = time.Second
		_, err = admin.Prepare(ctx, PrepareOptions{})
		if !errors.Is(err, ErrPrepareLockTimeout) {
			t.Fatalf("Prepare with the lock held elsewhere: %v, want ErrPrepareLockTimeout", err)
		}
		for _, want := range []string{"waited 1s", fmt.Sprintf("MySQL lock %q", name), fmt.Sprintf("held by connection %d", holderID)} {
			if !strings.Contains(err.Error(), want) {
				t.Errorf("error %q does not say %q", err, want)
			}
		}
		if found, err := s.inspect(ctx); err != nil || len(found) != 0 {
			t.Errorf("tables after the timed-out Prepare: %v (%v), want none", found, err)
		}

		mustNoErr(t, holder.QueryRowContext(ctx, "SELECT RELEASE_LOCK(?)", name).Scan(&got))
		res, err := admin.Prepare(ctx, PrepareOptions{})
		mustNoErr(t, err)
		if !res.Created {
			t.Errorf("Prepare after the release = %+v, want Created", res)
		}
	})
}

// TestPrepareLockName: the lock is named after the database (GET_LOCK names
// are server-wide) and stays within MySQL's 64 characters.
func TestPrepareLockName(t *testing.T) {
	forEachBackend(t, func(t *testing.T, s *Store) {
		if s.Backend() != MySQL {
			t.Skip("only MySQL takes a named lock")
		}
		ctx := context.Background()
		conn, err := s.db.Conn(ctx)
		mustNoErr(t, err)
		defer conn.Close()
		var db string
		mustNoErr(t, conn.QueryRowContext(ctx, "SELECT DATABASE()").Scan(&db))
		name, err := prepareLockName(ctx, conn)
		mustNoErr(t, err)
		if name != "xxl_job_prepare:"+db {
			t.Errorf("lock name = %q, want xxl_job_prepare:%s", name, db)
		}

		long := (db + "_" + strings.Repeat("d", 64))[:64] // MySQL's longest database name
		testdb.MySQLExec(t, "CREATE DATABASE "+long)
		t.Cleanup(func() { testdb.MySQLExec(t, "DROP DATABASE IF EXISTS "+long) })
		_, err = conn.ExecContext(ctx, "USE "+long)
		mustNoErr(t, err)
		defer func() { _, _ = conn.ExecContext(ctx, "USE "+db) }()
		name, err = prepareLockName(ctx, conn)
		mustNoErr(t, err)
		if n := len(name); n > maxLockName || !strings.HasPrefix(name, "xxl_job_prepare:") {
			t.Errorf("lock name of a 64-character database = %q (%d characters), want at most %d", name, n, maxLockName)
		}
	})
}

// TestPreparePoolOfOne: on MySQL the preparation runs on its locked
// connection, so a pool of one connection (maximum-pool-size=1) does not
// wait on itself.
func TestPreparePoolOfOne(t *testing.T) {
	forEachBackend(t, func(t *testing.T, s *Store) {
		s.db.SetMaxOpenConns(1)
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		defer cancel()
		for range 2 { // create, then check
			if _, err := s.Prepare(ctx, PrepareOptions{}); err != nil {
				t.Fatalf("Prepare with a pool of one: %v", err)
			}
		}
	})
}

// TestFaultPrepareLockRefused: a MariaDB Galera node of the releases that
// refuse GET_LOCK (error 1235, MDEV-30473) still prepares, without the lock
// and with a warning saying so; no RELEASE_LOCK is sent.
func TestFaultPrepareLockRefused(t *testing.T) {
	s := faultStore(t, func(m sqlmock.Sqlmock) {
		m.ExpectQuery("SELECT DATABASE()").WillReturnRows(sqlmock.NewRows([]string{"db"}).AddRow("xxl_job"))
		m.ExpectQuery("GET_LOCK").WillReturnError(&mysql.MySQLError{Number: erNotSupportedYet,
			Message: "This version of MariaDB doesn't yet support 'GET_LOCK in cluster (WSREP_ON=ON)'"})
		for range tables24 {
			m.ExpectQuery("information_schema.columns").WillReturnRows(sqlmock.NewRows([]string{"column_name", "column_type"}))
		}
		for range tables24 {
			m.ExpectExec("CREATE TABLE IF NOT EXISTS").WillReturnResult(sqlmock.NewResult(0, 0))
		}
		m.ExpectBegin()
		for range 4 { // group, job, user, schedule_lock row
			m.ExpectExec("INSERT INTO").WillReturnResult(sqlmock.NewResult(1, 1))
		}
		m.ExpectCommit()
	})
	res, err := s.Prepare(context.Background(), PrepareOptions{SkipPendingTable: true})
	mustNoErr(t, err)
	if !res.Created || len(res.Warnings) != 1 || !strings.Contains(res.Warnings[0], `without lock "xxl_job_prepare:xxl_job"`) {
		t.Errorf("Prepare = %+v, want Created and a warning naming the lock", res)
	}
}

// TestFaultPrepareLockNull: GET_LOCK returning NULL (the session killed
// while waiting) stops start-up with an error naming the lock.
func TestFaultPrepareLockNull(t *testing.T) {
	s := faultStore(t, func(m sqlmock.Sqlmock) {
		m.ExpectQuery("SELECT DATABASE()").WillReturnRows(sqlmock.NewRows([]string{"db"}).AddRow("xxl_job"))
		m.ExpectQuery("GET_LOCK").WillReturnRows(sqlmock.NewRows([]string{"got"}).AddRow(nil))
	})
	_, err := s.Prepare(context.Background(), PrepareOptions{})
	assertErr(t, err, nil, `lock "xxl_job_prepare:xxl_job"`, "NULL")
}
