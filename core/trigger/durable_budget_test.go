package trigger

import (
	"context"
	"sync/atomic"
	"testing"
	"time"

	"github.com/xxl-admin-go/xxl-admin-go/compat/schema"
	"github.com/xxl-admin-go/xxl-admin-go/internal/testsupport/storetest"
)

// TestDurableSendWithinLease: a durable /run must end while its row is
// this admin's (a sweeper taking the row over sends it again when the
// executor has no log of it). When marking the row for sending took
// longer than the call limit (the send lease less the lease), the /run is
// not sent — the row is left at its stage for whoever takes it over —
// instead of a /run that could outlive the lease.
func TestDurableSendWithinLease(t *testing.T) {
	storetest.ForEach(t, func(t *testing.T, s *schema.Store) {
		ctx := context.Background()
		exec := newFakeExecutor(t)
		job := seedJob(t, s, jobSpec{addressList: schema.Ptr(exec.address())})
		start := testNow(s)
		var step atomic.Int64 // each read of the clock advances it by step
		var ticks atomic.Int64
		d := &Durable{Owner: "admin-a", Lease: time.Minute, SendLease: time.Minute + 10*time.Second,
			Now: func() time.Time { return start.Add(time.Duration(ticks.Add(1) * step.Load())) }}
		flow, _ := newTestFlow(t, s, flowOpts{durable: d})
		req := decide(t, s, d, job.ID, 930, 0)
		fired, err := flow.prepare(ctx, []Request{req})
		if err != nil || len(fired) != 1 {
			t.Fatalf("prepare = %d rows, %v", len(fired), err)
		}
		step.Store(int64(11 * time.Second)) // the mark "takes" 11 s of the 10 s call
		out := flow.fire(ctx, fired[0])
		if !out.abandoned {
			t.Fatalf("fire after a mark longer than the call limit = %+v, want abandoned (not sent)", out)
		}
		if n := len(exec.received()); n != 0 {
			t.Fatalf("%d /run calls, want none", n)
		}
		if rows := pendingRows(t, s); len(rows) != 1 || rows[0].Stage != schema.PendingSending {
			t.Fatalf("pending rows %+v, want the row left at sending for a takeover", rows)
		}
		mustRelease(t, s)

		// A mark within the limit sends as before.
		step.Store(int64(time.Second))
		req = decide(t, s, d, job.ID, 931, 0)
		if fired, err = flow.prepare(ctx, []Request{req}); err != nil || len(fired) != 1 {
			t.Fatalf("prepare = %d rows, %v", len(fired), err)
		}
		if out := flow.fire(ctx, fired[0]); out.abandoned {
			t.Fatalf("fire = %+v, want sent", out)
		}
		if n := len(exec.received()); n != 1 {
			t.Fatalf("%d /run calls, want 1", n)
		}
	})
}
