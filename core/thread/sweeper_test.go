package thread

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/rs/zerolog"

	"github.com/xxl-admin-go/xxl-admin-go/compat/api"
	"github.com/xxl-admin-go/xxl-admin-go/compat/i18n"
	"github.com/xxl-admin-go/xxl-admin-go/compat/schema"
	"github.com/xxl-admin-go/xxl-admin-go/core/trigger"
	"github.com/xxl-admin-go/xxl-admin-go/internal/testsupport/fakeexec"
	"github.com/xxl-admin-go/xxl-admin-go/internal/testsupport/storetest"
	"github.com/xxl-admin-go/xxl-admin-go/internal/testsupport/testfactory"
)

// syncDoor runs each submitted trigger at once through the flow, so a
// sweep has finished it when Pass returns.
type syncDoor struct{ flow *trigger.Flow }

func (d syncDoor) Submit(req trigger.Request) error {
	return d.flow.Trigger(context.Background(), req)
}

// sweepRig is one database, one executor and the admin that sweeps; the
// rows under test are written as an admin that stopped leaves them.
type sweepRig struct {
	t      *testing.T
	s      *schema.Store
	exec   *fakeexec.Executor
	client *api.Client
	job    schema.JobInfo
	live   *trigger.Durable
	flow   *trigger.Flow
	source int64 // next source log id
}

func newSweepRig(t *testing.T, s *schema.Store) *sweepRig {
	exec := fakeexec.Start(fakeexec.Config{})
	t.Cleanup(exec.Close)
	client := api.NewClient(api.ClientConfig{})
	t.Cleanup(client.CloseIdleConnections)
	group := testfactory.Group(t, s, testfactory.GroupOpts{AddressType: 1, AddressList: schema.Ptr(exec.Address())})
	job := testfactory.Job(t, s, testfactory.JobOpts{Group: group.ID, Handler: "h"})
	live := &trigger.Durable{Owner: "admin-live", Lease: time.Minute, SendLease: 2 * time.Minute}
	flow := trigger.NewFlow(trigger.FlowConfig{Store: s, Client: client, Texts: i18n.Load("en"), Log: zerolog.Nop(), Durable: live})
	return &sweepRig{t: t, s: s, exec: exec, client: client, job: job, live: live, flow: flow, source: 1000}
}

func (r *sweepRig) sweeper(owner string, giveUp time.Duration) *Sweeper {
	d := *r.live
	d.Owner = owner
	return NewSweeper(SweeperConfig{Store: r.s, Flow: r.flow, Trigger: syncDoor{r.flow}, Executor: r.client, Durable: &d,
		GiveUp: giveUp, Log: zerolog.Nop()})
}

// left writes what an admin that stopped leaves of a child trigger of the
// rig's job at stage: its pending row, expired, and from PendingLogged on
// a log row with no result (handle is its handle code; sent says whether
// its /run reached the executor, held there when queued).
func (r *sweepRig) left(stage int, address string, handle int) schema.PendingTrigger {
	r.t.Helper()
	ctx := context.Background()
	r.source++
	now := time.Now()
	p := schema.PendingTrigger{Claim: trigger.NewClaim(), Owner: "admin-dead", LeaseUntil: now.Add(-time.Second),
		Stage: stage, Kind: string(trigger.TypeParent), JobID: r.job.ID, SourceLogID: r.source, FailRetryCount: -1,
		DecidedAt: now.Add(-time.Minute)}
	if stage >= schema.PendingLogged {
		at := now.Truncate(time.Second)
		id, err := r.s.LogSave(ctx, schema.JobLog{JobGroup: r.job.JobGroup, JobID: r.job.ID, TriggerTime: &at, HandleCode: handle})
		if err != nil {
			r.t.Fatal(err)
		}
		p.LogID, p.ShardTotal = id, 1
	}
	if stage == schema.PendingSending {
		p.ExecutorAddress = address
	}
	if err := r.s.PendingInsert(ctx, []schema.PendingTrigger{p}); err != nil {
		r.t.Fatal(err)
	}
	return p
}

// sendFirst delivers the /run the stopped admin sent before it stopped.
func (r *sweepRig) sendFirst(p schema.PendingTrigger) {
	r.t.Helper()
	l, err := r.s.LogLoad(context.Background(), p.LogID)
	if err != nil {
		r.t.Fatal(err)
	}
	res := r.client.Run(context.Background(), r.exec.Address(), api.TriggerParam{JobID: r.job.ID, LogID: p.LogID,
		LogDateTime: l.TriggerTime.UnixMilli(), GlueType: "BEAN", BroadcastTotal: 1})
	if !res.OK() {
		r.t.Fatalf("first /run: %+v", res)
	}
}

