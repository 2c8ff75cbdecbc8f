package trigger

import (
	"context"
	"fmt"
	"os"
	"testing"
	"time"

	"github.com/rs/zerolog"

	"github.com/xxl-admin-go/xxl-admin-go/compat/api"
	"github.com/xxl-admin-go/xxl-admin-go/compat/i18n"
	"github.com/xxl-admin-go/xxl-admin-go/compat/schema"
	"github.com/xxl-admin-go/xxl-admin-go/internal/testsupport/minexec"
	"github.com/xxl-admin-go/xxl-admin-go/internal/testsupport/procstat"
	"github.com/xxl-admin-go/xxl-admin-go/internal/testsupport/storetest"
)

var benchBackends = map[string]func(b *testing.B) *schema.Store{
	"sqlite": func(b *testing.B) *schema.Store { return openSQLite(b) },
	"mysql": func(b *testing.B) *schema.Store {
		url, user, pass := storetest.MySQLURLZone(b, testZone)
		return storetest.Open(b, url, user, pass)
	},
}

// BenchmarkFlowTrigger measures Flow.Trigger, one trigger at a time end to
// end (job read, group from the cache, log insert, one /run to an
// in-process fake executor over HTTP, log update) on SQLite and, with
// XXL_TEST_MYSQL_DSN set, MariaDB/MySQL.
func BenchmarkFlowTrigger(b *testing.B) {
	for _, backend := range []string{"sqlite", "mysql"} {
		b.Run(backend, func(b *testing.B) {
			s := benchBackends[backend](b)
			exec := newFakeExecutor(b)
			job := seedJob(b, s, jobSpec{addressList: schema.Ptr(exec.address()), param: schema.Ptr("x")})
			flow, _ := newTestFlow(b, s, flowOpts{})
			req := Request{JobID: job.ID, Type: TypeCron, FailRetryCount: -1}
			ctx := context.Background()
			start := time.Now()
			for b.Loop() {
				if err := flow.Trigger(ctx, req); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(b.N)/time.Since(start).Seconds(), "triggers/s")
		})
	}
}

// BenchmarkPools measures the pools' pipeline: b.N triggers of 1,000 jobs
// submitted at once (as a schedule second hands them over), prepared and
// recorded many per statement, each fired over HTTP at an in-process fake
// executor. It reports triggers/s and log rows per statement.
func BenchmarkPools(b *testing.B) {
	for _, backend := range []string{"sqlite", "mysql"} {
		b.Run(backend, func(b *testing.B) {
			s := benchBackends[backend](b)
			exec := newFakeExecutor(b)
			var jobs []int
			for range 1000 {
				jobs = append(jobs, seedJob(b, s, jobSpec{addressList: schema.Ptr(exec.address()), param: schema.Ptr("x")}).ID)
			}
			client := api.NewClient(api.ClientConfig{MaxIdleConnsPerHost: 256})
			b.Cleanup(client.CloseIdleConnections)
			flow := NewFlow(FlowConfig{Store: s, Client: client, Texts: i18n.Load("zh_CN"), AdminAddress: "10.0.0.2", Log: zerolog.Nop()})
			p := NewPools(PoolConfig{QueueSize: 1 << 20, Log: zerolog.Nop()}, flow)
			if err := p.Start(context.Background()); err != nil {
				b.Fatal(err)
			}
			start := time.Now()
			for i := range b.N {
				if err := p.Submit(Request{JobID: jobs[i%len(jobs)], Type: TypeCron, FailRetryCount: -1}); err != nil {
					b.Fatal(err)
				}
			}
			p.Stop()
			elapsed := time.Since(start)
			rows, stmts := flow.WriteStats()
			b.ReportMetric(float64(b.N)/elapsed.Seconds(), "triggers/s")
			b.ReportMetric(float64(rows)/float64(stmts), "rows/statement")
		})
	}
}

// BenchmarkFire measures the fire stage of one prepared row, the admin's
// work per trigger between the database statements: route, /run body,
// the call (to a minimal executor on loopback that answers as the Java
// executor does, so allocs/op are the admin's), and the trigger_msg, in
// both layouts. The row is prepared once on SQLite and fired b.N times.
// cpu-ns/op is the process's CPU time per fire (the executor's few
// microseconds included): on a loaded box the wall time per op is mostly
// the wait for the other side's wake-up.
func BenchmarkFire(b *testing.B) {
	for _, layout := range []Layout{Layout242, Layout342} {
		b.Run(fmt.Sprintf("layout=%d", layout), func(b *testing.B) {
			s := openSQLite(b)
			addr := minexec.Start(b, minexec.Success)
			job := seedJob(b, s, jobSpec{addressList: schema.Ptr(addr), param: schema.Ptr("")})
			flow, _ := newTestFlow(b, s, flowOpts{layout: layout})
			ctx := context.Background()
			fired, err := flow.prepare(ctx, []Request{{JobID: job.ID, Type: TypeCron, FailRetryCount: -1}})
			if err != nil || len(fired) != 1 {
				b.Fatalf("prepare: %v, %d rows", err, len(fired))
			}
			b.ReportAllocs()
			cpu0 := processCPU()
			for b.Loop() {
				if out := flow.fire(ctx, fired[0]); out.code != api.CodeSuccess {
					b.Fatalf("code %d: %s", out.code, str(out.row.TriggerMsg))
				}
			}
			b.ReportMetric(float64((processCPU()-cpu0).Nanoseconds())/float64(b.N), "cpu-ns/op")
		})
	}
}

// processCPU is this process's CPU time so far (10 ms resolution: run
// enough iterations), 0 where /proc is not readable.
func processCPU() time.Duration {
	d, _ := procstat.CPUTime(os.Getpid())
	return d
}
