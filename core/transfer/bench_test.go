package transfer

import (
	"context"
	"fmt"
	"os"
	"strconv"
	"testing"

	"github.com/xxl-admin-go/xxl-admin-go/compat/schema"
	"github.com/xxl-admin-go/xxl-admin-go/internal/testsupport/storetest"
)

// BenchmarkImport imports N jobs of one group into a new database
// (XXL_BENCH_IMPORT_JOBS, default 500): the time the schedule lock is held.
func BenchmarkImport(b *testing.B) {
	n := 500
	if v, err := strconv.Atoi(os.Getenv("XXL_BENCH_IMPORT_JOBS")); err == nil {
		n = v
	}
	d := doc()
	for i := range n {
		j := job(fmt.Sprintf("job %d", i))
		if i > 0 {
			j.ChildJobs = []Ref{{Group: "app-orders", ExecutorHandler: "h", JobDesc: fmt.Sprintf("job %d", i-1)}}
		}
		d.Jobs = append(d.Jobs, j)
	}
	for _, backend := range []string{"sqlite", "mysql"} {
		b.Run(fmt.Sprintf("%s/jobs=%d", backend, n), func(b *testing.B) {
			for b.Loop() {
				b.StopTimer()
				var s *schema.Store
				if backend == "sqlite" {
					s = storetest.SQLite(b)
				} else {
					s = storetest.MySQL(b)
				}
				b.StartTimer()
				if _, err := Import(context.Background(), service(s), d, ImportOptions{Mode: Merge, Access: admin}); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
