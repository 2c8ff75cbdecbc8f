package trigger

import (
	"context"
	"fmt"
	"strings"
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

// TestLogWriterIsolatesFailure: a statement failing inside a batch does not
// fail the others; they are retried one by one. MySQL only: SQLite does
// not enforce VARCHAR lengths, strict MariaDB does.
func TestLogWriterIsolatesFailure(t *testing.T) {
	forEachBackend(t, func(t *testing.T, s *schema.Store) {
		if s.Backend() != schema.MySQL {
			t.Skip("needs a database that rejects over-long values")
		}
		ctx := context.Background()
		w := newLogWriter(s, 8)
		ids := make([]int64, 4)
		for i := range ids {
			id, err := w.insert(ctx, schema.JobLog{JobGroup: 1, JobID: 1})
			if err != nil {
				t.Fatal(err)
			}
			ids[i] = id
		}
		// Flush the four updates as one batch, the third one too long.
		ops := make([]*logOp, len(ids))
		for i, id := range ids {
			sharding := "0/1"
			if i == 2 {
				sharding = strings.Repeat("9", 40) // over varchar(20)
			}
			ops[i] = &logOp{update: true, row: schema.JobLog{ID: id, TriggerCode: 200, ExecutorShardingParam: &sharding}}
		}
		w.flush(ops)
		for i, op := range ops {
			if (op.err != nil) != (i == 2) {
				t.Errorf("op %d err = %v", i, op.err)
			}
		}
		for i, id := range ids {
			row, err := s.LogLoad(ctx, id)
			if err != nil {
				t.Fatal(err)
			}
			if want := map[bool]int{true: 0, false: 200}[i == 2]; row.TriggerCode != want {
				t.Errorf("row %d trigger_code %d, want %d", i, row.TriggerCode, want)
			}
		}
	})
}
