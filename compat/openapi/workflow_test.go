package openapi

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/xxl-admin-go/xxl-admin-go/compat/api"
	"github.com/xxl-admin-go/xxl-admin-go/compat/schema"
	"github.com/xxl-admin-go/xxl-admin-go/internal/testsupport/storetest"
	"github.com/xxl-admin-go/xxl-admin-go/internal/testsupport/testfactory"
)

// TestWorkflowRoutesOff: with workflows off the routes do not exist and
// the document does not describe them.
func TestWorkflowRoutesOff(t *testing.T) {
	e := newEnv(t, storetest.SQLite(t), "")
	if a := e.call("GET", "/workflows", nil); a.status != 404 {
		t.Errorf("GET /workflows with workflows off: %d %s", a.status, a.body)
	}
	if strings.Contains(string(e.api.doc), "/workflows") {
		t.Error("the document describes workflows while they are off")
	}
}

// TestWorkflowDocumentMatchesRoutes: with workflows on, the served
// document describes exactly the routes, and is valid for kin-openapi.
func TestWorkflowDocumentMatchesRoutes(t *testing.T) {
	raw, err := documentWith(ctxPath, true)
	if err != nil {
		t.Fatal(err)
	}
	c, err := loadContract(t.Context(), raw)
	if err != nil {
		t.Fatal(err)
	}
	documented := map[string]string{}
	for id, o := range operations(t, c.doc) {
		documented[o.method+" "+o.path] = id
	}
	routed := map[string]bool{}
	for _, rt := range append(routeTable(), workflowRoutes()...) {
		key := rt.method + " " + rt.path
		routed[key] = true
		if id, ok := documented[key]; !ok || id != rt.op {
			t.Errorf("route %s (%s): document has %q", key, rt.op, id)
		}
	}
	for key := range documented {
		if !routed[key] {
			t.Errorf("document entry %s has no route", key)
		}
	}
}

