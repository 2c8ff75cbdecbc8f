package live

import (
	"context"
	"fmt"
	"net/http"
	"strings"
	"time"

	"github.com/xxl-admin-go/xxl-admin-go/compat/schema"
)

// A workflow's nodes on the real executors (docs/workflows.md): the
// executors the live scenarios start — Java 2.4.2 (our admin on 2.x
// tables), Java 3.4.2 (on 3.x tables, at the root) and pyxxl — also run a
// small workflow started through the job API, once each, before they are
// stopped; no executor is started for it.

// openapiToken is the job API's bearer token of the admins that run
// workflows (at least 16 characters, not the executors' token).
const openapiToken = "live-openapi-token-0123"

// workflowArgs switch workflows and the job API on.
var workflowArgs = []string{"--xxl.job.workflows.enabled=true", "--xxl.job.openapi.token=" + openapiToken}

// runsWorkflow tells which pairings of TestLiveExecutors also run the
// workflow: Java 2.4.2 and 3.4.2 once each, on its own generation's
// tables, on SQLite.
func runsWorkflow(b backend, p pairing) bool {
	return b.name == "sqlite" && (p.version == "2.4.2" && p.admin.name == admin2x.name ||
		p.version == "3.4.2" && p.admin.name == admin3x.name)
}

// wfExecutor is a registered executor and its handlers.
type wfExecutor struct {
	group   int
	address string
	runs    ledger
	success string                    // a handler that succeeds
	echo    func(param string) string // what success answers (handle_msg) for a parameter
	fail    string                    // a handler that fails
	failMsg string                    // and its handle_msg
	slow    string                    // a handler that sleeps for its parameter's seconds ("" when not tried)
}

// javaWorkflowExecutor is a Java executor of conformance/java in group 1.
func javaWorkflowExecutor(address string, runs ledger) wfExecutor {
	return wfExecutor{group: 1, address: address, runs: runs, success: "successHandler",
		echo: func(p string) string { return "success param=" + p }, fail: "failHandler", failMsg: "boom", slow: "slowHandler"}
}

// wfNode is a node of the live workflow: its handler, rule, parents and
// the state its rules imply for the run.
type wfNode struct {
	id      int
	fails   bool
	rule    string
	param   string
	parents []int
	want    string
}

// wfNodes: A → {B, C} → D (fan-out, fan-in under all_success); A → F,
// which fails on purpose, → E (one_failed, runs) and → G (all_success,
// skipped). Parameters name the run and its parameter day. The run ends
// FAILED: F failed, even though E handled it.
var wfNodes = []wfNode{
	{id: 1, param: "a run=${run.id}", want: "SUCCEEDED"},
	{id: 2, param: "b day=${param.day}", parents: []int{1}, want: "SUCCEEDED"},
	{id: 3, param: "c", parents: []int{1}, want: "SUCCEEDED"},
	{id: 4, rule: "all_success", param: "d ${run.id} ${param.day}", parents: []int{2, 3}, want: "SUCCEEDED"},
	{id: 5, fails: true, parents: []int{1}, want: "FAILED"},
	{id: 6, rule: "one_failed", param: "e ${param.missing}", parents: []int{5}, want: "SUCCEEDED"},
	{id: 7, rule: "all_success", param: "g", parents: []int{5}, want: "SKIPPED"},
}

// expand is what a node's parameter becomes in run runID with day.
func expand(param string, runID int64, day string) string {
	return strings.NewReplacer("${run.id}", fmt.Sprint(runID), "${param.day}", day).Replace(param)
}

