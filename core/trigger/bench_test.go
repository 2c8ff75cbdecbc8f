package trigger

import (
	"context"
	"testing"
	"time"

	"github.com/xxl-admin-go/xxl-admin-go/compat/schema"
	"github.com/xxl-admin-go/xxl-admin-go/internal/storetest"
)

// BenchmarkFlowTrigger measures Flow.Trigger end to end (2 reads: job and
// group; 2 log writes; one /run to an in-process fake executor) on SQLite
// and, with XXL_TEST_MYSQL_DSN set, MariaDB/MySQL. It reports triggers/s,
// log writes and commits per trigger; "parallel" runs 64 triggers at a
// time so the log writer can share commits, "batch1" turns that off.
func BenchmarkFlowTrigger(b *testing.B) {
	backends := map[string]func(b *testing.B) *schema.Store{
		"sqlite": func(b *testing.B) *schema.Store { return openSQLite(b) },
		"mysql": func(b *testing.B) *schema.Store {
			url, user, pass := storetest.MySQLURLZone(b, testZone)
			return storetest.Open(b, url, user, pass)
		},
	}
	for _, backend := range []string{"sqlite", "mysql"} {
		for _, mode := range []struct {
			name     string
			parallel bool
			maxBatch int
		}{{"serial", false, 0}, {"parallel", true, 0}, {"parallel-batch1", true, 1}} {
			b.Run(backend+"/"+mode.name, func(b *testing.B) {
				s := backends[backend](b)
				exec := newFakeExecutor(b)
				job := seedJob(b, s, jobSpec{addressList: schema.Ptr(exec.address()), param: schema.Ptr("x")})
				flow, _ := newTestFlow(b, s, flowOpts{maxBatch: mode.maxBatch})
				req := Request{JobID: job.ID, Type: TypeCron, FailRetryCount: -1}
				ctx := context.Background()
				start := time.Now()
				b.ResetTimer()
				if mode.parallel {
					b.SetParallelism(32) // 32 goroutines per CPU
					b.RunParallel(func(pb *testing.PB) {
						for pb.Next() {
							if err := flow.Trigger(ctx, req); err != nil {
								b.Error(err)
								return
							}
						}
					})
				} else {
					for range b.N {
						if err := flow.Trigger(ctx, req); err != nil {
							b.Fatal(err)
						}
					}
				}
				elapsed := time.Since(start)
				b.StopTimer()
				stmts, commits := flow.WriteStats()
				b.ReportMetric(float64(b.N)/elapsed.Seconds(), "triggers/s")
				b.ReportMetric(float64(stmts)/float64(b.N), "writes/trigger")
				b.ReportMetric(float64(commits)/float64(b.N), "commits/trigger")
				b.ReportMetric(0, "ns/op")
			})
		}
	}
}
