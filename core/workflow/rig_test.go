package workflow

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/rs/zerolog"

	"github.com/xxl-admin-go/xxl-admin-go/compat/api"
	"github.com/xxl-admin-go/xxl-admin-go/compat/i18n"
	"github.com/xxl-admin-go/xxl-admin-go/compat/schema"
	"github.com/xxl-admin-go/xxl-admin-go/core/clock"
	"github.com/xxl-admin-go/xxl-admin-go/core/thread"
	"github.com/xxl-admin-go/xxl-admin-go/core/trigger"
	"github.com/xxl-admin-go/xxl-admin-go/internal/testsupport/fakeexec"
	"github.com/xxl-admin-go/xxl-admin-go/internal/testsupport/testfactory"
)

// rig is one database, one fake executor and the admins of ours on it:
// each with its trigger flow, completer and engine wired as app wires
// them, and an /api/callback endpoint the executor calls back.
type rig struct {
	t      testing.TB
	s      *schema.Store
	exec   *fakeexec.Executor
	group  schema.Group
	admins []*admin
	// leases is the clock of the pending triggers' leases: settle moves
	// it on to let the sweepers take over what a lost race left.
	leases *clock.Fake

	mu      sync.Mutex
	failing map[int]bool // jobs whose runs call back 500
}

type admin struct {
	engine    *Engine
	completer *thread.Completer
	srv       *httptest.Server
	door      *syncDoor
	flow      *trigger.Flow
	durable   *trigger.Durable
	client    *api.Client
}

// syncDoor triggers at once, in the caller's goroutine: a run's steps
// are over when the executor is idle. A dead door drops what it is given,
// as an admin killed between a decision's commit and its submission does.
type syncDoor struct {
	flow *trigger.Flow
	dead atomic.Bool
	// pools, when set, take the triggers instead (benchmarks: the
	// production door, which never makes a callback wait).
	pools *trigger.Pools
}

func (d *syncDoor) Submit(req trigger.Request) error {
	if d.dead.Load() {
		return nil
	}
	if d.pools != nil {
		return d.pools.Submit(req)
	}
	return d.flow.Trigger(context.Background(), req)
}

// usePools puts the production door (started trigger pools) in front of
// every admin's flow.
func (r *rig) usePools() {
	for _, a := range r.admins {
		p := trigger.NewPools(trigger.PoolConfig{FastMax: 200, SlowMax: 100, Log: zerolog.Nop()}, a.flow)
		if err := p.Start(context.Background()); err != nil {
			r.t.Fatal(err)
		}
		r.t.Cleanup(p.Stop)
		a.door.pools = p
	}
}

// await waits for a run to end, looking every few milliseconds (with an
// asynchronous door the executor may be idle while triggers wait in the
// pools, so idleness says nothing).
func (r *rig) await(runID int64) schema.WorkflowRun {
	r.t.Helper()
	deadline := time.Now().Add(60 * time.Second)
	for {
		run, err := r.s.WorkflowRunLoad(context.Background(), runID)
		if err != nil {
			r.t.Fatal(err)
		}
		if RunState(run.State).Final() {
			return run
		}
		if time.Now().After(deadline) {
			r.t.Fatalf("run %d did not end%s", runID, r.dump(runID))
		}
		time.Sleep(5 * time.Millisecond)
	}
}

// sweeper is the admin's sweeper of pending triggers.
func (a *admin) sweeper() *thread.Sweeper {
	return thread.NewSweeper(thread.SweeperConfig{Store: a.engine.cfg.Store, Flow: a.flow, Trigger: a.door, Executor: a.client,
		Durable: a.durable, Log: zerolog.Nop()})
}

func newRig(t testing.TB, s *schema.Store, admins int) *rig {
	t.Helper()
	if _, err := s.EnsureWorkflowTables(context.Background()); err != nil {
		t.Fatal(err)
	}
	r := &rig{t: t, s: s, failing: map[int]bool{}, leases: clock.NewFake(time.Now())}
	r.exec = fakeexec.Start(fakeexec.Config{Result: r.result})
	t.Cleanup(r.exec.Close)
	r.group = testfactory.Group(t, s, testfactory.GroupOpts{AddressType: 1, AddressList: schema.Ptr(r.exec.Address())})
	client := api.NewClient(api.ClientConfig{})
	t.Cleanup(client.CloseIdleConnections)
	var endpoints []fakeexec.Endpoint
	for i := range admins {
		d := &trigger.Durable{Owner: "admin-" + string(rune('a'+i)), Lease: time.Minute, SendLease: 2 * time.Minute, Now: r.leases.Now}
		flow := trigger.NewFlow(trigger.FlowConfig{Store: s, Client: client, Texts: i18n.Load("en"), Log: zerolog.Nop(), Durable: d})
		door := &syncDoor{flow: flow}
		e := New(Config{Store: s, Trigger: door, Durable: d, Log: zerolog.New(zerolog.NewTestWriter(t)).Level(zerolog.WarnLevel)})
		d.Hook = e
		c := thread.NewCompleter(thread.CompleterConfig{Store: s, Texts: i18n.Load("en"), Trigger: door, Log: zerolog.Nop(),
			Durable: d, Hook: e})
		a := &admin{engine: e, completer: c, door: door, flow: flow, durable: d, client: client}
		a.srv = httptest.NewServer(http.HandlerFunc(a.callback))
		t.Cleanup(a.srv.Close)
		r.admins = append(r.admins, a)
		endpoints = append(endpoints, fakeexec.Endpoint{URL: a.srv.URL})
	}
	r.exec.SetAdmins(endpoints)
	return r
}

