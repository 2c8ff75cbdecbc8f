package schema

import (
	"context"
	"database/sql"
	"fmt"
	"regexp"
	"slices"
	"strings"

	sq "github.com/Masterminds/squirrel"
)

// postgresDialect is PostgreSQL 12+ through pgx. The tables are the 2.4.x
// ones translated: int → integer, tinyint → smallint, mediumtext → text,
// datetime → timestamp(0) without time zone (wall time of the store's zone,
// as MySQL's DATETIME), AUTO_INCREMENT → an identity column. MySQL's
// case-insensitive collation is reproduced where the admin depends on it:
// a unique index on lower(username), lower() in the lookups and orderings
// of user names, app names and titles, and ILIKE in the text filters.
type postgresDialect struct{}

func (postgresDialect) registryUpsert() string { return conflictUpsert }

func (postgresDialect) backend() Backend       { return Postgres }
func (postgresDialect) lockSuffix() string     { return "FOR UPDATE" }
func (postgresDialect) transactionalDDL() bool { return true }

// insertID asks for the generated id with RETURNING: PostgreSQL has no
// LastInsertId.
func (postgresDialect) insertID(ctx context.Context, q runner, b sq.InsertBuilder) (int64, error) {
	query, args, err := b.Suffix("RETURNING id").ToSql()
	if err != nil {
		return 0, err
	}
	var id int64
	err = q.QueryRowContext(ctx, query, args...).Scan(&id)
	return id, err
}

// columns reads pg_attribute of the table found through search_path (the
// URL's currentSchema), with types spelled as MySQL spells their
// counterparts where the two agree (varchar(n), text), so the schema
// check's warnings read the same on every backend.
func (postgresDialect) columns(ctx context.Context, q runner, table string) (map[string]string, error) {
	rows, err := q.QueryContext(ctx, `SELECT a.attname, format_type(a.atttypid, a.atttypmod)
		FROM pg_attribute a JOIN pg_class c ON c.oid = a.attrelid
		WHERE c.relname = $1 AND c.relnamespace = (SELECT oid FROM pg_namespace WHERE nspname = current_schema())
		  AND c.relkind IN ('r', 'p') AND a.attnum > 0 AND NOT a.attisdropped`, table)
	if err != nil {
		return nil, fmt.Errorf("columns of %s: %w", table, err)
	}
	defer rows.Close()
	out := map[string]string{}
	for rows.Next() {
		var name, typ string
		if err := rows.Scan(&name, &typ); err != nil {
			return nil, fmt.Errorf("columns of %s: %w", table, err)
		}
		out[strings.ToLower(name)] = pgTypeName(typ)
	}
	return out, rows.Err()
}

var pgTimestamp = regexp.MustCompile(`^timestamp(\(\d\))? without time zone$`)

// pgTypeName shortens format_type's spelling: character varying(n) →
// varchar(n), timestamp(p) without time zone → timestamp.
func pgTypeName(t string) string {
	t = strings.ToLower(strings.TrimSpace(t))
	if n, ok := strings.CutPrefix(t, "character varying"); ok {
		return "varchar" + n
	}
	if pgTimestamp.MatchString(t) {
		return "timestamp"
	}
	return t
}

// columnType is the type this dialect creates for a 2.4.x MySQL type.
func (postgresDialect) columnType(mysqlType string) string {
	switch mysqlType {
	case "int":
		return "integer"
	case "tinyint":
		return "smallint"
	case "mediumtext":
		return "text"
	case "datetime":
		return "timestamp"
	}
	return mysqlType
}

// indexes lists the table's indexes, the primary key as "PRIMARY" (its
// PostgreSQL name is <table>_pkey), as MySQL reports it.
func (postgresDialect) indexes(ctx context.Context, q runner, table string) ([]index, error) {
	rows, err := q.QueryContext(ctx, `SELECT CASE WHEN i.indisprimary THEN 'PRIMARY' ELSE ic.relname END, i.indisunique
		FROM pg_index i JOIN pg_class ic ON ic.oid = i.indexrelid JOIN pg_class c ON c.oid = i.indrelid
		WHERE c.relname = $1 AND c.relnamespace = (SELECT oid FROM pg_namespace WHERE nspname = current_schema())`, table)
	if err != nil {
		return nil, fmt.Errorf("indexes of %s: %w", table, err)
	}
	return scanIndexes(rows, table)
}