func (r *sweepRig) pass(w *Sweeper) {
	r.t.Helper()
	if err := w.Pass(context.Background()); err != nil {
		r.t.Fatal(err)
	}
}

func (r *sweepRig) log(id int64) schema.JobLog {
	r.t.Helper()
	l, err := r.s.LogLoad(context.Background(), id)
	if err != nil {
		r.t.Fatal(err)
	}
	return l
}

func (r *sweepRig) pending() []schema.PendingTrigger {
	r.t.Helper()
	rows, err := r.s.PendingExpired(context.Background(), time.UnixMilli(1<<62), 1000)
	if err != nil {
		r.t.Fatal(err)
	}
	return rows
}

// TestSweepCrashPoints leaves a child trigger at every point an admin can
// stop at between deciding it and storing its result, and checks that one
// sweep of another admin sees it through exactly once, counted at the
// executor: it is started once, its log row finished, its pending row gone.
func TestSweepCrashPoints(t *testing.T) {
	storetest.ForEach(t, func(t *testing.T, s *schema.Store) {
		r := newSweepRig(t, s)
		w := r.sweeper("admin-b", time.Hour)
		ctx := context.Background()

		// Decided, never prepared: submitted again; one log row, one run.
		r.left(schema.PendingDecided, "", 0)
		r.pass(w)
		rows, _, err := s.LogPageList(ctx, 0, 10, schema.LogFilter{JobID: r.job.ID})
		if err != nil || len(rows) != 1 || rows[0].TriggerCode != 200 || r.exec.Entry(rows[0].ID).Started != 1 {
			t.Fatalf("decided: log rows %+v (%v), ledger %+v", rows, err, r.exec.Ledger())
		}
		if !strings.Contains(str(rows[0].TriggerMsg), "Job trigger type：Parent job trigger") {
			t.Errorf("decided: trigger_msg %q is not a child trigger's", str(rows[0].TriggerMsg))
		}

		cases := []struct {
			name  string
			stage int
			// before sets up what reached the executor; started is how
			// many runs of the log id the executor must have started.
			handle  int
			before  func(p schema.PendingTrigger)
			want    string // in trigger_msg
			started int
		}{
			{name: "log row written, never sent", stage: schema.PendingLogged, started: 1, want: "code：200"},
			{name: "address stored, never sent", stage: schema.PendingSending, started: 1, want: "code：200"},
			{name: "sent and started", stage: schema.PendingSending, started: 1,
				before: func(p schema.PendingTrigger) { r.sendFirst(p); r.waitStarted(p.LogID) }, want: "has the run's log"},
			{name: "sent, queued behind another run", stage: schema.PendingSending, started: 1,
				before: func(p schema.PendingTrigger) { r.exec.Hold(r.job.ID); r.sendFirst(p) }, want: "already holds this run"},
			{name: "sent, called back", stage: schema.PendingSending, handle: 200, started: 0, want: "reported the run's result"},
		}
		for _, c := range cases {
			p := r.left(c.stage, r.exec.Address(), c.handle)
			if c.before != nil {
				c.before(p)
			}
			r.pass(w)
			r.exec.Release(r.job.ID)
			r.waitIdle()
			l := r.log(p.LogID)
			if l.TriggerCode != 200 || str(l.ExecutorAddress) != r.exec.Address() || !strings.Contains(str(l.TriggerMsg), c.want) {
				t.Errorf("%s: log row %+v, want code 200 at %s with %q", c.name, l, r.exec.Address(), c.want)
			}
			if got := r.exec.Entry(p.LogID); got.Started != c.started {
				t.Errorf("%s: the executor started the run %d times, want %d (ledger %+v)", c.name, got.Started, c.started, got)
			}
			if rows := r.pending(); len(rows) != 0 {
				t.Errorf("%s: pending rows remain: %+v", c.name, rows)
			}
		}

		// Its result stored, only the pending row left: released.
		p := r.left(schema.PendingSending, r.exec.Address(), 0)
		l := r.log(p.LogID)
		l.TriggerCode, l.TriggerMsg = 200, schema.Ptr("stored by the admin that stopped")
		if err := s.LogUpdateTriggerInfo(ctx, l); err != nil {
			t.Fatal(err)
		}
		r.pass(w)
		if got := r.log(p.LogID); str(got.TriggerMsg) != "stored by the admin that stopped" || r.exec.Entry(p.LogID).Received != 0 {
			t.Errorf("stored: log row %+v, ledger %+v; want it untouched and nothing sent", got, r.exec.Entry(p.LogID))
		}
		// Its log row deleted meanwhile (retention, the console): released.
		p = r.left(schema.PendingLogged, "", 0)
		if _, err := s.LogClear(ctx, []int64{p.LogID}); err != nil {
			t.Fatal(err)
		}
		r.pass(w)
		if rows := r.pending(); len(rows) != 0 || r.exec.Entry(p.LogID).Received != 0 {
			t.Errorf("gone: pending %+v, ledger %+v", rows, r.exec.Entry(p.LogID))
		}
	})
}

