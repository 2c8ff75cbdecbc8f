package trigger

import (
	"context"
	"fmt"
	"sync"
	"testing"

	"github.com/xxl-admin-go/xxl-admin-go/compat/schema"
)

// TestConcurrentTriggersBatched: triggers running at once share commits
// through the log writer, yet every row is written exactly as alone and
// exists (with the id sent as logId) when its /run arrives (scheduler.md
// §5.1 order).
func TestConcurrentTriggersBatched(t *testing.T) {
	forEachBackend(t, func(t *testing.T, s *schema.Store) {
		exec := newFakeExecutor(t)
		const n = 40
		jobs := make([]schema.JobInfo, n)
		for i := range jobs {
			jobs[i] = seedJob(t, s, jobSpec{addressList: schema.Ptr(exec.address()), param: schema.Ptr(fmt.Sprint("p", i))})
		}
		flow, _ := newTestFlow(t, s, flowOpts{})
		var wg sync.WaitGroup
		errs := make(chan error, n)
		for _, job := range jobs {
			wg.Go(func() {
				errs <- flow.Trigger(context.Background(), Request{JobID: job.ID, Type: TypeCron, FailRetryCount: -1})
			})
		}
		wg.Wait()
		close(errs)
		for err := range errs {
			if err != nil {
				t.Fatal(err)
			}
		}
		byLog := map[int64]int{}
		for _, p := range exec.received() {
			byLog[p.LogID] = p.JobID
		}
		for i, job := range jobs {
			rows := logsOf(t, s, job.ID)
			if len(rows) != 1 {
				t.Fatalf("job %d: %d rows", job.ID, len(rows))
			}
			r := rows[0]
			if r.TriggerCode != 200 || str(r.ExecutorParam) != fmt.Sprint("p", i) || byLog[r.ID] != job.ID ||
				str(r.TriggerMsg) != fmt.Sprintf(zhSuccess, exec.address()) {
				t.Errorf("job %d row %+v, executor saw log %d for job %d", job.ID, r, r.ID, byLog[r.ID])
			}
		}
		stmts, commits := flow.WriteStats()
		if stmts != 2*n {
			t.Errorf("%d log statements for %d triggers, want %d", stmts, n, 2*n)
		}
		t.Logf("%d statements in %d commits", stmts, commits)
	})
}