// TestWorkflowAPI: a workflow created, validated (a cycle named), read,
// listed, run with parameters and moved by every operator action, each
// exchange checked against the document; a normal user reaches only its
// groups' workflows and runs.
func TestWorkflowAPI(t *testing.T) {
	storetest.ForEach(t, func(t *testing.T, s *schema.Store) {
		g := testfactory.ManualGroup(t, s, "http://127.0.0.1:19991/")
		extract := testfactory.Job(t, s, testfactory.JobOpts{Group: g.ID, Handler: "extract"})
		load := testfactory.Job(t, s, testfactory.JobOpts{Group: g.ID, Handler: "load", Param: schema.Ptr("day=${param.day}")})
		e := newEnvWith(t, s, "", true)
		body := map[string]any{"jobGroup": g.ID, "name": "etl <b>", "author": "ops", "params": "day=today",
			"nodes": []map[string]any{{"id": 1, "jobId": extract.ID}, {"id": 2, "jobId": load.ID, "rule": "all_done", "label": "load"}},
			"edges": []map[string]any{{"from": 1, "to": 2}}}

		cyclic := map[string]any{"jobGroup": g.ID, "name": "loop", "nodes": body["nodes"],
			"edges": []map[string]any{{"from": 1, "to": 2}, {"from": 2, "to": 1}}}
		v := e.call("POST", "/workflows/validate", cyclic)
		if v.status != 200 || v.data()["valid"] != false || !strings.Contains(string(v.body), "cycle") {
			t.Errorf("validate a cycle: %d %s", v.status, v.body)
		}
		if a := e.call("POST", "/workflows", cyclic); a.status != 400 || !strings.Contains(string(a.body), "cycle") {
			t.Errorf("create a cycle: %d %s", a.status, a.body)
		}
		if v := e.call("POST", "/workflows/validate", body); v.status != 200 || v.data()["valid"] != true {
			t.Errorf("validate: %d %s", v.status, v.body)
		}
		c := e.call("POST", "/workflows", body)
		if c.status != 201 || c.data()["name"] != "etl <b>" {
			t.Fatalf("create: %d %s", c.status, c.body)
		}
		id := int(c.data()["id"].(float64))
		wf := fmt.Sprintf("/workflows/%d", id)
		if a := e.call("GET", wf, nil); a.status != 200 || len(a.data()["nodes"].([]any)) != 2 {
			t.Errorf("get: %d %s", a.status, a.body)
		}
		if a := e.call("GET", "/workflows?name=ETL", nil); a.status != 200 || !strings.Contains(string(a.body), `"nodes":2`) {
			t.Errorf("list: %d %s", a.status, a.body)
		}
		body["params"] = "day=yesterday"
		if a := e.call("PUT", wf, body); a.status != 200 || a.data()["params"] != "day=yesterday" {
			t.Errorf("update: %d %s", a.status, a.body)
		}

		// A run: parameters reach the node, every action moves it.
		r := e.call("POST", wf+"/runs", map[string]any{"params": "day=2026-11-22"})
		if r.status != 201 || r.data()["state"] != "RUNNING" {
			t.Fatalf("start: %d %s", r.status, r.body)
		}
		run := fmt.Sprintf("/runs/%d", int(r.data()["id"].(float64)))
		if a := e.call("POST", wf+"/runs", nil); a.status != 409 {
			t.Errorf("second start under SKIP: %d %s", a.status, a.body)
		}
		if a := e.call("POST", run+"/nodes/1/skip", nil); a.status != 409 {
			t.Errorf("skip a node in flight: %d %s", a.status, a.body)
		}
		if a := e.call("POST", run+"/nodes/9/skip", nil); a.status != 404 {
			t.Errorf("skip an unknown node: %d %s", a.status, a.body)
		}
		a := e.call("POST", run+"/nodes/1/succeed", nil)
		nodes := a.data()["nodes"].([]any)
		second := nodes[1].(map[string]any)
		if a.status != 200 || second["state"] != "TRIGGERED" || second["param"] != "day=2026-11-22" {
			t.Fatalf("mark node 1: %d %s", a.status, a.body)
		}
		// A stop kills the node at its executor as the log list's kill
		// does; a kill the executor refuses is reported; kill=false leaves
		// it running.
		if a := e.call("POST", run+"/stop?kill=maybe", nil); a.status != 400 {
			t.Errorf("stop?kill=maybe: %d %s", a.status, a.body)
		}
		a = e.call("POST", run+"/stop", nil)
		if a.status != 200 || a.data()["state"] != "STOPPED" || len(a.data()["runningLogIds"].([]any)) != 1 ||
			fmt.Sprint(a.data()["killedLogIds"]) != fmt.Sprint(a.data()["runningLogIds"]) || len(a.data()["killFailures"].([]any)) != 0 {
			t.Fatalf("stop: %d %s", a.status, a.body)
		}
		killed := int64(a.data()["killedLogIds"].([]any)[0].(float64))
		if l, err := s.LogLoad(t.Context(), killed); err != nil || l.HandleCode != 500 || l.HandleMsg == nil ||
			!strings.Contains(*l.HandleMsg, "job thread already killed.") {
			t.Errorf("the killed log: %+v %v", l, err)
		}
		if a := e.call("POST", run+"/stop", nil); a.status != 409 {
			t.Errorf("stop a stopped run: %d %s", a.status, a.body)
		}
		retry := func() {
			t.Helper()
			if a := e.call("POST", run+"/retry", nil); a.status != 200 || a.data()["state"] != "RUNNING" {
				t.Fatalf("retry: %d %s", a.status, a.body)
			}
		}
		retry()
		e.exec.mu.Lock()
		e.exec.kill = api.ReturnT[string]{Code: 500, Msg: schema.Ptr("no such job thread")}
		e.exec.mu.Unlock()
		a = e.call("POST", run+"/stop", nil)
		failures, _ := a.data()["killFailures"].([]any)
		if a.status != 200 || a.data()["state"] != "STOPPED" || len(a.data()["killedLogIds"].([]any)) != 0 || len(failures) != 1 ||
			!strings.Contains(fmt.Sprint(failures[0]), "no such job thread") {
			t.Fatalf("stop, the executor refusing the kill: %d %s", a.status, a.body)
		}
		retry()
		a = e.call("POST", run+"/stop?kill=false", nil)
		if a.status != 200 || a.data()["state"] != "STOPPED" || len(a.data()["runningLogIds"].([]any)) != 1 ||
			len(a.data()["killedLogIds"].([]any)) != 0 || len(a.data()["killFailures"].([]any)) != 0 {
			t.Fatalf("stop?kill=false: %d %s", a.status, a.body)
		}
		if l, err := s.LogLoad(t.Context(), int64(a.data()["runningLogIds"].([]any)[0].(float64))); err != nil || l.HandleCode != 0 {
			t.Errorf("a log left running by stop?kill=false: %+v %v", l, err)
		}
		retry()
		if a := e.call("POST", run+"/nodes/2/succeed", nil); a.status != 200 || a.data()["state"] != "SUCCEEDED" {
			t.Errorf("mark node 2: %d %s", a.status, a.body)
		}
		if a := e.call("GET", wf+"/runs?state=SUCCEEDED", nil); a.status != 200 || !strings.Contains(string(a.body), `"total":1`) {
			t.Errorf("runs: %d %s", a.status, a.body)
		}
		if a := e.call("GET", run, nil); a.status != 200 || len(a.data()["nodes"].([]any)) != 2 {
			t.Errorf("get run: %d %s", a.status, a.body)
		}

		// A normal user of another group.
		other := testfactory.ManualGroup(t, s, "http://127.0.0.1:19992/")
		testfactory.User(t, s, testfactory.UserOpts{Username: "deployer", Permission: schema.Ptr(itoa(other.ID))})
		d := newEnvWith(t, s, "deployer", true)
		for _, c := range []struct{ method, path string }{{"GET", wf}, {"POST", wf + "/runs"}, {"GET", run}, {"POST", run + "/retry"},
			{"DELETE", wf}} {
			if a := d.call(c.method, c.path, nil); a.status != 403 {
				t.Errorf("deployer %s %s: %d %s", c.method, c.path, a.status, a.body)
			}
		}
		if a := d.call("GET", "/workflows", nil); a.status != 200 || !strings.Contains(string(a.body), `"total":0`) {
			t.Errorf("deployer's list: %d %s", a.status, a.body)
		}

		if a := e.call("DELETE", wf, nil); a.status != 200 {
			t.Errorf("delete: %d %s", a.status, a.body)
		}
		if a := e.call("GET", wf, nil); a.status != 404 {
			t.Errorf("get deleted: %d %s", a.status, a.body)
		}
	})
}

