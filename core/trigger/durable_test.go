package trigger

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/xxl-admin-go/xxl-admin-go/compat/api"
	"github.com/xxl-admin-go/xxl-admin-go/compat/schema"
	"github.com/xxl-admin-go/xxl-admin-go/internal/testsupport/storetest"
)

// testDurable holds durable triggers for a minute from the flow's clock.
func testDurable(s *schema.Store) *Durable {
	now := testNow(s)
	return &Durable{Owner: "admin-a", Lease: time.Minute, SendLease: 2 * time.Minute, Now: func() time.Time { return now }}
}

// decide stores the pending row of a child trigger of job, as the
// completer does, and returns the request that carries its claim.
func decide(t *testing.T, s *schema.Store, d *Durable, job int, source int64, seq int) Request {
	t.Helper()
	req := Request{JobID: job, Type: TypeParent, FailRetryCount: -1}
	if err := s.PendingInsert(context.Background(), []schema.PendingTrigger{d.Decision(&req, source, seq)}); err != nil {
		t.Fatal(err)
	}
	return req
}

// pendingRows reads every pending row.
func pendingRows(t *testing.T, s *schema.Store) []schema.PendingTrigger {
	t.Helper()
	rows, err := s.PendingExpired(context.Background(), time.UnixMilli(1<<62), 1000)
	if err != nil {
		t.Fatal(err)
	}
	return rows
}

// takeOver replaces a row's claim as another admin's sweeper does.
func takeOver(t *testing.T, s *schema.Store, p schema.PendingTrigger) int64 {
	t.Helper()
	claim := NewClaim()
	won, err := s.PendingClaim(context.Background(), p, claim, "admin-b", p.LeaseUntil.Add(time.Hour))
	if err != nil || !won {
		t.Fatalf("take over pending row %d: %v, %v", p.ID, won, err)
	}
	return claim
}

// TestDurableTrigger: a durable trigger is sent once, its log row written
// as any, and its pending row is gone with the result; the row went
// through the stages with its log id and executor (seen from a /run that
// reads the pending row while it is under way).
func TestDurableTrigger(t *testing.T) {
	storetest.ForEach(t, func(t *testing.T, s *schema.Store) {
		exec := newFakeExecutor(t)
		job := seedJob(t, s, jobSpec{addressList: schema.Ptr(exec.address())})
		d := testDurable(s)
		flow, _ := newTestFlow(t, s, flowOpts{durable: d})
		req := decide(t, s, d, job.ID, 900, 0)

		fired, err := flow.prepare(context.Background(), []Request{req})
		if err != nil || len(fired) != 1 {
			t.Fatalf("prepare = %d rows, %v", len(fired), err)
		}
		rows := pendingRows(t, s)
		if len(rows) != 1 || rows[0].Stage != schema.PendingLogged || rows[0].LogID != fired[0].logID ||
			rows[0].ShardTotal != 1 || !rows[0].LeaseUntil.Equal(testNow(s).Add(time.Minute).Truncate(time.Millisecond)) {
			t.Fatalf("pending after prepare = %+v, want logged with log %d", rows, fired[0].logID)
		}
		out := flow.fire(context.Background(), fired[0])
		rows = pendingRows(t, s)
		if len(rows) != 1 || rows[0].Stage != schema.PendingSending || rows[0].ExecutorAddress != exec.address() {
			t.Fatalf("pending after /run = %+v, want sending to %s", rows, exec.address())
		}
		if err := flow.record(context.Background(), []outcome{out}); err != nil {
			t.Fatal(err)
		}
		if rows = pendingRows(t, s); len(rows) != 0 {
			t.Fatalf("pending after the result = %+v, want none", rows)
		}
		logs := logsOf(t, s, job.ID)
		if len(logs) != 1 || logs[0].TriggerCode != 200 || !strings.Contains(str(logs[0].TriggerMsg), "父任务触发") {
			t.Fatalf("log rows = %+v", logs)
		}
		if n := len(exec.received()); n != 1 {
			t.Fatalf("%d /run calls, want 1", n)
		}
	})
}

