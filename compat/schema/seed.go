package schema

import (
	"context"
	"fmt"
	"time"

	sq "github.com/Masterminds/squirrel"
)

// seedTime is the timestamp the 2.4.2 script gives its seed rows.
var seedTime = time.Date(2018, 11, 3, 22, 21, 31, 0, time.UTC)

// create makes the tables and the seed rows of the generation's
// tables_xxl_job.sql (schema.md §2; spec/schema-3.4.2.sql). Where DDL is transactional (SQLite, PostgreSQL) it is all one transaction; MySQL
// commits each CREATE implicitly, so on failure the tables this call created
// are dropped again rather than left half-made.
func (s *Store) create(ctx context.Context, g Generation) error {
	if s.d.transactionalDDL() {
		return s.WithTx(ctx, func(tx *Store) error {
			for _, stmt := range s.d.createTables(g) {
				if _, err := tx.q.ExecContext(ctx, stmt); err != nil {
					return fmt.Errorf("create schema: %w", err)
				}
			}
			return tx.seed(ctx, g)
		})
	}
	for _, stmt := range s.d.createTables(g) {
		if _, err := s.q.ExecContext(ctx, stmt); err != nil {
			s.dropCreated(ctx)
			return fmt.Errorf("create schema: %w", err)
		}
	}
	if err := s.WithTx(ctx, func(tx *Store) error { return tx.seed(ctx, g) }); err != nil {
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
	for table := range tables24 {
		_, _ = s.q.ExecContext(ctx, "DROP TABLE IF EXISTS "+table)
	}
}

func (s *Store) seed(ctx context.Context, g Generation) error {
	stmts := s.seed24()
	if g == Gen3 {
		stmts = s.seed34()
	}
	for _, b := range stmts {
		if _, err := s.exec(ctx, b); err != nil {
			return fmt.Errorf("insert seed rows: %w", err)
		}
	}
	return s.d.syncIDs(ctx, s.q, []string{"xxl_job_group", "xxl_job_info", "xxl_job_user"})
}

// jobSeedColumns are the columns both scripts insert their sample jobs with.
var jobSeedColumns = []string{"id", "job_group", "job_desc", "add_time", "update_time", "author",
	"alarm_email", "schedule_type", "schedule_conf", "misfire_strategy", "executor_route_strategy",
	"executor_handler", "executor_param", "executor_block_strategy", "executor_timeout",
	"executor_fail_retry_count", "glue_type", "glue_source", "glue_remark", "glue_updatetime", "child_jobid"}

// seed24 are the 2.4.2 script's rows: one sample executor and job, admin
// with the MD5 of 123456.
func (s *Store) seed24() []sq.InsertBuilder {
	wall := seedTime.Format(dateTimeLayout) // the script's literal wall time, whatever the zone
	return []sq.InsertBuilder{
		s.sb.Insert("xxl_job_group").Columns("id", "app_name", "title", "address_type", "address_list", "update_time").
			Values(1, "xxl-job-executor-sample", "示例执行器", 0, nil, wall),
		s.sb.Insert("xxl_job_info").Columns(jobSeedColumns...).
			Values(1, 1, "测试任务1", wall, wall, "XXL", "", "CRON", "0 0 0 * * ? *", "DO_NOTHING", "FIRST",
				"demoJobHandler", "", "SERIAL_EXECUTION", 0, 0, "BEAN", "", "GLUE代码初始化", wall, ""),
		s.sb.Insert("xxl_job_user").Columns("id", "username", "password", "role", "permission").
			Values(1, "admin", "e10adc3949ba59abbe56e057f20f883e", 1, nil),
		s.sb.Insert("xxl_job_lock").Columns("lock_name").Values("schedule_lock"),
	}
}

// seed34 are the 3.4.2 script's rows (spec/schema-3.4.2.sql): the sample
// and AI sample executors, the sample job and the three AI sample jobs
// (all stopped), admin with the SHA-256 of 123456; the script stamps them
// with now().
func (s *Store) seed34() []sq.InsertBuilder {
	now := s.dbTime(time.Now())
	job := func(id, group int, desc, schedule, conf, handler, param string) sq.InsertBuilder {
		return s.sb.Insert("xxl_job_info").Columns(jobSeedColumns...).
			Values(id, group, desc, now, now, "XXL", "", schedule, conf, "DO_NOTHING", "FIRST",
				handler, param, "SERIAL_EXECUTION", 0, 0, "BEAN", "", "GLUE代码初始化", now, "")
	}
	return []sq.InsertBuilder{
		s.sb.Insert("xxl_job_group").Columns("id", "app_name", "title", "address_type", "address_list", "update_time").
			Values(1, "xxl-job-executor-sample", "通用执行器Sample", 0, nil, now).
			Values(2, "xxl-job-executor-sample-ai", "AI执行器Sample", 0, nil, now),
		job(1, 1, "示例任务01", "CRON", "0 0 0 * * ? *", "demoJobHandler", ""),
		job(2, 2, "Ollama示例任务", "NONE", "", "ollamaJobHandler", seedParamOllama),
		job(3, 2, "Dify示例任务", "NONE", "", "difyWorkflowJobHandler", seedParamDify),
		job(4, 2, "OpenClaw示例任务", "NONE", "", "openClawJobHandler", seedParamOpenClaw),
		s.sb.Insert("xxl_job_user").Columns("id", "username", "password", "role", "permission").
			Values(1, "admin", "8d969eef6ecad3c29a3a629280e686cf0c3f5d5a86aff3ca12020c923adc6c92", 1, nil),
		s.sb.Insert("xxl_job_lock").Columns("lock_name").Values("schedule_lock"),
	}
}

// The 3.4.2 script's parameters of its AI sample jobs, byte for byte.
const (
	seedParamOllama = `{
    "input": "Java实现二叉树层序遍历",
    "prompt": "你是一个研发工程师，擅长解决技术类问题。",
    "model": "qwen3.5:0.8b"
}`
	seedParamDify = `{
    "inputs":{
        "input":"查询班级各学科前三名"
    },
    "user": "xxl-job",
    "baseUrl": "http://localhost/v1",
    "apiKey": "app-OUVgNUOQRIMokfmuJvBJoUTN"
}`
	seedParamOpenClaw = `{
    "input": "查看下上海今天得天气，给出出游建议",
    "prompt": "你是一个出游助手，擅长做旅游规划"
}`
)

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