// TestWorkflowReferenceValidator: openapi-spec-validator accepts the
// document served with workflows on.
func TestWorkflowReferenceValidator(t *testing.T) {
	bin := os.Getenv(EnvSpecValidator)
	if bin == "" {
		t.Skip("[suite-off] " + EnvSpecValidator + " not set: the path of openapi-spec-validator 0.9.0 (pip install; .ci/setup.d/50-openapi.sh)")
	}
	e := newEnvWith(t, storetest.SQLite(t), "", true)
	served := e.callToken("GET", "/openapi.json", nil, "").body
	if !strings.Contains(string(served), `"/runs/{id}/retry"`) {
		t.Fatal("the served document lacks the workflow endpoints")
	}
	f := filepath.Join(t.TempDir(), "openapi.json")
	if err := os.WriteFile(f, served, 0o644); err != nil {
		t.Fatal(err)
	}
	if out, err := exec.CommandContext(t.Context(), bin, f).CombinedOutput(); err != nil || !strings.Contains(string(out), ": OK") {
		t.Errorf("served document: %v\n%s", err, out)
	}
}

// TestWorkflowAPIParent: a workflow started after a job is created with
// schedule type JOB and its parentJobId, answered with both its conf and
// parentJobId; a parent that is a node's job, or of another group, is
// refused by validate and create with the reason; each exchange is checked
// against the document.
func TestWorkflowAPIParent(t *testing.T) {
	storetest.ForEach(t, func(t *testing.T, s *schema.Store) {
		g := testfactory.ManualGroup(t, s, "http://127.0.0.1:19991/")
		other := testfactory.ManualGroup(t, s, "http://127.0.0.1:19992/")
		extract := testfactory.Job(t, s, testfactory.JobOpts{Group: g.ID, Handler: "extract"})
		load := testfactory.Job(t, s, testfactory.JobOpts{Group: g.ID, Handler: "load"})
		foreign := testfactory.Job(t, s, testfactory.JobOpts{Group: other.ID, Handler: "x"})
		e := newEnvWith(t, s, "", true)
		body := func(parent int) map[string]any {
			return map[string]any{"jobGroup": g.ID, "name": "after extract", "enabled": true,
				"schedule": map[string]any{"type": "JOB", "parentJobId": parent},
				"nodes":    []map[string]any{{"id": 1, "jobId": load.ID}}}
		}
		for parent, want := range map[int]string{load.ID: "is the job of node 1", foreign.ID: "belongs to executor group"} {
			if v := e.call("POST", "/workflows/validate", body(parent)); v.status != 200 || v.data()["valid"] != false ||
				!strings.Contains(string(v.body), want) {
				t.Errorf("validate parent %d: %d %s", parent, v.status, v.body)
			}
			if a := e.call("POST", "/workflows", body(parent)); a.status != 400 || !strings.Contains(string(a.body), want) {
				t.Errorf("create parent %d: %d %s", parent, a.status, a.body)
			}
		}
		c := e.call("POST", "/workflows", body(extract.ID))
		if c.status != 201 {
			t.Fatalf("create: %d %s", c.status, c.body)
		}
		sched := c.data()["schedule"].(map[string]any)
		if sched["type"] != "JOB" || sched["conf"] != fmt.Sprint(extract.ID) || sched["parentJobId"] != float64(extract.ID) {
			t.Fatalf("created schedule: %v", sched)
		}
		if a := e.call("GET", "/workflows", nil); a.status != 200 || !strings.Contains(string(a.body), fmt.Sprintf(`"parentJobId":%d`, extract.ID)) {
			t.Errorf("list: %d %s", a.status, a.body)
		}
		// A success of the parent, stored without our hook (as a Java
		// admin stores it), starts a run at the engine's pass; the run
		// names the parent's log.
		wf := fmt.Sprintf("/workflows/%v", c.data()["id"])
		now := e.clock.now()
		logID, err := s.LogSave(t.Context(), schema.JobLog{JobGroup: g.ID, JobID: extract.ID, TriggerTime: &now, TriggerCode: 200, HandleCode: 200})
		if err != nil {
			t.Fatal(err)
		}
		if err := e.engine.Pass(t.Context()); err != nil {
			t.Fatal(err)
		}
		if a := e.call("GET", wf+"/runs", nil); a.status != 200 || !strings.Contains(string(a.body), fmt.Sprintf(`"parentLogId":%d`, logID)) ||
			!strings.Contains(string(a.body), `"triggerType":"PARENT"`) {
			t.Errorf("runs after the parent's success: %d %s", a.status, a.body)
		}
		// The export names the parent by identity (checked against the
		// document's export format).
		if a := e.call("GET", "/export", nil); a.status != 200 || !strings.Contains(string(a.body), `"parent":{`) {
			t.Errorf("export: %d %s", a.status, a.body)
		}
	})
}