// TestDurableFanOut: a durable child of a SHARDING_BROADCAST job gets a
// pending row per shard, each with its shard's log row, and each is
// deleted with its result.
func TestDurableFanOut(t *testing.T) {
	storetest.ForEach(t, func(t *testing.T, s *schema.Store) {
		execs := []*fakeExecutor{newFakeExecutor(t), newFakeExecutor(t), newFakeExecutor(t)}
		list := execs[0].address() + "," + execs[1].address() + "," + execs[2].address()
		job := seedJob(t, s, jobSpec{addressType: 1, addressList: &list, route: "SHARDING_BROADCAST"})
		d := testDurable(s)
		flow, _ := newTestFlow(t, s, flowOpts{durable: d})
		req := decide(t, s, d, job.ID, 901, 2)
		fired, err := flow.prepare(context.Background(), []Request{req})
		if err != nil || len(fired) != 3 {
			t.Fatalf("prepare = %d rows, %v", len(fired), err)
		}
		rows := pendingRows(t, s)
		if len(rows) != 3 {
			t.Fatalf("%d pending rows, want one per shard", len(rows))
		}
		claims := map[int64]bool{}
		for _, p := range rows {
			fr := fired[p.ShardIndex]
			if p.Stage != schema.PendingLogged || p.LogID != fr.logID || p.ShardTotal != 3 || p.Claim != fr.pending ||
				p.SourceLogID != 901 || p.Seq != 2 || p.Kind != "PARENT" {
				t.Errorf("pending row %+v does not match shard %d (log %d, claim %d)", p, p.ShardIndex, fr.logID, fr.pending)
			}
			claims[p.Claim] = true
		}
		if len(claims) != 3 {
			t.Errorf("the shards share claims: %v", claims)
		}
		var outs []outcome
		for _, fr := range fired {
			outs = append(outs, flow.fire(context.Background(), fr))
		}
		if err := flow.record(context.Background(), outs); err != nil {
			t.Fatal(err)
		}
		if rows := pendingRows(t, s); len(rows) != 0 {
			t.Fatalf("pending after the results = %+v", rows)
		}
		for i, e := range execs {
			if n := len(e.received()); n != 1 {
				t.Errorf("executor %d got %d /run calls, want 1", i, n)
			}
		}
	})
}

// TestDurableTakenOver: a durable trigger whose row another admin took
// over is not carried on by this one at any stage — no log row before
// prepare, no /run once prepared, no result once sent — and rows beside
// it in the same batch go on.
func TestDurableTakenOver(t *testing.T) {
	storetest.ForEach(t, func(t *testing.T, s *schema.Store) {
		ctx := context.Background()
		exec := newFakeExecutor(t)
		job := seedJob(t, s, jobSpec{addressList: schema.Ptr(exec.address())})
		d := testDurable(s)
		flow, _ := newTestFlow(t, s, flowOpts{durable: d})

		// Taken over while queued: prepare writes no log row for it, but
		// does for a plain trigger of the same batch.
		lost := decide(t, s, d, job.ID, 910, 0)
		takeOver(t, s, pendingRows(t, s)[0])
		fired, err := flow.prepare(ctx, []Request{lost, {JobID: job.ID, Type: TypeManual, FailRetryCount: -1}})
		if err != nil || len(fired) != 1 || fired[0].pending != 0 {
			t.Fatalf("prepare = %d rows (%v), want the plain trigger only", len(fired), err)
		}
		if n := len(logsOf(t, s, job.ID)); n != 1 {
			t.Fatalf("%d log rows, want 1", n)
		}
		mustRelease(t, s)

		// Taken over once prepared: nothing is sent or recorded.
		req := decide(t, s, d, job.ID, 911, 0)
		fired, err = flow.prepare(ctx, []Request{req})
		if err != nil || len(fired) != 1 {
			t.Fatal(err)
		}
		takeOver(t, s, pendingRows(t, s)[0])
		out := flow.fire(ctx, fired[0])
		if !out.abandoned {
			t.Fatalf("fire of a row taken over = %+v, want abandoned", out)
		}
		if err := flow.record(ctx, []outcome{out}); err != nil {
			t.Fatal(err)
		}
		if n := len(exec.received()); n != 0 {
			t.Fatalf("%d /run calls for rows taken over, want 0", n)
		}
		if l := logsOf(t, s, job.ID)[1]; l.TriggerCode != 0 {
			t.Fatalf("row taken over got a result: %+v", l)
		}
		mustRelease(t, s)

		// Taken over once sent: the result is the new holder's to store.
		req = decide(t, s, d, job.ID, 912, 0)
		fired, err = flow.prepare(ctx, []Request{req})
		if err != nil || len(fired) != 1 {
			t.Fatal(err)
		}
		out = flow.fire(ctx, fired[0])
		takeOver(t, s, pendingRows(t, s)[0])
		if err := flow.record(ctx, []outcome{out}); err != nil {
			t.Fatal(err)
		}
		if l := logsOf(t, s, job.ID)[2]; l.TriggerCode != 0 {
			t.Fatalf("row taken over after its /run got this admin's result: %+v", l)
		}
		if rows := pendingRows(t, s); len(rows) != 1 {
			t.Fatalf("the new holder's row was deleted: %+v", rows)
		}
	})
}