// callback is the admin's /api/callback.
func (a *admin) callback(w http.ResponseWriter, req *http.Request) {
	body, _ := io.ReadAll(req.Body)
	var items []api.HandleCallbackParam
	if err := json.Unmarshal(body, &items); err != nil {
		http.Error(w, err.Error(), http.StatusBadRequest)
		return
	}
	if err := a.completer.Callback(req.Context(), items); err != nil {
		_, _ = io.WriteString(w, `{"code":500,"msg":"`+err.Error()+`"}`)
		return
	}
	_, _ = io.WriteString(w, `{"code":200}`)
}

func (r *rig) result(jobID int) int {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.failing[jobID] {
		return 500
	}
	return 200
}

func (r *rig) fail(jobID int) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.failing[jobID] = true
}

// job creates a job of the rig's group.
func (r *rig) job(retry int) int {
	return testfactory.Job(r.t, r.s, testfactory.JobOpts{Group: r.group.ID, Handler: "h", Retry: retry}).ID
}

// workflow stores a workflow of the rig's group.
func (r *rig) workflow(g Graph, c Concurrency, params string) int {
	r.t.Helper()
	w := Workflow{JobGroup: r.group.ID, Name: "wf", Graph: g, Concurrency: c, Params: params,
		AddTime: time.Now(), UpdateTime: time.Now()}
	if err := Validate(w, func(int) (int, bool) { return r.group.ID, true }); err != nil {
		r.t.Fatal(err)
	}
	row, err := w.Row()
	if err != nil {
		r.t.Fatal(err)
	}
	id, err := r.s.WorkflowAdd(context.Background(), row)
	if err != nil {
		r.t.Fatal(err)
	}
	return id
}

// settle waits for the executor to be idle and lets every admin's pass
// take what no callback brings, until the run has ended. When that is not
// enough, the leases run out and the sweepers take over what is left: a
// trigger whose transaction lost a deadlock to another (MariaDB picks a
// victim; the flow leaves its pending row to a sweeper).
func (r *rig) settle(runID int64) schema.WorkflowRun {
	r.t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	for {
		if !r.exec.WaitIdle(ctx) {
			r.t.Fatalf("run %d: the executor did not become idle", runID)
		}
		for _, a := range r.admins {
			if err := a.engine.Pass(ctx); err != nil {
				r.t.Fatalf("%v; run %d nodes %+v", err, runID, r.dump(runID))
			}
		}
		run, err := r.s.WorkflowRunLoad(ctx, runID)
		if err != nil {
			r.t.Fatal(err)
		}
		if RunState(run.State).Final() {
			return run
		}
		if ctx.Err() != nil {
			r.t.Fatalf("run %d did not end: %+v%s", runID, run, r.dump(runID))
		}
		r.leases.Advance(3 * time.Minute)
		for _, a := range r.admins {
			if err := a.sweeper().Pass(ctx); err != nil {
				r.t.Fatal(err)
			}
		}
	}
}

// idle waits for the executor to be idle and returns the run as it is
// then, without a pass: what the callbacks alone did.
func (r *rig) idle(runID int64) schema.WorkflowRun {
	r.t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	if !r.exec.WaitIdle(ctx) {
		r.t.Fatalf("run %d: the executor did not become idle", runID)
	}
	run, err := r.s.WorkflowRunLoad(ctx, runID)
	if err != nil {
		r.t.Fatal(err)
	}
	return run
}

// dump describes a run's nodes and their logs, for failures.
func (r *rig) dump(runID int64) string {
	ctx := context.Background()
	nodes, _ := r.s.WorkflowNodeRuns(ctx, []int64{runID}, false)
	out := ""
	for _, n := range nodes {
		logs, _ := r.s.WorkflowNodeLogsOfRuns(ctx, []int64{n.ID}, false)
		pending, _ := r.s.PendingDecisionExists(ctx, string(TriggerType), n.ID, n.Attempt)
		out += fmt.Sprintf("\n node %d %s attempt %d retries %d pending %v logs %+v", n.NodeID, n.State, n.Attempt, n.Retries, pending, logs)
		for _, l := range logs {
			row, err := r.s.LogLoad(ctx, l.LogID)
			out += fmt.Sprintf("\n   log %d trigger %d handle %d err %v", l.LogID, row.TriggerCode, row.HandleCode, err)
		}
	}
	return out
}

// nodes reads a run's node states by node id.
func (r *rig) nodes(runID int64) map[int]schema.WorkflowNodeRun {
	r.t.Helper()
	rows, err := r.s.WorkflowNodeRuns(context.Background(), []int64{runID}, false)
	if err != nil {
		r.t.Fatal(err)
	}
	out := map[int]schema.WorkflowNodeRun{}
	for _, n := range rows {
		out[n.NodeID] = n
	}
	return out
}

// logs are the log rows of a job.
func (r *rig) logs(jobID int) []schema.JobLog {
	r.t.Helper()
	rows, _, err := r.s.LogPageList(context.Background(), 0, 1000, schema.LogFilter{JobID: jobID})
	if err != nil {
		r.t.Fatal(err)
	}
	return rows
}
