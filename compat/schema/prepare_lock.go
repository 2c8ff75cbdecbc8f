package schema

import (
	"context"
	"crypto/sha256"
	"database/sql"
	"database/sql/driver"
	"encoding/hex"
	"errors"
	"fmt"
	"math"
	"time"
	"unicode/utf8"

	"github.com/go-sql-driver/mysql"
)

// defaultPrepareLockWait is how long an admin waits for another admin's
// preparation of the same MySQL database: creating the tables takes well
// under a second, so a minute means the holder is stuck, not slow.
const defaultPrepareLockWait = 60 * time.Second

// ErrPrepareLockTimeout marks a start-up that gave up waiting for another
// admin's schema preparation (MySQL).
var ErrPrepareLockTimeout = errors.New("timed out waiting for the schema preparation lock")

// maxLockName is MySQL's limit on GET_LOCK names (5.7+: longer names fail
// with ER_USER_LOCK_WRONG_NAME; MariaDB has none).
const maxLockName = 64

// prepareLocked runs the whole check-and-create while holding a named lock,
// on one connection, since MySQL commits each CREATE TABLE on its own: an
// admin starting at the same moment as another would otherwise see some of
// its tables and refuse them as a half-made schema. The second admin waits
// until the first has created every table and seed row, then only checks.
//
// The lock is taken for an existing schema too: without it a restarted
// admin cannot tell a schema another admin is still creating from one an
// operator left half-made, and the check it serialises takes milliseconds.
// It also orders the insertion of a missing schedule_lock row.
//
// Everything runs on the locked connection, not the pool: with a pool of
// one connection (maximum-pool-size=1) the pool would wait on itself.
func (s *Store) prepareLocked(ctx context.Context, opts PrepareOptions) (PrepareResult, error) {
	conn, err := s.db.Conn(ctx)
	if err != nil {
		return PrepareResult{}, fmt.Errorf("prepare schema: connection for the preparation lock: %w", s.failed(ctx, err))
	}
	name, err := prepareLockName(ctx, conn)
	if err != nil {
		_ = conn.Close()
		return PrepareResult{}, fmt.Errorf("prepare schema: %w", s.failed(ctx, err))
	}
	locked := *s
	locked.q, locked.begin = s.d.wrap(conn), conn
	got, err := s.getPrepareLock(ctx, conn, name)
	if err != nil {
		_ = conn.Close()
		return PrepareResult{}, err
	}
	if !got { // the server refuses named locks
		defer conn.Close()
		res, err := locked.checkAndCreate(ctx, opts)
		res.Warnings = append(res.Warnings, fmt.Sprintf("this server refuses GET_LOCK (error 1235: a MariaDB Galera release of May 2023): the schema was prepared without lock %q; on an empty cluster start one admin first", name))
		return res, err
	}
	defer releasePrepareLock(ctx, conn, name)
	return locked.checkAndCreate(ctx, opts)
}

// prepareLockName names the lock after the database, since GET_LOCK names
// are server-wide and admins of other databases on the server need not wait.
func prepareLockName(ctx context.Context, conn *sql.Conn) (string, error) {
	var db sql.NullString
	if err := conn.QueryRowContext(ctx, "SELECT DATABASE()").Scan(&db); err != nil {
		return "", fmt.Errorf("current database: %w", err)
	}
	name := "xxl_job_prepare:" + db.String
	if utf8.RuneCountInString(name) > maxLockName {
		sum := sha256.Sum256([]byte(db.String))
		name = "xxl_job_prepare:" + hex.EncodeToString(sum[:])[:40]
	}
	return name, nil
}

// erNotSupportedYet is ER_NOT_SUPPORTED_YET, which some MariaDB releases
// return for GET_LOCK on a Galera node ("GET_LOCK in cluster (WSREP_ON=ON)",
// MDEV-30473: the May 2023 ones, e.g. 10.6.13 and 10.11.3; reverted later).
// There the preparation goes on without the lock, as the Galera advice of
// docs/topologies.md (one admin first on an empty cluster) already assumes.
const erNotSupportedYet = 1235

// getPrepareLock waits up to s.prepareLockWait for the named lock; got is
// false, without an error, where the server refuses named locks. GET_LOCK
// returns 1 when granted, 0 on timeout, NULL on an error such as the
// session being killed. MySQL reads the timeout as whole seconds (MariaDB
// would take fractions), so the wait is rounded up.
func (s *Store) getPrepareLock(ctx context.Context, conn *sql.Conn, name string) (got bool, err error) {
	wait := time.Duration(math.Ceil(s.prepareLockWait.Seconds())) * time.Second
	var res sql.NullInt64
	if err := conn.QueryRowContext(ctx, "SELECT GET_LOCK(?, ?)", name, int64(wait/time.Second)).Scan(&res); err != nil {
		if me := (*mysql.MySQLError)(nil); errors.As(err, &me) && me.Number == erNotSupportedYet {
			return false, nil
		}
		return false, fmt.Errorf("prepare schema: take lock %q: %w", name, s.failed(ctx, err))
	}
	if res.Valid && res.Int64 == 1 {
		return true, nil
	}
	if !res.Valid {
		return false, fmt.Errorf("prepare schema: take lock %q: GET_LOCK returned NULL (session killed?)", name)
	}
	holder := "another session"
	var id sql.NullInt64
	if err := conn.QueryRowContext(ctx, "SELECT IS_USED_LOCK(?)", name).Scan(&id); err == nil && id.Valid {
		holder = fmt.Sprintf("connection %d", id.Int64)
	}
	return false, fmt.Errorf("prepare schema: %w: waited %s for MySQL lock %q (GET_LOCK), held by %s: another admin is preparing this database; if none is starting, end that session (KILL)",
		ErrPrepareLockTimeout, wait, name, holder)
}

// releasePrepareLock releases the lock even when the start-up was cancelled.
// A connection whose release failed is discarded, not returned to the pool
// holding the lock: ending its session releases it.
func releasePrepareLock(ctx context.Context, conn *sql.Conn, name string) {
	rctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 5*time.Second)
	defer cancel()
	var released sql.NullInt64
	if err := conn.QueryRowContext(rctx, "SELECT RELEASE_LOCK(?)", name).Scan(&released); err != nil || released.Int64 != 1 {
		_ = conn.Raw(func(any) error { return driver.ErrBadConn })
	}
	_ = conn.Close()
}
