package console

import (
	"context"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"testing"

	"github.com/xxl-admin-go/xxl-admin-go/internal/testsupport/testfactory"
)

// TestWorkflowPagesOff: with workflows off (the default) the console has
// no workflow route and no menu entry.
func TestWorkflowPagesOff(t *testing.T) {
	bothConsoles(t, func(t *testing.T, gen3 bool) {
		e := newWfEnv(t, gen3, false)
		c := e.login("admin")
		if status, _ := c.get(e.wf()); status != http.StatusNotFound {
			t.Fatalf("GET %s with workflows off: %d", e.wf(), status)
		}
		if _, body := c.get(e.menuPage()); strings.Contains(body, "workflow") {
			t.Fatalf("the menu names workflows while they are off")
		}
	})
}

// menuPage is the page with the menu: the job list's sidebar (2.x), the
// frame (3.x).
func (e *wfEnv) menuPage() string {
	if e.gen3 {
		return ctxPath + "/"
	}
	return ctxPath + "/jobinfo"
}

// TestWorkflowPages walks the pages with workflows on: the menu entry, a
// cycle refused and named, a workflow saved with markup in its name and
// labels (only ever shown escaped), the editor's warning for a job with
// its own schedule, the permission of a normal user, and a run started,
// its nodes moved by the operator's actions.
func TestWorkflowPages(t *testing.T) {
	const evilName = `<script>alert("wf")</script>`
	const evilLabel = `"><img src=x onerror=alert(2)>`
	bothConsoles(t, func(t *testing.T, gen3 bool) {
		e := newWfEnv(t, gen3, true)
		admin := e.login("admin")
		if _, body := admin.get(e.menuPage()); !strings.Contains(body, e.wf()[len(ctxPath):]) || !strings.Contains(body, "Workflows") {
			t.Fatalf("the menu lacks the workflow entry")
		}

		j2a, j2b := itoa(e.j2a.ID), itoa(e.j2b.ID)
		if id, body := admin.save(e.g2.ID, "loop", []string{"1:" + j2a + ":a", "2:" + j2b + ":b"}, "1 -> 2\n2 -> 1"); id != 0 ||
			!strings.Contains(body, "cycle") || !strings.Contains(body, "xj-wf-errors") || !strings.Contains(body, `value="loop"`) {
			t.Fatalf("a cycle saved as %d or not named: %s", id, body)
		}
		id, body := admin.save(e.g2.ID, evilName, []string{"1:" + j2a + ":" + evilLabel, "2:" + j2b + ":load"}, "1 -> 2")
		if id == 0 {
			t.Fatalf("save refused: %s", body)
		}
		other, body := admin.save(e.g3.ID, "team three", []string{"1:" + itoa(e.j3.ID) + ":x"}, "")
		if other == 0 {
			t.Fatalf("save refused: %s", body)
		}
		for _, page := range []string{e.wf(), e.wf() + "/edit?id=" + itoa(id)} {
			status, body := admin.get(page)
			if status != 200 || strings.Contains(body, evilName) || strings.Contains(body, evilLabel) || strings.Contains(body, e.j2a.JobDesc) {
				t.Fatalf("%s (%d) shows markup unescaped", page, status)
			}
			if !strings.Contains(body, "&lt;script&gt;") {
				t.Fatalf("%s lacks the escaped name", page)
			}
		}
		if _, body := admin.get(e.wf() + "/edit?id=" + itoa(id)); !strings.Contains(body, "has its own CRON schedule") {
			t.Fatalf("the editor does not warn of node 1's own schedule")
		}

		normal := e.login("normal1")
		if _, body := normal.get(e.wf()); !strings.Contains(body, "&lt;script&gt;") || strings.Contains(body, "team three") {
			t.Fatalf("a normal user's list is not their group's")
		}
		for _, page := range []string{"/runs?id=" + itoa(other), "/edit?id=" + itoa(other), "?jobGroup=" + itoa(e.g3.ID)} {
			if _, body := normal.get(e.wf() + page); strings.Contains(body, "team three") || !strings.Contains(strings.ToLower(body), "permission") {
				t.Fatalf("%s: a normal user reaches another group's workflow", page)
			}
		}
		if id, _ := normal.save(e.g3.ID, "sneaky", []string{"1:" + itoa(e.j3.ID) + ":x"}, ""); id != 0 {
			t.Fatalf("a normal user saved a workflow of another group")
		}

		// A run: node 1 triggered (no executor answers), node 2 waits.
		status, loc, _ := normal.post(e.wf()+"/action", url.Values{"action": {"start"}, "id": {itoa(id)}, "params": {"day=<b>1</b>"}})
		if status != http.StatusSeeOther || !strings.Contains(loc, "/run?") {
			t.Fatalf("start: %d %s", status, loc)
		}
		u, _ := url.Parse(loc)
		runID := u.Query().Get("id")
		_, body = normal.get(e.wf() + "/run?id=" + runID)
		if !strings.Contains(body, `data-node="1" data-state="TRIGGERED"`) || !strings.Contains(body, `data-node="2" data-state="WAITING"`) ||
			strings.Contains(body, "<b>1</b>") || strings.Contains(body, "(job deleted)</td>") || !strings.Contains(body, "day=&lt;b&gt;1&lt;/b&gt;") || strings.Contains(body, evilLabel) {
			t.Fatalf("run page: %s", body)
		}
		act := func(action, node string) {
			t.Helper()
			status, loc, body := normal.post(e.wf()+"/action", url.Values{"action": {action}, "runId": {runID}, "nodeId": {node}})
			done := action
			if action == "rerun" {
				done = "start" // a new run
			}
			if status != http.StatusSeeOther || !strings.Contains(loc, "done="+done) {
				t.Fatalf("%s %s: %d %s %s", action, node, status, loc, body)
			}
		}
		act("mark", "1")
		_, body = normal.get(e.wf() + "/run?id=" + runID)
		if !strings.Contains(body, `data-node="1" data-state="SUCCEEDED"`) || !strings.Contains(body, `data-node="2" data-state="TRIGGERED"`) {
			t.Fatalf("after marking node 1: %s", body)
		}
		// Node 2 is at an executor when the run stops: the stop kills it there.
		logID := e.nodeLog(mustInt64(t, runID), 2)
		act("stop", "")
		e.exec.mu.Lock()
		kills := e.exec.killCalls
		e.exec.mu.Unlock()
		if len(kills) != 1 || kills[0].JobID != e.j2b.ID {
			t.Fatalf("the stop killed %+v, want node 2's job %d (log %d)", kills, e.j2b.ID, logID)
		}
		_, body = normal.get(e.wf() + "/run?id=" + runID)
		if !strings.Contains(body, `data-node="2" data-state="STOPPED"`) || !strings.Contains(body, "xj-wf-retry") || strings.Contains(body, "xj-wf-stop") {
			t.Fatalf("after the stop: %s", body)
		}
		// A second stop is refused with the reason, nothing changes.
		if status, _, body := normal.post(e.wf()+"/action", url.Values{"action": {"stop"}, "runId": {runID}}); status != 200 ||
			!strings.Contains(body, "not possible in its current state") {
			t.Fatalf("second stop: %d %s", status, body)
		}
		act("skip", "2")
		act("retry", "")
		act("rerun", "")
		if _, body := normal.get(e.wf() + "/runs?id=" + itoa(id)); strings.Count(body, "/run?id=") != 2 {
			t.Fatalf("the run list does not show the two runs: %s", body)
		}
		if _, body := normal.get(e.wf() + "/runs?state=STOPPED&id=" + itoa(id)); strings.Count(body, "/run?id=") != 0 {
			t.Fatalf("the run list filtered by STOPPED shows runs: %s", body)
		}
		if _, body := normal.get(e.wf() + "/runs?state=SUCCEEDED&id=" + itoa(id)); strings.Count(body, "/run?id=") != 1 {
			t.Fatalf("the run list filtered by SUCCEEDED: %s", body)
		}

		// Deleting: not another group's, one's own; its runs stay.
		if status, _, _ := normal.post(e.wf()+"/action", url.Values{"action": {"delete"}, "id": {itoa(other)}}); status == http.StatusSeeOther {
			t.Fatalf("a normal user deleted another group's workflow")
		}
		if status, _, _ := normal.post(e.wf()+"/action", url.Values{"action": {"delete"}, "id": {itoa(id)}}); status != http.StatusSeeOther {
			t.Fatalf("delete: %d", status)
		}
		if _, body := admin.get(e.wf()); strings.Contains(body, "&lt;script&gt;") || !strings.Contains(body, "team three") {
			t.Fatalf("after the delete the list shows: %s", body)
		}
		if _, body := admin.get(e.wf() + "/run?id=" + runID); !strings.Contains(body, `data-node="1"`) {
			t.Fatalf("a deleted workflow's run page: %s", body)
		}
	})
}

