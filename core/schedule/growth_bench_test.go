package schedule

import (
	"context"
	"testing"
	"time"

	"github.com/xxl-admin-go/xxl-admin-go/compat/schema"
	"github.com/xxl-admin-go/xxl-admin-go/internal/testsupport/growthdata"
)

// BenchmarkGrowthPreRead (issue 27 §3) measures one round's pre-read on
// MariaDB, under the schedule lock, with 1,000 jobs due among
// XXL_BENCH_GROWTH_JOBS (default 1,000,000) and among 1,024: Java's
// locking scan against the due index's reads by key; and the index's full
// read, which runs every DefaultIndexRefresh. Off unless
// XXL_BENCH_GROWTH_ROWS is set (see growthdata).
func BenchmarkGrowthPreRead(b *testing.B) {
	_, jobs := growthdata.Sizes(b)
	ctx := context.Background()
	now := time.Now()
	const due = 1000
	for _, size := range []struct {
		name string
		jobs int
	}{{"small", 1024}, {"large", jobs}} {
		db := growthdata.MySQL(b, schema.Gen2)
		built := time.Now()
		n := db.Jobs(b, size.jobs, due, now)
		b.Logf("%d jobs built in %s", n, time.Since(built).Round(time.Second))
		st := db.Store
		maxNext := now.UnixMilli() + preReadMs
		round := func(b *testing.B, read func(tx *schema.Store) ([]schema.JobInfo, error)) {
			for b.Loop() {
				var got int
				if err := st.WithScheduleLock(ctx, func(tx *schema.Store) error {
					j, err := read(tx)
					got = len(j)
					return err
				}); err != nil {
					b.Fatal(err)
				}
				if got != due {
					b.Fatalf("read %d jobs, want %d", got, due)
				}
			}
		}
		b.Run(size.name+"/java", func(b *testing.B) {
			round(b, func(tx *schema.Store) ([]schema.JobInfo, error) { return tx.JobScheduleQuery(ctx, maxNext, 6000) })
		})
		x := newDueIndex(1, time.Hour)
		if err := x.prepare(ctx, st, now); err != nil {
			b.Fatal(err)
		}
		b.Run(size.name+"/index", func(b *testing.B) {
			round(b, func(tx *schema.Store) ([]schema.JobInfo, error) { return x.read(ctx, tx, maxNext, 6000) })
		})
		b.Run(size.name+"/index-full-read", func(b *testing.B) {
			for b.Loop() {
				x.readAt = time.Time{}
				if err := x.prepare(ctx, st, now); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
