package schema

import (
	"context"
	"database/sql"

	sq "github.com/Masterminds/squirrel"
)

// dialect holds every difference between backends, so that adding one
// (PostgreSQL is the most requested) is one new file implementing it.
type dialect interface {
	backend() Backend
	placeholders() sq.PlaceholderFormat
	// lockSuffix is appended to the schedule-lock SELECT: "FOR UPDATE" where
	// row locks exist; SQLite's immediate transaction already holds the
	// database write lock.
	lockSuffix() string
	// createTables returns the DDL statements of the 2.4.x tables.
	createTables() []string
	// columns lists a table's columns (lower-case name → declared type); an
	// empty map means the table does not exist.
	columns(ctx context.Context, q runner, table string) (map[string]string, error)
	// indexes lists a table's index names.
	indexes(ctx context.Context, q runner, table string) ([]string, error)
	// insertID runs an INSERT and returns the generated id.
	insertID(ctx context.Context, q runner, b sq.InsertBuilder) (int64, error)
	// transactionalDDL reports whether CREATE TABLE can be rolled back.
	transactionalDDL() bool
}

// runner is what *sql.DB, *sql.Tx and *sql.Conn share.
type runner interface {
	ExecContext(ctx context.Context, query string, args ...any) (sql.Result, error)
	QueryContext(ctx context.Context, query string, args ...any) (*sql.Rows, error)
	QueryRowContext(ctx context.Context, query string, args ...any) *sql.Row
}

func lastInsertID(ctx context.Context, q runner, b sq.InsertBuilder) (int64, error) {
	query, args, err := b.ToSql()
	if err != nil {
		return 0, err
	}
	res, err := q.ExecContext(ctx, query, args...)
	if err != nil {
		return 0, err
	}
	return res.LastInsertId()
}