func mustInt64(t *testing.T, s string) int64 {
	t.Helper()
	n, err := strconv.ParseInt(s, 10, 64)
	if err != nil {
		t.Fatal(err)
	}
	return n
}

// TestWorkflowPagesParent: the editor's "after a job" schedule in both
// looks: the parent picked from the group's jobs (their descriptions, with
// markup, only ever escaped), a parent that is a node's job or not a job
// id refused with the reason, the list naming the parent, and a run the
// parent's success started linking to the parent's log on the run list and
// the run page.
func TestWorkflowPagesParent(t *testing.T) {
	bothConsoles(t, func(t *testing.T, gen3 bool) {
		e := newWfEnv(t, gen3, true)
		admin := e.login("admin")
		save := func(parent string) (int, string) {
			f := url.Values{"id": {"0"}, "jobGroup": {itoa(e.g2.ID)}, "name": {"after extract"}, "scheduleType": {"JOB"},
				"parentJob": {parent}, "misfire": {"DO_NOTHING"}, "policy": {"SKIP"}, "maxParallel": {"1"}, "enabled": {"on"},
				"edges": {""}, "node_id": {"1"}, "node_job": {itoa(e.j2b.ID)}, "node_label": {"load"}, "node_rule": {"all_success"},
				"node_param": {""}}
			status, loc, body := admin.post(e.wf()+"/save", f)
			if status != http.StatusSeeOther {
				return 0, body
			}
			u, _ := url.Parse(loc)
			return int(mustInt64(t, u.Query().Get("id"))), body
		}
		const evil = `"><script>alert(3)</script>`
		for parent, want := range map[string]string{itoa(e.j2b.ID): "is the job of node 1", evil: "want the id of the parent job"} {
			if id, body := save(parent); id != 0 || !strings.Contains(body, want) || strings.Contains(body, evil) {
				t.Fatalf("parent %q saved as %d or refused without %q: %s", parent, id, want, body)
			}
		}
		id, body := save(itoa(e.j2a.ID))
		if id == 0 {
			t.Fatalf("save refused: %s", body)
		}
		_, body = admin.get(e.wf() + "/edit?id=" + itoa(id))
		if !strings.Contains(body, `<option value="`+itoa(e.j2a.ID)+`" selected>`) || !strings.Contains(body, `value="JOB" selected`) ||
			strings.Contains(body, e.j2a.JobDesc) || !strings.Contains(body, "After a job") {
			t.Fatalf("the editor does not show the parent picked, escaped: %s", body)
		}
		_, body = admin.get(e.wf())
		if !strings.Contains(body, "After a job: "+itoa(e.j2a.ID)+" extract &lt;img") || strings.Contains(body, e.j2a.JobDesc) {
			t.Fatalf("the list does not name the parent, escaped: %s", body)
		}

		// A Java admin stores the parent's success: our pass starts the run.
		parentLog := testfactory.Log(t, e.store, testfactory.LogOpts{Group: e.g2.ID, Job: e.j2a.ID, TriggerCode: 200, HandleCode: 200})
		if err := e.engine.Pass(context.Background()); err != nil {
			t.Fatal(err)
		}
		link := "joblog/logDetailPage?id=" + strconv.FormatInt(parentLog.ID, 10)
		_, body = admin.get(e.wf() + "/runs?id=" + itoa(id))
		if !strings.Contains(body, "PARENT") || !strings.Contains(body, link) || strings.Count(body, "/run?id=") != 1 {
			t.Fatalf("the run list does not link the parent's log %d: %s", parentLog.ID, body)
		}
		runs, err := e.store.WorkflowRunList(context.Background(), id, 0, 10)
		if err != nil || len(runs) != 1 {
			t.Fatalf("runs: %+v, %v", runs, err)
		}
		_, body = admin.get(e.wf() + "/run?id=" + strconv.FormatInt(runs[0].ID, 10))
		if !strings.Contains(body, "Parent log") || !strings.Contains(body, link) {
			t.Fatalf("the run page does not link the parent's log: %s", body)
		}
	})
}