// syncIDs moves each table's identity sequence past the ids inserted
// explicitly (the seed rows), which an identity column does not notice.
func (postgresDialect) syncIDs(ctx context.Context, q runner, tables []string) error {
	for _, t := range tables {
		if _, err := q.ExecContext(ctx, "SELECT setval(pg_get_serial_sequence('"+t+"', 'id'), (SELECT max(id) FROM "+t+"))"); err != nil {
			return fmt.Errorf("move the id sequence of %s: %w", t, err)
		}
	}
	return nil
}

// sortCaseless orders as MySQL's case-insensitive collation does: by
// lower() in the byte order of "C", as SQLite's NOCASE folds ASCII and
// keeps code-point order, whatever the database's locale.
func (postgresDialect) sortCaseless(column string) string {
	return "lower(" + column + ") COLLATE \"C\""
}

// eqCaseless compares as the unique index i_username does.
func (postgresDialect) eqCaseless(column string, v any) sq.Sqlizer {
	return sq.Expr("lower("+column+") = lower(?)", v)
}

func (postgresDialect) likeOp() string { return "ILIKE" }

// byID: PostgreSQL locks only the rows a statement returns or changes.
func (postgresDialect) byID(table string) string { return table }

// typedParam casts to the column's type; varchar(n) is cast to text, since
// a cast to varchar(n) would cut an over-long value that an assignment
// refuses (as strict MySQL does).
func (d postgresDialect) typedParam(mysqlType string) string {
	t := d.columnType(mysqlType)
	if strings.HasPrefix(t, "varchar") {
		t = "text"
	}
	return "CAST(? AS " + t + ")"
}

// createTables is the 2.4.2 DDL translated (see postgresDialect). Index
// names are unique per schema in PostgreSQL; the script's are already.
func (d postgresDialect) createTables(g Generation) []string {
	return append(d.tables(g), by34(g, logIndexes34()...)...)
}

