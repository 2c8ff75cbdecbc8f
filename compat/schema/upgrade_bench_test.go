package schema

import (
	"context"
	"fmt"
	"os"
	"strings"
	"testing"
	"time"
)

// BenchmarkUpgrade100k upgrades a 2.4 database holding 100,000 log rows
// to 3.4, one fresh database per iteration; the log table's step (MySQL:
// one ALTER copying the table; PostgreSQL: a type change without rewrite
// and two indexes; SQLite: the table rebuilt) is reported as log-step-ms.
func BenchmarkUpgrade100k(b *testing.B) {
	backends := []struct {
		name string
		env  string
		open func(testing.TB) *Store
	}{
		{"sqlite", "", openSQLite},
		{"mysql", mysqlDSNEnv, openMySQL},
		{"postgres", postgresDSNEnv, openPostgres},
	}
	for _, be := range backends {
		b.Run(be.name, func(b *testing.B) {
			if be.env != "" && os.Getenv(be.env) == "" {
				b.Skip(be.env + " not set")
			}
			ctx := context.Background()
			var logStep time.Duration
			for range b.N {
				b.StopTimer()
				s := be.open(b)
				if _, err := s.Prepare(ctx, PrepareOptions{}); err != nil {
					b.Fatal(err)
				}
				fillLogs100k(b, s)
				plan, err := s.PlanUpgrade(ctx, Gen3)
				if err != nil {
					b.Fatal(err)
				}
				b.StartTimer()
				res, err := s.ApplyUpgrade(ctx, plan, UpgradeOptions{Activity: quiet})
				if err != nil {
					b.Fatal(err)
				}
				b.StopTimer()
				logStep += res.Steps[len(res.Steps)-1].Took
				_ = s.Close()
			}
			b.ReportMetric(float64(logStep.Milliseconds())/float64(b.N), "log-step-ms")
		})
	}
}

// fillLogs100k inserts 100,000 finished log rows with realistic messages,
// 1,000 per statement.
func fillLogs100k(b *testing.B, s *Store) {
	b.Helper()
	msg := strings.Repeat("触发调度：<br>address：http://10.0.0.2:9999/<br>code：200<br>", 4)
	err := s.WithTx(context.Background(), func(tx *Store) error {
		for i := 0; i < 100_000; i += 1000 {
			var rows []string
			for j := i; j < i+1000; j++ {
				rows = append(rows, fmt.Sprintf("(1, 1, 'http://10.0.0.2:9999/', 'demoJobHandler', 'run-%d', '2024-05-01 10:00:00', 200, '%s', '2024-05-01 10:00:01', 200, 'ok')", j, msg))
			}
			if _, err := tx.q.ExecContext(context.Background(), "INSERT INTO xxl_job_log (job_group, job_id, executor_address, executor_handler, executor_param, trigger_time, trigger_code, trigger_msg, handle_time, handle_code, handle_msg) VALUES "+strings.Join(rows, ", ")); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		b.Fatal(err)
	}
}