func (r *sweepRig) waitStarted(logID int64) {
	r.t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for r.exec.Entry(logID).Started == 0 {
		if time.Now().After(deadline) {
			r.t.Fatalf("log %d never started", logID)
		}
		time.Sleep(5 * time.Millisecond)
	}
}

func (r *sweepRig) waitIdle() {
	r.t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if !r.exec.WaitIdle(ctx) {
		r.t.Fatalf("the executor is still busy: %+v", r.exec.Ledger())
	}
}

func str(p *string) string {
	if p == nil {
		return "<nil>"
	}
	return *p
}

// TestSweepExecutorSilent: a maybe-sent trigger whose executor does not
// answer is never sent blind: it waits, taken over again at later sweeps,
// until GiveUp after its decision, then it is recorded as failed.
func TestSweepExecutorSilent(t *testing.T) {
	storetest.ForEach(t, func(t *testing.T, s *schema.Store) {
		r := newSweepRig(t, s)
		dead := "http://127.0.0.1:1/"
		p := r.left(schema.PendingSending, dead, 0)
		r.pass(r.sweeper("admin-b", time.Hour))
		rows := r.pending()
		if len(rows) != 1 || rows[0].Owner != "admin-b" || rows[0].Claim == p.Claim || r.log(p.LogID).TriggerCode != 0 {
			t.Fatalf("after a sweep with the executor silent: pending %+v, log %+v; want it held by admin-b, unresolved", rows, r.log(p.LogID))
		}
		// Expire it again; a sweeper past GiveUp records the failure.
		if _, err := s.PendingClaim(context.Background(), rows[0], rows[0].Claim, "admin-b", time.Now().Add(-time.Second)); err != nil {
			t.Fatal(err)
		}
		r.pass(r.sweeper("admin-c", time.Second))
		l := r.log(p.LogID)
		if l.TriggerCode != api.CodeFail || !strings.Contains(str(l.TriggerMsg), "did not answer whether it received it") {
			t.Fatalf("given up: log row %+v", l)
		}
		if rows := r.pending(); len(rows) != 0 {
			t.Fatalf("pending rows remain: %+v", rows)
		}
	})
}

// TestSweepersRace: two admins sweep the same left-behind triggers at the
// same moment; each is seen through once — no run started twice, none
// missing — and no pending row remains.
func TestSweepersRace(t *testing.T) {
	storetest.ForEach(t, func(t *testing.T, s *schema.Store) {
		r := newSweepRig(t, s)
		var logIDs []int64
		for i := range 30 {
			p := r.left([]int{schema.PendingDecided, schema.PendingLogged, schema.PendingSending}[i%3], r.exec.Address(), 0)
			if p.LogID != 0 {
				logIDs = append(logIDs, p.LogID)
			}
		}
		a, b := r.sweeper("admin-a", time.Hour), r.sweeper("admin-b", time.Hour)
		var wg sync.WaitGroup
		for _, w := range []*Sweeper{a, b} {
			wg.Go(func() {
				if err := w.Pass(context.Background()); err != nil {
					t.Error(err)
				}
			})
		}
		wg.Wait()
		r.waitIdle()
		if rows := r.pending(); len(rows) != 0 {
			t.Fatalf("pending rows remain: %+v", rows)
		}
		ledger := r.exec.Ledger()
		for _, id := range logIDs {
			if ledger[id].Started != 1 {
				t.Errorf("log %d started %d times, want 1", id, ledger[id].Started)
			}
		}
		started := 0
		for _, e := range ledger {
			if e.Started != 1 {
				t.Errorf("a run started %d times: %+v", e.Started, e)
			}
			started += e.Started
		}
		if started != 30 {
			t.Errorf("%d runs started, want 30 (%s)", started, fmt.Sprint(ledger))
		}
	})
}
