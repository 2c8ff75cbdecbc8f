package schedule

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/xxl-admin-go/xxl-admin-go/compat/schema"
	"github.com/xxl-admin-go/xxl-admin-go/core/clock"
)

// BenchmarkRound measures one pre-read round (lock, query, decisions,
// write-back, commit, ring pushes) with n jobs all due, on SQLite and, with
// XXL_TEST_MYSQL_DSN / XXL_TEST_POSTGRES_DSN, MariaDB and PostgreSQL. The fake clock advances one second per
// round, so the FIX_RATE 1 s jobs stay due: every round is the full
// case-C path. Statements per round: the lock SELECT, the pre-read SELECT
// and the write-back: on MySQL and PostgreSQL one batched UPDATE per 200
// jobs, on SQLite
// one prepared UPDATE per job (Java: one UPDATE per job everywhere).
func BenchmarkRound(b *testing.B) {
	backends := []struct {
		name  string
		stmts func(n int) int
		open  func(b *testing.B) opener
	}{
		{"sqlite", func(n int) int { return 3 + n }, func(b *testing.B) opener { return sqliteDB(b) }},
		{"mysql", func(n int) int { return 2 + (n+199)/200 }, func(b *testing.B) opener { return mysqlDB(b) }},
		{"postgres", func(n int) int { return 2 + (n+199)/200 }, func(b *testing.B) opener { return postgresDB(b) }},
	}
	for _, be := range backends {
		for _, n := range []int{1000, 5000, 10000} {
			b.Run(fmt.Sprintf("%s/jobs=%d", be.name, n), func(b *testing.B) {
				st := be.open(b)(b)
				err := st.WithTx(context.Background(), func(tx *schema.Store) error {
					for i := range n {
						addJob(b, tx, jobSpec{typ: "FIX_RATE", conf: "1", status: 1, next: ms(time.Second + time.Duration(i%1000)*time.Millisecond)})
					}
					return nil
				})
				if err != nil {
					b.Fatal(err)
				}
				clk := clock.NewFake(t0)
				s, err := New(Config{Store: st, Submit: &recorder{}, PreReadCount: n, Loc: time.UTC, Clock: clk})
				if err != nil {
					b.Fatal(err)
				}
				b.ResetTimer()
				for b.Loop() {
					read, err := s.round(context.Background())
					if err != nil || read != n {
						b.Fatalf("round read %d, %v; want %d", read, err, n)
					}
					b.StopTimer()
					clk.Advance(time.Second)
					s.ring = ring{}
					b.StartTimer()
				}
				perRound := b.Elapsed().Seconds() / float64(b.N)
				b.ReportMetric(perRound*1e3, "ms/round")
				b.ReportMetric(perRound*1e6/float64(n), "µs/job")
				b.ReportMetric(float64(be.stmts(n))/float64(n), "stmts/job")
			})
		}
	}
}

// BenchmarkRingTick measures one tick of the ring holding n fires of one
// second (the FIX_RATE 1 s jobs of bench-sched): the push of a round and
// the take of the tick, which runs PrepareLead before the second and so
// delays that second's preparation by its own length.
func BenchmarkRingTick(b *testing.B) {
	for _, n := range []int{1000, 8000} {
		b.Run(fmt.Sprintf("fires=%d", n), func(b *testing.B) {
			const second = 1_800_000_000
			b.ReportAllocs()
			for b.Loop() {
				var r ring
				for i := range n {
					r.push(entry{jobID: i + 1, planned: second*1000 + int64(i%7), misfire: "DO_NOTHING"})
				}
				if got := len(r.take(second)); got != n {
					b.Fatalf("took %d, want %d", got, n)
				}
			}
		})
	}
}
