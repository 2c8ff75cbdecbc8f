package schema

import (
	"context"
	"fmt"
	"strings"

	sq "github.com/Masterminds/squirrel"
)

type mysqlDialect struct{ collationDialect }

func (mysqlDialect) registryUpsert() string {
	return "ON DUPLICATE KEY UPDATE update_time = VALUES(update_time)"
}

func (mysqlDialect) backend() Backend       { return MySQL }
func (mysqlDialect) lockSuffix() string     { return "FOR UPDATE" }
func (mysqlDialect) transactionalDDL() bool { return false }

func (mysqlDialect) byID(table string) string { return table + " FORCE INDEX (PRIMARY)" }

func (mysqlDialect) insertID(ctx context.Context, q runner, b sq.InsertBuilder) (int64, error) {
	return lastInsertID(ctx, q, b)
}

func (mysqlDialect) columns(ctx context.Context, q runner, table string) (map[string]string, error) {
	rows, err := q.QueryContext(ctx, "SELECT column_name, column_type FROM information_schema.columns WHERE table_schema = DATABASE() AND table_name = ?", table)
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

func (mysqlDialect) indexes(ctx context.Context, q runner, table string) ([]index, error) {
	rows, err := q.QueryContext(ctx, "SELECT index_name, MIN(non_unique) = 0 FROM information_schema.statistics WHERE table_schema = DATABASE() AND table_name = ? GROUP BY index_name", table)
	if err != nil {
		return nil, fmt.Errorf("indexes of %s: %w", table, err)
	}
	return scanIndexes(rows, table)
}

// createTables is the DDL of doc/db/tables_xxl_job.sql at 2.4.2 (schema.md §1)
// or, for Gen3, at 3.4.2 (spec/schema-3.4.2.sql).
func (mysqlDialect) createTables(g Generation) []string {
	const tail = ") ENGINE=InnoDB DEFAULT CHARSET=utf8mb4"
	return []string{
		"CREATE TABLE IF NOT EXISTS `xxl_job_info` (" +
			"`id` int(11) NOT NULL AUTO_INCREMENT, `job_group` int(11) NOT NULL, `job_desc` varchar(255) NOT NULL," +
			"`add_time` datetime DEFAULT NULL, `update_time` datetime DEFAULT NULL, `author` varchar(64) DEFAULT NULL," +
			"`alarm_email` varchar(255) DEFAULT NULL, `schedule_type` varchar(50) NOT NULL DEFAULT 'NONE'," +
			"`schedule_conf` varchar(128) DEFAULT NULL, `misfire_strategy` varchar(50) NOT NULL DEFAULT 'DO_NOTHING'," +
			"`executor_route_strategy` varchar(50) DEFAULT NULL, `executor_handler` varchar(255) DEFAULT NULL," +
			"`executor_param` " + by(g, "varchar(512)", "text") + " DEFAULT NULL, `executor_block_strategy` varchar(50) DEFAULT NULL," +
			"`executor_timeout` int(11) NOT NULL DEFAULT '0', `executor_fail_retry_count` int(11) NOT NULL DEFAULT '0'," +
			"`glue_type` varchar(50) NOT NULL, `glue_source` mediumtext, `glue_remark` varchar(128) DEFAULT NULL," +
			"`glue_updatetime` datetime DEFAULT NULL, `child_jobid` varchar(255) DEFAULT NULL," +
			"`trigger_status` tinyint(4) NOT NULL DEFAULT '0', `trigger_last_time` bigint(13) NOT NULL DEFAULT '0'," +
			"`trigger_next_time` bigint(13) NOT NULL DEFAULT '0', PRIMARY KEY (`id`)" + tail,
		"CREATE TABLE IF NOT EXISTS `xxl_job_log` (" +
			"`id` bigint(20) NOT NULL AUTO_INCREMENT, `job_group` int(11) NOT NULL, `job_id` int(11) NOT NULL," +
			"`executor_address` varchar(255) DEFAULT NULL, `executor_handler` varchar(255) DEFAULT NULL," +
			"`executor_param` " + by(g, "varchar(512)", "text") + " DEFAULT NULL, `executor_sharding_param` varchar(20) DEFAULT NULL," +
			"`executor_fail_retry_count` int(11) NOT NULL DEFAULT '0', `trigger_time` datetime DEFAULT NULL," +
			"`trigger_code` int(11) NOT NULL, `trigger_msg` text, `handle_time` datetime DEFAULT NULL," +
			"`handle_code` int(11) NOT NULL, `handle_msg` text, `alarm_status` tinyint(4) NOT NULL DEFAULT '0'," +
			"PRIMARY KEY (`id`), KEY `I_trigger_time` (`trigger_time`), KEY `I_handle_code` (`handle_code`)" +
			by(g, "", ", KEY `I_jobgroup` (`job_group`), KEY `I_jobid` (`job_id`)") + tail,
		"CREATE TABLE IF NOT EXISTS `xxl_job_log_report` (" +
			"`id` int(11) NOT NULL AUTO_INCREMENT, `trigger_day` datetime DEFAULT NULL," +
			"`running_count` int(11) NOT NULL DEFAULT '0', `suc_count` int(11) NOT NULL DEFAULT '0'," +
			"`fail_count` int(11) NOT NULL DEFAULT '0', `update_time` datetime DEFAULT NULL," +
			"PRIMARY KEY (`id`), UNIQUE KEY `i_trigger_day` (`trigger_day`) USING BTREE" + tail,
		"CREATE TABLE IF NOT EXISTS `xxl_job_logglue` (" +
			"`id` int(11) NOT NULL AUTO_INCREMENT, `job_id` int(11) NOT NULL, `glue_type` varchar(50) DEFAULT NULL," +
			"`glue_source` mediumtext, `glue_remark` varchar(128) NOT NULL, `add_time` datetime DEFAULT NULL," +
			"`update_time` datetime DEFAULT NULL, PRIMARY KEY (`id`)" + tail,
		"CREATE TABLE IF NOT EXISTS `xxl_job_registry` (" +
			"`id` " + by(g, "int(11)", "bigint(20)") + " NOT NULL AUTO_INCREMENT, `registry_group` varchar(50) NOT NULL," +
			"`registry_key` varchar(255) NOT NULL, `registry_value` varchar(255) NOT NULL," +
			"`update_time` datetime DEFAULT NULL, PRIMARY KEY (`id`)," +
			by(g, "KEY", "UNIQUE KEY") + " `i_g_k_v` (`registry_group`,`registry_key`,`registry_value`)" + tail,
		"CREATE TABLE IF NOT EXISTS `xxl_job_group` (" +
			"`id` int(11) NOT NULL AUTO_INCREMENT, `app_name` varchar(64) NOT NULL, `title` " + by(g, "varchar(12)", "varchar(64)") + " NOT NULL," +
			"`address_type` tinyint(4) NOT NULL DEFAULT '0', `address_list` text, `update_time` datetime DEFAULT NULL," +
			"PRIMARY KEY (`id`)" + tail,
		"CREATE TABLE IF NOT EXISTS `xxl_job_user` (" +
			"`id` int(11) NOT NULL AUTO_INCREMENT, `username` varchar(50) NOT NULL, `password` " + by(g, "varchar(50)", "varchar(100)") + " NOT NULL," +
			by(g, "", "`token` varchar(100) DEFAULT NULL, ") + "`role` tinyint(4) NOT NULL, `permission` varchar(255) DEFAULT NULL, PRIMARY KEY (`id`)," +
			"UNIQUE KEY `i_username` (`username`) USING BTREE" + tail,
		"CREATE TABLE IF NOT EXISTS `xxl_job_lock` (`lock_name` varchar(50) NOT NULL, PRIMARY KEY (`lock_name`)" + tail,
	}
}
