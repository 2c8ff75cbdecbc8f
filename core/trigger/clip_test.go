package trigger

import (
	"context"
	"strings"
	"testing"

	"github.com/xxl-admin-go/xxl-admin-go/compat/schema"
	"github.com/xxl-admin-go/xxl-admin-go/internal/testsupport/storetest"
)

// TestLongParamOn3x: 3.4.0 widened xxl_job_log.executor_param to text
// (schema-3.4.2.sql), so on a 3.x database a "run once" param longer than
// 2.x's varchar(512) is logged whole, as the 3.4.2 admin logs it; both the
// trigger's row and a rejected trigger's row. (2.x: TestTriggerOverrides.)
func TestLongParamOn3x(t *testing.T) {
	storetest.ForEach3(t, func(t *testing.T, s *schema.Store) {
		exec := newFakeExecutor(t)
		flow, _ := newTestFlow(t, s, flowOpts{layout: Layout342})
		ctx := context.Background()
		long := strings.Repeat("参", 600)

		job := seedJob(t, s, jobSpec{addressList: schema.Ptr(exec.address())})
		if err := flow.Trigger(ctx, Request{JobID: job.ID, Type: TypeManual, FailRetryCount: -1, ExecutorParam: &long}); err != nil {
			t.Fatal(err)
		}
		if row := logsOf(t, s, job.ID)[0]; row.TriggerCode != 200 || str(row.ExecutorParam) != long {
			t.Errorf("triggered: code %d, stored param %d chars, want 600", row.TriggerCode, len([]rune(str(row.ExecutorParam))))
		}

		rejected := seedJob(t, s, jobSpec{addressList: schema.Ptr(exec.address())})
		req := Request{JobID: rejected.ID, Type: TypeManual, FailRetryCount: -1, ExecutorParam: &long}
		if err := flow.recordRejected(ctx, []rejection{{req: req, reason: "pool full"}}); err != nil {
			t.Fatal(err)
		}
		if row := logsOf(t, s, rejected.ID)[0]; row.TriggerCode != 500 || str(row.ExecutorParam) != long {
			t.Errorf("rejected: code %d, stored param %d chars, want 600", row.TriggerCode, len([]rune(str(row.ExecutorParam))))
		}
	})
}

func TestClipParamTextLimit(t *testing.T) {
	flow, _ := newTestFlow(t, storetest.OpenGen(t, schema.Gen3, storetest.SQLiteURL(t, ""), "", ""), flowOpts{})
	huge := strings.Repeat("é", 40000) // 80,000 bytes
	got := flow.clipParam(&huge)
	if len(*got) != textColumnBytes-1 || !strings.HasPrefix(huge, *got) {
		t.Errorf("clipped to %d bytes, want %d on a character boundary", len(*got), textColumnBytes-1)
	}
}