func (postgresDialect) tables(g Generation) []string {
	return []string{
		`CREATE TABLE IF NOT EXISTS xxl_job_info (
  id integer GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY, job_group integer NOT NULL, job_desc varchar(255) NOT NULL,
  add_time timestamp(0) DEFAULT NULL, update_time timestamp(0) DEFAULT NULL, author varchar(64) DEFAULT NULL,
  alarm_email varchar(255) DEFAULT NULL, schedule_type varchar(50) NOT NULL DEFAULT 'NONE',
  schedule_conf varchar(128) DEFAULT NULL, misfire_strategy varchar(50) NOT NULL DEFAULT 'DO_NOTHING',
  executor_route_strategy varchar(50) DEFAULT NULL, executor_handler varchar(255) DEFAULT NULL,
  executor_param ` + by(g, "varchar(512)", "text") + ` DEFAULT NULL, executor_block_strategy varchar(50) DEFAULT NULL,
  executor_timeout integer NOT NULL DEFAULT 0, executor_fail_retry_count integer NOT NULL DEFAULT 0,
  glue_type varchar(50) NOT NULL, glue_source text, glue_remark varchar(128) DEFAULT NULL,
  glue_updatetime timestamp(0) DEFAULT NULL, child_jobid varchar(255) DEFAULT NULL,
  trigger_status smallint NOT NULL DEFAULT 0, trigger_last_time bigint NOT NULL DEFAULT 0,
  trigger_next_time bigint NOT NULL DEFAULT 0)`,
		`CREATE TABLE IF NOT EXISTS xxl_job_log (
  id bigint GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY, job_group integer NOT NULL, job_id integer NOT NULL,
  executor_address varchar(255) DEFAULT NULL, executor_handler varchar(255) DEFAULT NULL,
  executor_param ` + by(g, "varchar(512)", "text") + ` DEFAULT NULL, executor_sharding_param varchar(20) DEFAULT NULL,
  executor_fail_retry_count integer NOT NULL DEFAULT 0, trigger_time timestamp(0) DEFAULT NULL,
  trigger_code integer NOT NULL, trigger_msg text, handle_time timestamp(0) DEFAULT NULL,
  handle_code integer NOT NULL, handle_msg text, alarm_status smallint NOT NULL DEFAULT 0)`,
		`CREATE INDEX IF NOT EXISTS i_trigger_time ON xxl_job_log (trigger_time)`,
		`CREATE INDEX IF NOT EXISTS i_handle_code ON xxl_job_log (handle_code)`,
		`CREATE TABLE IF NOT EXISTS xxl_job_log_report (
  id integer GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY, trigger_day timestamp(0) DEFAULT NULL,
  running_count integer NOT NULL DEFAULT 0, suc_count integer NOT NULL DEFAULT 0,
  fail_count integer NOT NULL DEFAULT 0, update_time timestamp(0) DEFAULT NULL)`,
		`CREATE UNIQUE INDEX IF NOT EXISTS i_trigger_day ON xxl_job_log_report (trigger_day)`,
		`CREATE TABLE IF NOT EXISTS xxl_job_logglue (
  id integer GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY, job_id integer NOT NULL, glue_type varchar(50) DEFAULT NULL,
  glue_source text, glue_remark varchar(128) NOT NULL, add_time timestamp(0) DEFAULT NULL,
  update_time timestamp(0) DEFAULT NULL)`,
		`CREATE TABLE IF NOT EXISTS xxl_job_registry (
  id ` + by(g, "integer", "bigint") + ` GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY, registry_group varchar(50) NOT NULL,
  registry_key varchar(255) NOT NULL, registry_value varchar(255) NOT NULL, update_time timestamp(0) DEFAULT NULL)`,
		`CREATE ` + by(g, "", "UNIQUE ") + `INDEX IF NOT EXISTS i_g_k_v ON xxl_job_registry (registry_group, registry_key, registry_value)`,
		`CREATE TABLE IF NOT EXISTS xxl_job_group (
  id integer GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY, app_name varchar(64) NOT NULL, title ` + by(g, "varchar(12)", "varchar(64)") + ` NOT NULL,
  address_type smallint NOT NULL DEFAULT 0, address_list text, update_time timestamp(0) DEFAULT NULL)`,
		`CREATE TABLE IF NOT EXISTS xxl_job_user (
  id integer GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY, username varchar(50) NOT NULL, password ` + by(g, "varchar(50)", "varchar(100)") + ` NOT NULL,` + by(g, "", " token varchar(100) DEFAULT NULL,") + `
  role smallint NOT NULL, permission varchar(255) DEFAULT NULL)`,
		// MySQL's unique key compares case-insensitively: "Admin" is "admin".
		`CREATE UNIQUE INDEX IF NOT EXISTS i_username ON xxl_job_user (lower(username))`,
		`CREATE TABLE IF NOT EXISTS xxl_job_lock (lock_name varchar(50) NOT NULL PRIMARY KEY)`,
	}
}

// wrap numbers the store's '?' placeholders ($1, $2, …; the store's SQL
// holds no '?' inside literals) and replaces U+0000 in string arguments by
// U+FFFD: PostgreSQL's text cannot hold it (MySQL and SQLite store it), and
// an executor's message holding one must still be stored rather than fail
// its callback forever.
func (postgresDialect) wrap(r runner) runner { return pgRunner{r} }

type pgRunner struct{ r runner }

func (p pgRunner) ExecContext(ctx context.Context, query string, args ...any) (sql.Result, error) {
	return p.r.ExecContext(ctx, dollars(query), withoutNUL(args)...)
}

func (p pgRunner) QueryContext(ctx context.Context, query string, args ...any) (*sql.Rows, error) {
	return p.r.QueryContext(ctx, dollars(query), withoutNUL(args)...)
}

func (p pgRunner) QueryRowContext(ctx context.Context, query string, args ...any) *sql.Row {
	return p.r.QueryRowContext(ctx, dollars(query), withoutNUL(args)...)
}

func dollars(query string) string {
	if !strings.Contains(query, "?") {
		return query
	}
	q, err := sq.Dollar.ReplacePlaceholders(query)
	if err != nil { // cannot happen: Dollar only rewrites
		return query
	}
	return q
}

// withoutNUL returns args with U+0000 replaced in strings, copying only
// when one holds it.
func withoutNUL(args []any) []any {
	var out []any
	for i, a := range args {
		var v string
		switch x := a.(type) {
		case string:
			v = x
		case *string:
			if x == nil {
				continue
			}
			v = *x
		default:
			continue
		}
		if !strings.ContainsRune(v, 0) {
			continue
		}
		if out == nil {
			out = slices.Clone(args)
		}
		out[i] = strings.ReplaceAll(v, "\x00", "\uFFFD")
	}
	if out == nil {
		return args
	}
	return out
}
