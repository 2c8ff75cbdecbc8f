package schema

import (
	"context"
	"database/sql"
	"fmt"

	sq "github.com/Masterminds/squirrel"
)

// dialect holds the differences between backends (MySQL, SQLite,
// PostgreSQL), one file each. The store writes every statement with '?'
// placeholders; a backend that numbers them ($1, $2, …) renumbers whole
// statements in wrap, so subqueries and hand-built CASE batches compose
// the same way on every backend.
type dialect interface {
	backend() Backend
	// lockSuffix is appended to the schedule-lock SELECT: "FOR UPDATE" where
	// row locks exist; SQLite's immediate transaction already holds the
	// database write lock.
	lockSuffix() string
	// createTables returns the DDL statements of a generation's tables.
	createTables(g Generation) []string
	// columns lists a table's columns (lower-case name → declared type); an
	// empty map means the table does not exist.
	columns(ctx context.Context, q runner, table string) (map[string]string, error)
	// indexes lists a table's indexes.
	indexes(ctx context.Context, q runner, table string) ([]index, error)
	// insertID runs an INSERT and returns the generated id.
	insertID(ctx context.Context, q runner, b sq.InsertBuilder) (int64, error)
	// transactionalDDL reports whether CREATE TABLE can be rolled back.
	transactionalDDL() bool
	// columnType is the type the dialect's DDL declares for a column that
	// the 2.4.x script declares with mysqlType (as columns reports it).
	columnType(mysqlType string) string
	// syncIDs makes the id generators of tables whose rows were inserted
	// with explicit ids (the seed rows) hand out ids above them.
	syncIDs(ctx context.Context, q runner, tables []string) error
	// sortCaseless and eqCaseless order and compare a column the way
	// MySQL's case-insensitive collation does (user names, app names,
	// titles: schema.md §4.7, §4.9).
	sortCaseless(column string) string
	eqCaseless(column string, v any) sq.Sqlizer
	// likeOp is the operator of the text filters, case-insensitive as
	// MySQL's LIKE is.
	likeOp() string
	// typedParam is the placeholder of a value whose type the statement
	// does not fix (a CASE branch), typed as a column the 2.4.x script
	// declares with mysqlType: PostgreSQL infers such a parameter as text.
	typedParam(mysqlType string) string
	// byID names table for a statement that picks its rows by a list of
	// ids: MySQL gets FORCE INDEX (PRIMARY), because on a small table, or
	// where another condition has an index (handle_code <= 0), MariaDB
	// scans a whole index instead and a locking statement then locks every
	// row it passed, so two batches of disjoint ids deadlock (seen with
	// concurrent callbacks: error 1213 on 40 rows of xxl_job_log).
	byID(table string) string
	// registryUpsert is the suffix that turns the registration insert into
	// an upsert on the unique key i_g_k_v (3.4.2's registrySaveOrUpdate).
	registryUpsert() string
	// wrap adapts every statement run through r to the backend: the store
	// writes '?' placeholders (squirrel's default and any raw SQL alike).
	wrap(r runner) runner
}

// collationDialect is the part of MySQL and SQLite that needs no
// translation: MySQL types, ids that follow explicit inserts, and
// case-insensitivity in the columns' collations (SQLite: NOCASE columns,
// and LIKE folds ASCII case).
type collationDialect struct{}

func (collationDialect) columnType(mysqlType string) string              { return mysqlType }
func (collationDialect) syncIDs(context.Context, runner, []string) error { return nil }
func (collationDialect) sortCaseless(column string) string               { return column }
func (collationDialect) eqCaseless(column string, v any) sq.Sqlizer      { return sq.Eq{column: v} }
func (collationDialect) wrap(r runner) runner                            { return r }
func (collationDialect) likeOp() string                                  { return "LIKE" }
func (collationDialect) typedParam(string) string                        { return "?" }
func (collationDialect) byID(table string) string                        { return table }

// index is one index of a table as the schema check sees it.
type index struct {
	Name   string
	Unique bool
}

// scanIndexes reads (name, unique) rows.
func scanIndexes(rows *sql.Rows, table string) ([]index, error) {
	defer rows.Close()
	var out []index
	for rows.Next() {
		var ix index
		if err := rows.Scan(&ix.Name, &ix.Unique); err != nil {
			return nil, fmt.Errorf("indexes of %s: %w", table, err)
		}
		out = append(out, ix)
	}
	return out, rows.Err()
}

// conflictUpsert is the registration upsert of SQLite and PostgreSQL.
const conflictUpsert = "ON CONFLICT (registry_group, registry_key, registry_value) DO UPDATE SET update_time = excluded.update_time"

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

// by picks the 2.4 or the 3.4 spelling of a part of the DDL.
func by(g Generation, v24, v34 string) string {
	if g == Gen3 {
		return v34
	}
	return v24
}

// by34 is stmts for Gen3 and nothing for Gen2.
func by34(g Generation, stmts ...string) []string {
	if g == Gen3 {
		return stmts
	}
	return nil
}

// logIndexes34 are the log indexes 3.4.0 added (I_jobgroup, I_jobid) in the
// CREATE INDEX form SQLite and PostgreSQL share; MySQL declares them in
// its CREATE TABLE and adds them with ALTER TABLE.
func logIndexes34() []string {
	return []string{
		"CREATE INDEX IF NOT EXISTS I_jobgroup ON xxl_job_log (job_group)",
		"CREATE INDEX IF NOT EXISTS I_jobid ON xxl_job_log (job_id)",
	}
}
