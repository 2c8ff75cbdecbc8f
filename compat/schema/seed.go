package schema

import (
	"context"
	"fmt"
	"time"

	sq "github.com/Masterminds/squirrel"
)

// seedTime is the timestamp the 2.4.2 script gives its seed rows.
var seedTime = time.Date(2018, 11, 3, 22, 21, 31, 0, time.UTC)

// create makes the tables and the seed rows of tables_xxl_job.sql (schema.md
// §2). Where DDL is transactional (SQLite, PostgreSQL) it is all one transaction; MySQL
// commits each CREATE implicitly, so on failure the tables this call created
// are dropped again rather than left half-made.
func (s *Store) create(ctx context.Context) error {
	if s.d.transactionalDDL() {
		return s.WithTx(ctx, func(tx *Store) error {
			for _, stmt := range s.d.createTables() {
				if _, err := tx.q.ExecContext(ctx, stmt); err != nil {
					return fmt.Errorf("create schema: %w", err)
				}
			}
			return tx.seed(ctx)
		})
	}
	for _, stmt := range s.d.createTables() {
		if _, err := s.q.ExecContext(ctx, stmt); err != nil {
			s.dropCreated(ctx)
			return fmt.Errorf("create schema: %w", err)
		}
	}
	if err := s.WithTx(ctx, func(tx *Store) error { return tx.seed(ctx) }); err != nil {
		s.dropCreated(ctx)
		return err
	}
	return nil
}

// dropCreated removes the tables after a failed creation, unless another
// admin starting at the same moment has already seeded them.
func (s *Store) dropCreated(ctx context.Context) {
	for _, t := range []string{"xxl_job_user", "xxl_job_lock"} {
		if n, err := s.count(ctx, s.sb.Select("count(1)").From(t)); err != nil || n > 0 {
			return
		}
	}
	for table := range expectedTables {
		_, _ = s.q.ExecContext(ctx, "DROP TABLE IF EXISTS "+table)
	}
}

func (s *Store) seed(ctx context.Context) error {
	wall := seedTime.Format(dateTimeLayout) // the script's literal wall time, whatever the zone
	stmts := []sq.InsertBuilder{
		s.sb.Insert("xxl_job_group").Columns("id", "app_name", "title", "address_type", "address_list", "update_time").
			Values(1, "xxl-job-executor-sample", "示例执行器", 0, nil, wall),
		s.sb.Insert("xxl_job_info").Columns("id", "job_group", "job_desc", "add_time", "update_time", "author",
			"alarm_email", "schedule_type", "schedule_conf", "misfire_strategy", "executor_route_strategy",
			"executor_handler", "executor_param", "executor_block_strategy", "executor_timeout",
			"executor_fail_retry_count", "glue_type", "glue_source", "glue_remark", "glue_updatetime", "child_jobid").
			Values(1, 1, "测试任务1", wall, wall, "XXL", "", "CRON", "0 0 0 * * ? *", "DO_NOTHING", "FIRST",
				"demoJobHandler", "", "SERIAL_EXECUTION", 0, 0, "BEAN", "", "GLUE代码初始化", wall, ""),
		s.sb.Insert("xxl_job_user").Columns("id", "username", "password", "role", "permission").
			Values(1, "admin", "e10adc3949ba59abbe56e057f20f883e", 1, nil),
		s.sb.Insert("xxl_job_lock").Columns("lock_name").Values("schedule_lock"),
	}
	for _, b := range stmts {
		if _, err := s.exec(ctx, b); err != nil {
			return fmt.Errorf("insert seed rows: %w", err)
		}
	}
	return s.d.syncIDs(ctx, s.q, []string{"xxl_job_group", "xxl_job_info", "xxl_job_user"})
}

// ensureScheduleLock inserts the schedule_lock row when it is missing.
func (s *Store) ensureScheduleLock(ctx context.Context) (bool, error) {
	n, err := s.count(ctx, s.sb.Select("count(1)").From("xxl_job_lock").Where(sq.Eq{"lock_name": "schedule_lock"}))
	if err != nil {
		return false, fmt.Errorf("check schedule_lock row: %w", err)
	}
	if n > 0 {
		return false, nil
	}
	if _, err := s.exec(ctx, s.sb.Insert("xxl_job_lock").Columns("lock_name").Values("schedule_lock")); err != nil {
		// A concurrent admin inserting it first is fine: the row exists.
		if n2, cerr := s.count(ctx, s.sb.Select("count(1)").From("xxl_job_lock").Where(sq.Eq{"lock_name": "schedule_lock"})); cerr == nil && n2 > 0 {
			return false, nil
		}
		return false, fmt.Errorf("insert schedule_lock row: %w", err)
	}
	return true, nil
}
