package schema

import (
	"context"
	"errors"
	"math/rand/v2"
	"time"

	"github.com/go-sql-driver/mysql"
	"github.com/jackc/pgx/v5/pgconn"
)

// erLockDeadlock is ER_LOCK_DEADLOCK: a deadlock on one server, and on a
// Galera cluster a transaction that lost certification or was aborted by a
// conflicting write committed on another node.
const erLockDeadlock = 1213

// PostgreSQL's SQLSTATEs of a transaction rolled back by a concurrent one
// (serialization_failure, deadlock_detected) and of a unique key refusing
// an insert (unique_violation).
const (
	pgSerializationFailure = "40001"
	pgDeadlockDetected     = "40P01"
	pgUniqueViolation      = "23505"
)

// IsConflict tells whether err is a transaction that lost to a concurrent
// writer of the same rows and was rolled back: a deadlock or a Galera
// certification failure (error 1213), a PostgreSQL deadlock or
// serialization failure, or a schedule compare-and-set that found a job
// already moved (ErrScheduleConflict). Such a transaction changed nothing;
// it is not an outage, and redoing it reads the winner's rows.
func IsConflict(err error) bool {
	if errors.Is(err, ErrScheduleConflict) {
		return true
	}
	var me *mysql.MySQLError
	if errors.As(err, &me) {
		return me.Number == erLockDeadlock
	}
	var pe *pgconn.PgError
	return errors.As(err, &pe) && (pe.Code == pgSerializationFailure || pe.Code == pgDeadlockDetected)
}

// erDupEntry is ER_DUP_ENTRY; sqliteConstraintUnique is SQLite's
// SQLITE_CONSTRAINT_UNIQUE extended code.
const (
	erDupEntry             = 1062
	sqliteConstraintUnique = 2067
)

// IsDuplicate tells whether err is an insert refused by a unique key: the
// row exists, most likely written by another admin a moment before.
func IsDuplicate(err error) bool {
	var me *mysql.MySQLError
	if errors.As(err, &me) {
		return me.Number == erDupEntry
	}
	var pe *pgconn.PgError
	if errors.As(err, &pe) {
		return pe.Code == pgUniqueViolation
	}
	var coded interface{ Code() int }
	return errors.As(err, &coded) && coded.Code() == sqliteConstraintUnique
}

// RetryConflicts calls run up to attempts times while it fails with a
// write conflict (IsConflict: such a transaction changed nothing, and
// running it again reads the winner's rows), pausing 10–50 ms (random)
// between attempts; again, if not nil, is told of each retry.
func RetryConflicts(ctx context.Context, attempts int, run func() error, again func(attempt int)) error {
	var err error
	for attempt := 1; attempt <= attempts; attempt++ {
		if err = run(); err == nil || !IsConflict(err) || attempt == attempts {
			return err
		}
		if again != nil {
			again(attempt)
		}
		pause := time.NewTimer(time.Duration(10+rand.IntN(40)) * time.Millisecond)
		select {
		case <-pause.C:
		case <-ctx.Done():
			pause.Stop()
			return ctx.Err()
		}
	}
	return err
}
