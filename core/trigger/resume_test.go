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

// leftLogged prepares a durable trigger of job as an admin that then
// stopped would leave it (its log row written, nothing sent) and takes the
// row over; it returns the row as read and the new claim.
func leftLogged(t *testing.T, s *schema.Store, flow *Flow, job int, source int64) (schema.PendingTrigger, int64) {
	t.Helper()
	req := decide(t, s, flow.leases.Durable, job, source, 0)
	if fired, err := flow.prepare(context.Background(), []Request{req}); err != nil || len(fired) != 1 {
		t.Fatalf("prepare = %d rows, %v", len(fired), err)
	}
	rows := pendingRows(t, s)
	if len(rows) != 1 {
		t.Fatalf("%d pending rows", len(rows))
	}
	return rows[0], takeOver(t, s, rows[0])
}

// TestResumeLogged: a row whose /run never left is sent once, routed,
// with its own log id and trigger time, and finished as a trigger of its
// type; its pending row goes with the result.
func TestResumeLogged(t *testing.T) {
	storetest.ForEach(t, func(t *testing.T, s *schema.Store) {
		exec := newFakeExecutor(t)
		job := seedJob(t, s, jobSpec{addressList: schema.Ptr(exec.address())})
		flow, _ := newTestFlow(t, s, flowOpts{durable: testDurable(s)})
		p, claim := leftLogged(t, s, flow, job.ID, 940)
		at := testNow(s).Truncate(time.Second)
		res, err := flow.Resume(context.Background(), ResumptionOf(p, claim, at))
		if err != nil || res.Code != api.CodeSuccess {
			t.Fatalf("Resume = %+v, %v", res, err)
		}
		runs := exec.received()
		if len(runs) != 1 || runs[0].LogID != p.LogID || runs[0].LogDateTime != at.UnixMilli() {
			t.Fatalf("/run calls = %+v, want one for log %d at %d", runs, p.LogID, at.UnixMilli())
		}
		logs := logsOf(t, s, job.ID)
		if len(logs) != 1 || logs[0].TriggerCode != 200 || str(logs[0].ExecutorAddress) != exec.address() ||
			!strings.HasPrefix(str(logs[0].TriggerMsg), "任务触发类型：父任务触发") {
			t.Fatalf("log row = %+v", logs)
		}
		if rows := pendingRows(t, s); len(rows) != 0 {
			t.Fatalf("pending rows remain: %+v", rows)
		}
	})
}

// TestResumeSending: a row that may have been sent goes again to the
// executor it went to, whatever the route says; an answer known otherwise
// is recorded without a /run; an executor's refusal as a repeat means it
// holds the first /run and is recorded as sent.
func TestResumeSending(t *testing.T) {
	storetest.ForEach(t, func(t *testing.T, s *schema.Store) {
		ctx := context.Background()
		first, second := newFakeExecutor(t), newFakeExecutor(t)
		list := first.address() + "," + second.address()
		job := seedJob(t, s, jobSpec{addressType: 1, addressList: &list}) // FIRST routes to first
		flow, _ := newTestFlow(t, s, flowOpts{durable: testDurable(s)})
		at := testNow(s).Truncate(time.Second)

		p, claim := leftLogged(t, s, flow, job.ID, 950)
		r := ResumptionOf(p, claim, at)
		r.Address = second.address()
		if _, err := flow.Resume(ctx, r); err != nil {
			t.Fatal(err)
		}
		if len(first.received()) != 0 || len(second.received()) != 1 {
			t.Fatalf("/run calls: first %d, second %d; want the second only", len(first.received()), len(second.received()))
		}

		p, claim = leftLogged(t, s, flow, job.ID, 951)
		r = ResumptionOf(p, claim, at)
		r.Address, r.Answer = second.address(), &api.ReturnT[string]{Code: api.CodeSuccess, Msg: schema.Ptr("the executor has it")}
		if _, err := flow.Resume(ctx, r); err != nil {
			t.Fatal(err)
		}
		if len(second.received()) != 1 {
			t.Fatalf("a known answer sent a /run")
		}
		if l := logsOf(t, s, job.ID)[1]; l.TriggerCode != 200 || !strings.Contains(str(l.TriggerMsg), "the executor has it") {
			t.Fatalf("row with a known answer = %+v", l)
		}

		second.runReply = `{"code":500,"msg":"repeat trigger job, logId:7"}`
		p, claim = leftLogged(t, s, flow, job.ID, 952)
		r = ResumptionOf(p, claim, at)
		r.Address = second.address()
		res, err := flow.Resume(ctx, r)
		if err != nil || res.Code != api.CodeSuccess {
			t.Fatalf("Resume against a repeat = %+v, %v", res, err)
		}
		if l := logsOf(t, s, job.ID)[2]; l.TriggerCode != 200 || !strings.Contains(str(l.TriggerMsg), "already holds this run") {
			t.Fatalf("row refused as a repeat = %+v", l)
		}
		if rows := pendingRows(t, s); len(rows) != 0 {
			t.Fatalf("pending rows remain: %+v", rows)
		}
	})
}

// TestResumeJobGone: a row whose job was deleted reports ErrJobGone and
// sends nothing.
func TestResumeJobGone(t *testing.T) {
	s := openSQLite(t)
	exec := newFakeExecutor(t)
	job := seedJob(t, s, jobSpec{addressList: schema.Ptr(exec.address())})
	flow, _ := newTestFlow(t, s, flowOpts{durable: testDurable(s)})
	p, claim := leftLogged(t, s, flow, job.ID, 960)
	if _, err := s.JobDelete(context.Background(), job.ID); err != nil {
		t.Fatal(err)
	}
	if _, err := flow.Resume(context.Background(), ResumptionOf(p, claim, testNow(s))); !errors.Is(err, ErrJobGone) {
		t.Fatalf("Resume = %v, want ErrJobGone", err)
	}
	if n := len(exec.received()); n != 0 {
		t.Fatalf("%d /run calls", n)
	}
}
