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
)

// BenchmarkPoolsDurable is BenchmarkPools with child triggers: "plain" as
// with xxl.job.durable-triggers=false, "durable" each stored as a pending
// row first (500 per statement, as a callback POST decides them) and
// moved along by the flow (log rows and pending rows in one transaction,
// the executor stored before /run, result and deletion in one). It
// reports triggers/s, the price of surviving a crash.
func BenchmarkPoolsDurable(b *testing.B) {
	for _, backend := range []string{"sqlite", "mysql"} {
		for _, durable := range []bool{false, true} {
			b.Run(fmt.Sprintf("%s/%s", backend, map[bool]string{false: "plain", true: "durable"}[durable]), func(b *testing.B) {
				s := benchBackends[backend](b)
				exec := newFakeExecutor(b)
				var jobs []int
				for range 1000 {
					jobs = append(jobs, seedJob(b, s, jobSpec{addressList: schema.Ptr(exec.address()), param: schema.Ptr("x")}).ID)
				}
				client := api.NewClient(api.ClientConfig{MaxIdleConnsPerHost: 256})
				b.Cleanup(client.CloseIdleConnections)
				d := &Durable{Owner: "bench", Lease: time.Hour, SendLease: time.Hour}
				flow := NewFlow(FlowConfig{Store: s, Client: client, Texts: i18n.Load("zh_CN"), AdminAddress: "10.0.0.2",
					Log: zerolog.New(os.Stderr).Level(zerolog.InfoLevel), Durable: d})
				p := NewPools(PoolConfig{QueueSize: 1 << 20, Log: zerolog.Nop()}, flow)
				if err := p.Start(context.Background()); err != nil {
					b.Fatal(err)
				}
				ctx := context.Background()
				start := time.Now()
				for i := 0; i < b.N; i += 500 {
					reqs := make([]Request, min(500, b.N-i))
					var rows []schema.PendingTrigger
					for k := range reqs {
						reqs[k] = Request{JobID: jobs[(i+k)%len(jobs)], Type: TypeParent, FailRetryCount: -1}
						if durable {
							rows = append(rows, d.Decision(&reqs[k], int64(i+k), 0))
						}
					}
					if err := s.PendingInsert(ctx, rows); err != nil {
						b.Fatal(err)
					}
					for _, r := range reqs {
						if err := p.Submit(r); err != nil {
							b.Fatal(err)
						}
					}
				}
				// Every /run sent, then the stop writes the last results
				// (Stop alone would drop what is queued after 10 s).
				deadline := time.Now().Add(2 * time.Minute)
				for len(exec.received()) < b.N {
					if time.Now().After(deadline) {
						left, _ := s.PendingExpired(ctx, time.UnixMilli(1<<62), 20)
						b.Fatalf("%d of %d triggers sent after 2 minutes; pending rows %+v; pools %+v", len(exec.received()), b.N, left, p.Stats())
					}
					time.Sleep(time.Millisecond)
				}
				p.Stop()
				b.ReportMetric(float64(b.N)/time.Since(start).Seconds(), "triggers/s")
				if n, err := s.PendingCount(ctx); err != nil || n != 0 {
					b.Fatalf("%d pending rows left (%v)", n, err)
				}
			})
		}
	}
}
