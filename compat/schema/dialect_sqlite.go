package schema

import (
	"context"
	"fmt"
	"strings"

	sq "github.com/Masterminds/squirrel"
)

// sqliteDialect is the embedded store. Types keep the MySQL spelling so the
// schema check compares like with like; SQLite maps them to its affinities.
type sqliteDialect struct{ collationDialect }

func (sqliteDialect) registryUpsert() string { return conflictUpsert }

func (sqliteDialect) backend() Backend       { return SQLite }
func (sqliteDialect) lockSuffix() string     { return "" }
func (sqliteDialect) transactionalDDL() bool { return true }

func (sqliteDialect) insertID(ctx context.Context, q runner, b sq.InsertBuilder) (int64, error) {
	return lastInsertID(ctx, q, b)
}

func (sqliteDialect) columns(ctx context.Context, q runner, table string) (map[string]string, error) {
	rows, err := q.QueryContext(ctx, "SELECT name, type FROM pragma_table_info(?)", table)
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
		out[strings.ToLower(name)] = strings.ToLower(typ)
	}
	return out, rows.Err()
}

func (sqliteDialect) indexes(ctx context.Context, q runner, table string) ([]index, error) {
	rows, err := q.QueryContext(ctx, "SELECT name, \"unique\" FROM pragma_index_list(?)", table)
	if err != nil {
		return nil, fmt.Errorf("indexes of %s: %w", table, err)
	}
	return scanIndexes(rows, table)
}

// createTables mirrors the MySQL DDL. Ids use AUTOINCREMENT so a deleted log
// id is never handed out again (executors name log files by log id).
// username, app_name and title are NOCASE because MySQL's default utf8mb4
// collation compares and sorts them case-insensitively (schema.md §4.7,
// §4.9): the login lookup and the group list order must match.
func (d sqliteDialect) createTables(g Generation) []string {
	return append(d.tables(g), by34(g, logIndexes34()...)...)
}

func (sqliteDialect) tables(g Generation) []string {
	return []string{
		`CREATE TABLE IF NOT EXISTS xxl_job_info (
  id INTEGER PRIMARY KEY AUTOINCREMENT, job_group int(11) NOT NULL, job_desc varchar(255) NOT NULL,
  add_time datetime DEFAULT NULL, update_time datetime DEFAULT NULL, author varchar(64) DEFAULT NULL,
  alarm_email varchar(255) DEFAULT NULL, schedule_type varchar(50) NOT NULL DEFAULT 'NONE',
  schedule_conf varchar(128) DEFAULT NULL, misfire_strategy varchar(50) NOT NULL DEFAULT 'DO_NOTHING',
  executor_route_strategy varchar(50) DEFAULT NULL, executor_handler varchar(255) DEFAULT NULL,
  executor_param ` + by(g, "varchar(512)", "text") + ` DEFAULT NULL, executor_block_strategy varchar(50) DEFAULT NULL,
  executor_timeout int(11) NOT NULL DEFAULT 0, executor_fail_retry_count int(11) NOT NULL DEFAULT 0,
  glue_type varchar(50) NOT NULL, glue_source mediumtext, glue_remark varchar(128) DEFAULT NULL,
  glue_updatetime datetime DEFAULT NULL, child_jobid varchar(255) DEFAULT NULL,
  trigger_status tinyint(4) NOT NULL DEFAULT 0, trigger_last_time bigint(13) NOT NULL DEFAULT 0,
  trigger_next_time bigint(13) NOT NULL DEFAULT 0)`,
		`CREATE TABLE IF NOT EXISTS xxl_job_log (
  id INTEGER PRIMARY KEY AUTOINCREMENT, job_group int(11) NOT NULL, job_id int(11) NOT NULL,
  executor_address varchar(255) DEFAULT NULL, executor_handler varchar(255) DEFAULT NULL,
  executor_param ` + by(g, "varchar(512)", "text") + ` DEFAULT NULL, executor_sharding_param varchar(20) DEFAULT NULL,
  executor_fail_retry_count int(11) NOT NULL DEFAULT 0, trigger_time datetime DEFAULT NULL,
  trigger_code int(11) NOT NULL, trigger_msg text, handle_time datetime DEFAULT NULL,
  handle_code int(11) NOT NULL, handle_msg text, alarm_status tinyint(4) NOT NULL DEFAULT 0)`,
		`CREATE INDEX IF NOT EXISTS I_trigger_time ON xxl_job_log (trigger_time)`,
		`CREATE INDEX IF NOT EXISTS I_handle_code ON xxl_job_log (handle_code)`,
		`CREATE TABLE IF NOT EXISTS xxl_job_log_report (
  id INTEGER PRIMARY KEY AUTOINCREMENT, trigger_day datetime DEFAULT NULL,
  running_count int(11) NOT NULL DEFAULT 0, suc_count int(11) NOT NULL DEFAULT 0,
  fail_count int(11) NOT NULL DEFAULT 0, update_time datetime DEFAULT NULL)`,
		`CREATE UNIQUE INDEX IF NOT EXISTS i_trigger_day ON xxl_job_log_report (trigger_day)`,
		`CREATE TABLE IF NOT EXISTS xxl_job_logglue (
  id INTEGER PRIMARY KEY AUTOINCREMENT, job_id int(11) NOT NULL, glue_type varchar(50) DEFAULT NULL,
  glue_source mediumtext, glue_remark varchar(128) NOT NULL, add_time datetime DEFAULT NULL,
  update_time datetime DEFAULT NULL)`,
		`CREATE TABLE IF NOT EXISTS xxl_job_registry (
  id INTEGER PRIMARY KEY AUTOINCREMENT, registry_group varchar(50) NOT NULL,
  registry_key varchar(255) NOT NULL, registry_value varchar(255) NOT NULL, update_time datetime DEFAULT NULL)`,
		`CREATE ` + by(g, "", "UNIQUE ") + `INDEX IF NOT EXISTS i_g_k_v ON xxl_job_registry (registry_group, registry_key, registry_value)`,
		`CREATE TABLE IF NOT EXISTS xxl_job_group (
  id INTEGER PRIMARY KEY AUTOINCREMENT, app_name varchar(64) NOT NULL COLLATE NOCASE, title ` + by(g, "varchar(12)", "varchar(64)") + ` NOT NULL COLLATE NOCASE,
  address_type tinyint(4) NOT NULL DEFAULT 0, address_list text, update_time datetime DEFAULT NULL)`,
		`CREATE TABLE IF NOT EXISTS xxl_job_user (
  id INTEGER PRIMARY KEY AUTOINCREMENT, username varchar(50) NOT NULL COLLATE NOCASE, password ` + by(g, "varchar(50)", "varchar(100)") + ` NOT NULL,` + by(g, "", " token varchar(100) DEFAULT NULL,") + `
  role tinyint(4) NOT NULL, permission varchar(255) DEFAULT NULL)`,
		`CREATE UNIQUE INDEX IF NOT EXISTS i_username ON xxl_job_user (username)`,
		`CREATE TABLE IF NOT EXISTS xxl_job_lock (lock_name varchar(50) NOT NULL PRIMARY KEY)`,
	}
}
