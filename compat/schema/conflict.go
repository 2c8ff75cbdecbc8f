package schema

import (
	"errors"

	"github.com/go-sql-driver/mysql"
)

// erLockDeadlock is ER_LOCK_DEADLOCK: a deadlock on one server, and on a
// Galera cluster a transaction that lost certification or was aborted by a
// conflicting write committed on another node.
const erLockDeadlock = 1213

// IsConflict tells whether err is a transaction that lost to a concurrent
// writer of the same rows and was rolled back: a deadlock or a Galera
// certification failure (error 1213), or a schedule compare-and-set that
// found a job already moved (ErrScheduleConflict). Such a transaction
// changed nothing; it is not an outage, and redoing it reads the winner's
// rows.
func IsConflict(err error) bool {
	if errors.Is(err, ErrScheduleConflict) {
		return true
	}
	var me *mysql.MySQLError
	return errors.As(err, &me) && me.Number == erLockDeadlock
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
	var coded interface{ Code() int }
	return errors.As(err, &coded) && coded.Code() == sqliteConstraintUnique
}