// workflowScenario runs the workflow of wfNodes on x and checks the
// run, its nodes and the log row of each executed node; with a slow
// handler it then stops a run through the job API while its node sleeps
// at the executor, which must kill it there.
func (f *fixture) workflowScenario(x wfExecutor) {
	t := f.t
	t.Helper()
	ctx := context.Background()
	const day = "2026-11-28"
	nodes := make([]map[string]any, 0, len(wfNodes))
	var edges []map[string]any
	jobs := map[int]int{}
	for _, n := range wfNodes {
		handler := x.success
		if n.fails {
			handler = x.fail
		}
		jobs[n.id] = f.wfJob(x.group, fmt.Sprintf("wf node %d", n.id), handler)
		nodes = append(nodes, map[string]any{"id": n.id, "jobId": jobs[n.id], "rule": n.rule, "param": n.param})
		for _, p := range n.parents {
			edges = append(edges, map[string]any{"from": p, "to": n.id})
		}
	}
	status, wf := f.openapi("POST", "/workflows", map[string]any{"jobGroup": x.group, "name": "live", "params": "day=today",
		"nodes": nodes, "edges": edges})
	if status != http.StatusCreated {
		t.Fatalf("create the workflow: %d %v", status, wf)
	}
	before := f.lastLogID()
	began := time.Now()
	run := f.startRun(wf["id"], "day="+day)
	run = f.awaitRun(run, 30*time.Second)
	t.Logf("workflow run on %s: %s in %s", x.address, run["state"], time.Since(began).Round(time.Millisecond))
	if run["state"] != "FAILED" {
		t.Errorf("run %v ended %v, want FAILED (node 5 failed): %v", run["id"], run["state"], run)
	}
	runID := int64(run["id"].(float64))
	byID := map[int]map[string]any{}
	for _, n := range run["nodes"].([]any) {
		m := n.(map[string]any)
		byID[int(m["id"].(float64))] = m
	}
	var ran []int64
	var ranJobs []int
	for _, n := range wfNodes {
		got := byID[n.id]
		logIDs, _ := got["logIds"].([]any)
		if got["state"] != n.want {
			t.Errorf("node %d: %v, want %s (%v)", n.id, got["state"], n.want, got)
		}
		if n.want == "SKIPPED" {
			if len(logIDs) != 0 {
				t.Errorf("skipped node %d has log rows %v", n.id, logIDs)
			}
			continue
		}
		if len(logIDs) != 1 {
			t.Errorf("node %d: log rows %v, want one", n.id, logIDs)
			continue
		}
		id := int64(logIDs[0].(float64))
		// The callback may end the node (and the run) before the trigger
		// flow, back from /run, writes the row's trigger columns.
		var l schema.JobLog
		f.eventually(fmt.Sprintf("node %d's log %d triggered", n.id, id), 10*time.Second, func() (bool, string) {
			var err error
			if l, err = f.store.LogLoad(ctx, id); err != nil {
				t.Fatal(err)
			}
			return l.TriggerCode != 0, "trigger_code 0"
		})
		param := expand(n.param, runID, day)
		wantCode, wantMsg := 200, x.echo(param)
		if n.fails {
			wantCode, wantMsg = 500, x.failMsg
		}
		if l.JobID != jobs[n.id] || l.TriggerCode != 200 || deref(l.ExecutorParam) != param || l.HandleCode != wantCode ||
			deref(l.HandleMsg) != wantMsg || deref(l.ExecutorAddress) != x.address {
			t.Errorf("node %d's log row: job %d param %q trigger %d handle %d %q at %q; want job %d param %q handle %d %q at %q",
				n.id, l.JobID, deref(l.ExecutorParam), l.TriggerCode, l.HandleCode, deref(l.HandleMsg), deref(l.ExecutorAddress),
				jobs[n.id], param, wantCode, wantMsg, x.address)
		}
		ran, ranJobs = append(ran, id), append(ranJobs, jobs[n.id])
	}
	// One log row per executed node, each run once at the executor.
	if rows, _, err := f.store.LogPageList(ctx, 0, 100, schema.LogFilter{LogStatus: -1}); err != nil {
		t.Fatal(err)
	} else if n := countNew(rows, before); n != len(ran) {
		t.Errorf("%d log rows written for the run, want %d (one per executed node)", n, len(ran))
	}
	f.checkRanOnce(x.address, x.runs, ranJobs, ran...)
	if x.slow != "" {
		f.stopKills(x)
	}
}

// wfJob adds a job of the group, without a schedule, for a node.
func (f *fixture) wfJob(group int, desc, handler string) int {
	f.t.Helper()
	now := time.Now()
	id, err := f.store.JobSave(context.Background(), schema.JobInfo{JobGroup: group, JobDesc: desc, AddTime: &now, UpdateTime: &now,
		Author: schema.Ptr("live"), AlarmEmail: schema.Ptr(""), ScheduleType: "NONE", ScheduleConf: schema.Ptr(""),
		MisfireStrategy: "DO_NOTHING", ExecutorRouteStrategy: schema.Ptr("FIRST"), ExecutorHandler: schema.Ptr(handler),
		ExecutorParam: schema.Ptr(""), ExecutorBlockStrategy: schema.Ptr("SERIAL_EXECUTION"), GlueType: "BEAN",
		GlueSource: schema.Ptr(""), GlueRemark: schema.Ptr(""), GlueUpdatetime: &now, ChildJobID: schema.Ptr("")})
	if err != nil {
		f.t.Fatal(err)
	}
	return id
}

// countNew counts the log rows after the one with id before.
func countNew(rows []schema.JobLog, before int64) int {
	n := 0
	for _, l := range rows {
		if l.ID > before {
			n++
		}
	}
	return n
}

// lastLogID is the id of the newest log row (0: none).
func (f *fixture) lastLogID() int64 {
	f.t.Helper()
	rows, _, err := f.store.LogPageList(context.Background(), 0, 1, schema.LogFilter{LogStatus: -1, NewestID: true})
	if err != nil {
		f.t.Fatal(err)
	}
	if len(rows) == 0 {
		return 0
	}
	return rows[0].ID
}

func deref(p *string) string {
	if p == nil {
		return ""
	}
	return *p
}