func mustRelease(t *testing.T, s *schema.Store) {
	t.Helper()
	for _, p := range pendingRows(t, s) {
		if _, err := s.PendingRelease(context.Background(), p.Claim); err != nil {
			t.Fatal(err)
		}
	}
}

// TestDurableJobGone: a durable trigger whose job was deleted meanwhile
// is dropped with its pending row, as Java drops the trigger.
func TestDurableJobGone(t *testing.T) {
	storetest.ForEach(t, func(t *testing.T, s *schema.Store) {
		d := testDurable(s)
		flow, _ := newTestFlow(t, s, flowOpts{durable: d})
		req := decide(t, s, d, 987654, 920, 0)
		fired, err := flow.prepare(context.Background(), []Request{req})
		if err != nil || len(fired) != 0 {
			t.Fatalf("prepare = %d rows, %v", len(fired), err)
		}
		if rows := pendingRows(t, s); len(rows) != 0 {
			t.Fatalf("pending rows of a gone job remain: %+v", rows)
		}
	})
}

// TestDurablePoolFull: a full pool refuses a durable trigger without a
// failed log row — its pending row stays for a sweeper — while a plain
// trigger gets its failed row as before.
func TestDurablePoolFull(t *testing.T) {
	s := openSQLite(t)
	exec := newFakeExecutor(t)
	job := seedJob(t, s, jobSpec{addressList: schema.Ptr(exec.address())})
	d := testDurable(s)
	flow, _ := newTestFlow(t, s, flowOpts{durable: d})
	pools := NewPools(PoolConfig{QueueSize: 1, DrainTimeout: 100 * time.Millisecond}, flow)
	if err := pools.Start(context.Background()); err != nil {
		t.Fatal(err)
	}
	// A fire planned for an hour from now fills the queue of one.
	if err := pools.Submit(Request{JobID: job.ID, Type: TypeCron, FailRetryCount: -1, At: time.Now().Add(time.Hour)}); err != nil {
		t.Fatal(err)
	}
	req := decide(t, s, d, job.ID, 930, 0)
	if err := pools.Submit(req); !errors.Is(err, ErrPoolFull) {
		t.Fatalf("Submit = %v, want ErrPoolFull", err)
	}
	if err := pools.Submit(Request{JobID: job.ID, Type: TypeManual, FailRetryCount: -1}); !errors.Is(err, ErrPoolFull) {
		t.Fatalf("Submit = %v, want ErrPoolFull", err)
	}
	pools.Stop()
	logs := logsOf(t, s, job.ID)
	if len(logs) != 1 || logs[0].TriggerCode != api.CodeFail || !strings.Contains(str(logs[0].TriggerMsg), "手动触发") {
		t.Fatalf("log rows = %+v, want the plain trigger's failed row only", logs)
	}
	if rows := pendingRows(t, s); len(rows) != 1 || rows[0].Stage != schema.PendingDecided {
		t.Fatalf("pending rows = %+v, want the durable one, still decided", rows)
	}
}
