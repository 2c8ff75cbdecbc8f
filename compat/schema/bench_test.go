package schema

import (
	"context"
	"fmt"
	"os"
	"testing"
	"time"
)

// forEachBackendBench is forEachBackend for benchmarks, on prepared
// databases.
func forEachBackendBench(b *testing.B, fn func(b *testing.B, s *Store)) {
	prepared := func(b *testing.B, s *Store) *Store {
		if _, err := s.Prepare(context.Background(), PrepareOptions{}); err != nil {
			b.Fatal(err)
		}
		return s
	}
	b.Run("sqlite", func(b *testing.B) { fn(b, prepared(b, openSQLite(b))) })
	b.Run("mysql", func(b *testing.B) {
		dsn := os.Getenv(mysqlDSNEnv)
		if dsn == "" {
			b.Skip(mysqlDSNEnv + " not set")
		}
		fn(b, prepared(b, openMySQL(b)))
	})
	b.Run("postgres", func(b *testing.B) {
		dsn := os.Getenv(postgresDSNEnv)
		if dsn == "" {
			b.Skip(postgresDSNEnv + " not set")
		}
		fn(b, prepared(b, openPostgres(b)))
	})
}

// BenchmarkLogSave is the first write of every trigger.
func BenchmarkLogSave(b *testing.B) {
	forEachBackendBench(b, func(b *testing.B, s *Store) {
		ctx := context.Background()
		now := time.Now()
		for b.Loop() {
			if _, err := s.LogSave(ctx, JobLog{JobGroup: 1, JobID: 1, TriggerTime: &now}); err != nil {
				b.Fatal(err)
			}
		}
	})
}

// BenchmarkLogUpdateTriggerInfo is the second write of every trigger.
func BenchmarkLogUpdateTriggerInfo(b *testing.B) {
	forEachBackendBench(b, func(b *testing.B, s *Store) {
		ctx := context.Background()
		now := time.Now()
		var ids []int64
		for range 1000 {
			id, err := s.LogSave(ctx, JobLog{JobGroup: 1, JobID: 1, TriggerTime: &now})
			if err != nil {
				b.Fatal(err)
			}
			ids = append(ids, id)
		}
		i := 0
		for b.Loop() {
			err := s.LogUpdateTriggerInfo(ctx, JobLog{ID: ids[i%len(ids)], TriggerTime: &now, TriggerCode: 200,
				TriggerMsg:      Ptr("任务触发类型：Cron触发<br>调度机器：10.0.0.1<br>执行器-注册方式：自动注册"),
				ExecutorAddress: Ptr("http://10.0.0.2:9999/"), ExecutorHandler: Ptr("demoJobHandler"), ExecutorParam: Ptr("")})
			if err != nil {
				b.Fatal(err)
			}
			i++
		}
	})
}

// BenchmarkRegistryUpsert is one executor heartbeat (every 30 s per executor).
func BenchmarkRegistryUpsert(b *testing.B) {
	forEachBackendBench(b, func(b *testing.B, s *Store) {
		ctx := context.Background()
		now := time.Now()
		i := 0
		for b.Loop() {
			addr := fmt.Sprintf("http://10.0.%d.%d:9999/", i/250%250, i%250)
			if _, err := s.RegistryUpsert(ctx, "EXECUTOR", "xxl-job-executor-sample", addr, now); err != nil {
				b.Fatal(err)
			}
			i = (i + 1) % 100 // 100 executors: mostly updates, as in production
		}
	})
}

// BenchmarkJobScheduleQuery is the scheduler's pre-read over 1000 jobs, half
// of them due, with the Java default page of 6000.
func BenchmarkJobScheduleQuery(b *testing.B) {
	forEachBackendBench(b, func(b *testing.B, s *Store) {
		ctx := context.Background()
		err := s.WithTx(ctx, func(tx *Store) error {
			for i := range 1000 {
				_, err := tx.JobSave(ctx, JobInfo{JobGroup: 1, JobDesc: fmt.Sprintf("job %d", i), ScheduleType: "CRON",
					ScheduleConf: Ptr("0/5 * * * * ?"), MisfireStrategy: "DO_NOTHING", GlueType: "BEAN",
					ExecutorHandler: Ptr("demoJobHandler"), TriggerStatus: 1, TriggerNextTime: int64(i)})
				if err != nil {
					return err
				}
			}
			return nil
		})
		if err != nil {
			b.Fatal(err)
		}
		for b.Loop() {
			jobs, err := s.JobScheduleQuery(ctx, 499, 6000)
			if err != nil || len(jobs) != 500 {
				b.Fatalf("%d jobs, %v", len(jobs), err)
			}
		}
	})
}
