package console

import (
	"context"
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/xxl-admin-go/xxl-admin-go/compat/schema"
	"github.com/xxl-admin-go/xxl-admin-go/core/workflow"
	"github.com/xxl-admin-go/xxl-admin-go/internal/testsupport/browser"
	"github.com/xxl-admin-go/xxl-admin-go/internal/testsupport/testfactory"
)

// wfPlanted lists elements only injected markup could have made: images,
// inline scripts, on* attributes, and SVG anywhere but the graph the page
// script draws (browser.PlantedJS without the graph's SVG).
const wfPlanted = `(function () {
	var bad = [];
	document.querySelectorAll('*').forEach(function (e) {
		var tag = e.tagName.toLowerCase();
		var hit = tag === 'img' || (tag === 'svg' && !e.closest('#xj-wf-graph')) ||
			(tag === 'script' && !e.src && e.type !== 'application/json');
		for (var i = 0; i < e.attributes.length; i++) {
			if (/^on/i.test(e.attributes[i].name)) { hit = true; }
		}
		if (hit) { bad.push(e.outerHTML.slice(0, 120)); }
	});
	return bad;
})()`

// wfClean fails the test on the page's problems (exceptions, CSP
// violations, failed loads, dialogs) and on injected elements.
func wfClean(tab *browser.Tab, what string) {
	tab.T.Helper()
	for _, p := range tab.Problems() {
		if !strings.Contains(p, "favicon") {
			tab.T.Errorf("%s: %s", what, p)
		}
	}
	var bad []string
	tab.Run(wfPlanted, &bad)
	for _, b := range bad {
		tab.T.Errorf("%s: injected markup became an element: %s", what, b)
	}
}

// wfScreenshot saves the viewport as NAME.png in XXL_PAGES_SCREENSHOTS
// (v3/ for the 3.4.2 look), when set (scripts/screenshots.sh).
func wfScreenshot(tab *browser.Tab, gen3 bool, name string) {
	dir := os.Getenv(browser.EnvScreenshots)
	if dir == "" {
		return
	}
	if gen3 {
		dir = filepath.Join(dir, "v3")
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		tab.T.Fatal(err)
	}
	png, err := tab.Page.Screenshot(tab.Ctx)
	if err != nil {
		tab.T.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, name+".png"), png, 0o644); err != nil {
		tab.T.Fatal(err)
	}
}

// wfLogin logs the tab in through the console's own login endpoint.
func wfLogin(tab *browser.Tab, e *wfEnv, user string) {
	tab.T.Helper()
	login, path := ctxPath+"/toLogin", ctxPath+"/login"
	if e.gen3 {
		login, path = ctxPath+"/auth/login", ctxPath+"/auth/doLogin"
	}
	tab.Open(e.srv.URL + login)
	got := tab.Str(`fetch(` + strconv.Quote(path) + `, {method: 'POST', headers: {'Content-Type': 'application/x-www-form-urlencoded'},
		body: 'userName=` + user + `&password=123456'}).then(function (r) { return r.text(); })`)
	if !strings.Contains(got, `"code":200`) {
		tab.T.Fatalf("login: %s", got)
	}
}

const wfNodes = `document.querySelectorAll('#xj-wf-graph g.xj-wf-g-node').length`

// TestWorkflowBrowser drives the workflow pages in headless Chromium on
// both looks: the editor drawing a graph as nodes are typed and an edge
// as two nodes are clicked, saving, and showing the saved graph and its
// warning; the list; the run list starting a run with parameters; the run
// page colouring nodes by state, linking a node to its log, and an
// operator's action. Every name field carries markup that must stay text.
func TestWorkflowBrowser(t *testing.T) {
	path := os.Getenv(browser.EnvChromium)
	if path == "" {
		t.Skip("[suite-off] " + browser.EnvChromium + " not set (a Chromium binary)")
	}
	b, err := browser.Launch(path)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = b.Close() })
	const evilName = `<img src=x onerror=alert("name")>`
	const evilLabel = `<svg onload=alert("label")>`
	const evilParams = `day=<img src=x onerror=alert("param")>`
	bothConsoles(t, func(t *testing.T, gen3 bool) {
		e := newWfEnv(t, gen3, true)
		tab := browser.NewTab(t, b, time.Minute)
		wfLogin(tab, e, "admin")

		// The editor of a new workflow: type two nodes, click one then
		// the other to draw the edge, save.
		tab.Open(e.srv.URL + e.wf() + "/edit?jobGroup=" + itoa(e.g2.ID))
		tab.Wait(`window.dagre && document.getElementById('xj-wf-add-node') && !document.getElementById('xj-wf-add-node').classList.contains('hidden')`)
		tab.Set(`#xj-wf-name`, evilName)
		row := func(i int, field, v string) {
			tab.Set(fmt.Sprintf(`#xj-wf-nodes tbody tr:nth-child(%d) [name=%s]`, i, field), v)
		}
		row(1, "node_id", "1")
		row(1, "node_job", itoa(e.j2a.ID))
		row(1, "node_label", evilLabel)
		row(2, "node_id", "2")
		row(2, "node_job", itoa(e.j2b.ID))
		row(2, "node_label", "load")
		tab.Wait(wfNodes + ` === 2`)
		click := func(node int) {
			tab.Run(fmt.Sprintf(`document.querySelector('#xj-wf-graph g[data-node="%d"]').dispatchEvent(new MouseEvent('click', {bubbles: true})), true`, node), nil)
		}
		click(1)
		tab.Wait(`document.querySelector('#xj-wf-graph g[data-node="1"]').classList.contains('xj-wf-picked')`)
		click(2)
		tab.Wait(`document.querySelectorAll('#xj-wf-graph path.xj-wf-g-edge').length === 1`)
		if edges := tab.Str(`document.getElementById('xj-wf-edges').value`); strings.TrimSpace(edges) != "1 -> 2" {
			t.Fatalf("clicking node 1 then node 2 wrote edges %q", edges)
		}
		tab.Click(`#xj-wf-add-node`)
		if id := tab.Str(`document.querySelector('#xj-wf-nodes tbody tr:last-child [name=node_id]').value`); id != "3" {
			t.Fatalf("a node added has id %q, want 3", id)
		}
		tab.Landing(e.srv.URL+e.wf()+"/edit?id=", func() { tab.Click(`.xj-wf-save`) })
		tab.Wait(`document.querySelector('.xj-wf-saved') && ` + wfNodes + ` === 2`)
		if got := tab.Str(`document.querySelector('#xj-wf-graph g[data-node="1"] title').textContent`); !strings.Contains(got, evilLabel) {
			t.Fatalf("node 1's title is %q, want its label as text", got)
		}
		if w := tab.Str(`document.querySelector('.xj-wf-warnings').textContent`); !strings.Contains(w, "has its own CRON schedule") {
			t.Fatalf("warnings: %q", w)
		}
		if v := tab.Str(`document.getElementById('xj-wf-name').value`); v != evilName {
			t.Fatalf("the saved name reads %q", v)
		}
		wfClean(tab, "editor")
		wfScreenshot(tab, gen3, "workflow_editor.en")
		id, err := strconv.Atoi(tab.Str(`document.querySelector('#xj-wf-form [name=id]').value`))
		if err != nil || id == 0 {
			t.Fatalf("the saved editor shows id %d (%v)", id, err)
		}

		// The list shows it; its run list starts a run with parameters.
		tab.Open(e.srv.URL + e.wf())
		tab.Wait(`document.querySelector('.xj-wf-table tbody tr[data-id]')`)
		if got := tab.Str(`document.querySelector('.xj-wf-table .xj-wf-name').textContent`); got != evilName {
			t.Fatalf("the list shows the name %q", got)
		}
		wfClean(tab, "list")
		tab.Open(e.srv.URL + e.wf() + "/runs?id=" + itoa(id))
		tab.Set(`#xj-wf-run-params`, evilParams)
		tab.Landing(e.srv.URL+e.wf()+"/run?", func() { tab.Click(`.xj-wf-start button[type=submit]`) })
		tab.Wait(wfNodes + ` === 2`)
		runID, _ := strconv.ParseInt(tab.Str(`new URLSearchParams(location.search).get('id')`), 10, 64)

		// Node 1 is at an executor: give it a log row, as the trigger
		// flow would, and look again.
		logID := e.nodeLog(runID, 1)
		tab.Open(e.srv.URL + e.wf() + "/run?id=" + strconv.FormatInt(runID, 10))
		tab.Wait(wfNodes + ` === 2`)
		var classes []string
		tab.Run(`Array.prototype.map.call(document.querySelectorAll('#xj-wf-graph g.xj-wf-g-node'), function (g) { return g.getAttribute('class'); })`, &classes)
		if len(classes) != 2 || !strings.Contains(classes[0], "xj-wf-g-TRIGGERED") || !strings.Contains(classes[1], "xj-wf-g-WAITING") {
			t.Fatalf("node classes %v", classes)
		}
		wantLog := ctxPath + "/joblog/logDetailPage?id=" + strconv.FormatInt(logID, 10)
		if href := tab.Str(`document.querySelector('#xj-wf-graph a.xj-wf-g-link').getAttribute('href')`); href != wantLog {
			t.Fatalf("node 1 links to %q, want %q", href, wantLog)
		}
		if href := tab.Str(`document.querySelector('#xj-wf-run-nodes a.xj-wf-log').getAttribute('href')`); href != wantLog {
			t.Fatalf("node 1's row links to %q", href)
		}
		if got := tab.Str(`document.querySelector('.xj-wf-run-info .xj-wf-params').textContent`); strings.TrimSpace(got) != evilParams {
			t.Fatalf("the run's parameters read %q", got)
		}
		wfClean(tab, "run page")
		wfScreenshot(tab, gen3, "workflow_run.en")
		tab.Landing(e.srv.URL+e.wf()+"/run?", func() { tab.Click(`tr[data-node="1"] .xj-wf-mark`) })
		tab.Wait(`document.querySelector('.xj-wf-done') && document.querySelector('#xj-wf-graph g[data-node="1"]') &&
			document.querySelector('#xj-wf-graph g[data-node="1"]').getAttribute('class').indexOf('xj-wf-g-SUCCEEDED') >= 0`)
		wfClean(tab, "run page after an action")
		tab.Open(e.srv.URL + e.wf() + "/runs?id=" + itoa(id))
		tab.Wait(`document.querySelector('.xj-wf-table tbody tr[data-id]')`)
		if got := tab.Str(`document.querySelector('.xj-wf-table .xj-wf-params').textContent`); strings.TrimSpace(got) != evilParams {
			t.Fatalf("the run list shows the parameters %q", got)
		}
		wfClean(tab, "run list")

		// A workflow after a job: the picker shows when "after a job" is
		// chosen, offers the group's jobs (a description with markup stays
		// text), and a run the parent's success started links to its log.
		tab.Open(e.srv.URL + e.wf() + "/edit?jobGroup=" + itoa(e.g2.ID))
		tab.Wait(`window.dagre && document.querySelector('.xj-wf-parent-row').classList.contains('hidden')`)
		tab.Set(`#xj-wf-name`, "after extract")
		tab.Set(`#xj-wf-stype`, "JOB")
		tab.Wait(`!document.querySelector('.xj-wf-parent-row').classList.contains('hidden')`)
		if got := tab.Str(`document.querySelector('#xj-wf-parent option[value="` + itoa(e.j2a.ID) + `"]').textContent`); !strings.Contains(got, e.j2a.JobDesc) {
			t.Fatalf("the parent picker offers %q for job %d", got, e.j2a.ID)
		}
		tab.Set(`#xj-wf-parent`, itoa(e.j2a.ID))
		tab.Click(`#xj-wf-form [name=enabled]`)
		row(1, "node_id", "1")
		row(1, "node_job", itoa(e.j2b.ID))
		tab.Landing(e.srv.URL+e.wf()+"/edit?id=", func() { tab.Click(`.xj-wf-save`) })
		tab.Wait(`document.querySelector('.xj-wf-saved')`)
		if v := tab.Str(`document.getElementById('xj-wf-parent').value`); v != itoa(e.j2a.ID) {
			t.Fatalf("the saved editor's parent is %q", v)
		}
		wfClean(tab, "editor after a job")
		child, err := strconv.Atoi(tab.Str(`document.querySelector('#xj-wf-form [name=id]').value`))
		if err != nil || child == 0 {
			t.Fatalf("the saved editor shows id %d (%v)", child, err)
		}
		parentLog := testfactory.Log(t, e.store, testfactory.LogOpts{Group: e.g2.ID, Job: e.j2a.ID, TriggerCode: 200, HandleCode: 200})
		if err := e.engine.Pass(context.Background()); err != nil {
			t.Fatal(err)
		}
		runs, err := e.store.WorkflowRunList(context.Background(), child, 0, 10)
		if err != nil || len(runs) != 1 {
			t.Fatalf("runs after the parent's success: %+v, %v", runs, err)
		}
		tab.Open(e.srv.URL + e.wf() + "/run?id=" + strconv.FormatInt(runs[0].ID, 10))
		tab.Wait(wfNodes + ` === 1`)
		wantParent := ctxPath + "/joblog/logDetailPage?id=" + strconv.FormatInt(parentLog.ID, 10)
		if href := tab.Str(`document.querySelector('.xj-wf-run-info a.xj-wf-parent-log').getAttribute('href')`); href != wantParent {
			t.Fatalf("the run page links the parent log as %q, want %q", href, wantParent)
		}
		wfClean(tab, "run page after a job")
	})
}

// nodeLog gives a node of a run a log row of its job, as the trigger flow
// does when it writes the node's log, and returns its id.
func (e *wfEnv) nodeLog(runID int64, node int) int64 {
	e.t.Helper()
	ctx := context.Background()
	nodes, err := e.store.WorkflowNodeRuns(ctx, []int64{runID}, false)
	if err != nil {
		e.t.Fatal(err)
	}
	for _, n := range nodes {
		if n.NodeID != node {
			continue
		}
		l := testfactory.Log(e.t, e.store, testfactory.LogOpts{Group: e.g2.ID, Job: n.JobID, TriggerCode: 200,
			Address: schema.Ptr("http://127.0.0.1:19991/")})
		ok, err := e.store.WorkflowNodeRunMove(ctx, schema.NodeRunMove{ID: n.ID, From: n.State, FromAttempt: n.Attempt, To: n.State,
			Attempt: max(n.Attempt, 1), LogID: l.ID, At: time.Now()})
		if err != nil || !ok {
			e.t.Fatalf("node %d: move %v %v", node, ok, err)
		}
		if err := e.store.WorkflowNodeLogsAdd(ctx, []schema.WorkflowNodeLog{{LogID: l.ID, NodeRunID: n.ID, Attempt: max(n.Attempt, 1)}}); err != nil {
			e.t.Fatal(err)
		}
		return l.ID
	}
	e.t.Fatalf("run %d has no node %d", runID, node)
	return 0
}

// TestWorkflowBrowser500: a workflow of 500 nodes (a binary tree) saves
// through the editor's form and renders in the editor and on a run page,
// on both looks.
func TestWorkflowBrowser500(t *testing.T) {
	path := os.Getenv(browser.EnvChromium)
	if path == "" {
		t.Skip("[suite-off] " + browser.EnvChromium + " not set (a Chromium binary)")
	}
	b, err := browser.Launch(path)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = b.Close() })
	bothConsoles(t, func(t *testing.T, gen3 bool) {
		e := newWfEnv(t, gen3, true)
		c := e.login("admin")
		nodes := make([]string, 0, 500)
		var edges strings.Builder
		for i := 1; i <= 500; i++ {
			nodes = append(nodes, fmt.Sprintf("%d:%d:step %d", i, e.j2b.ID, i))
			if i > 1 {
				fmt.Fprintf(&edges, "%d -> %d\n", i/2, i)
			}
		}
		id, body := c.save(e.g2.ID, "five hundred", nodes, edges.String())
		if id == 0 {
			t.Fatalf("500 nodes refused: %s", body)
		}
		d, err := workflow.Load(context.Background(), e.store, id)
		if err != nil || len(d.Workflow.Graph.Nodes) != 500 || len(d.Workflow.Graph.Edges) != 499 {
			t.Fatalf("stored: %d nodes, %d edges, %v", len(d.Workflow.Graph.Nodes), len(d.Workflow.Graph.Edges), err)
		}
		// Started before the browser logs in: a 3.x login ends the user's
		// other sessions.
		status, loc, _ := c.post(e.wf()+"/action", url.Values{"action": {"start"}, "id": {itoa(id)}})
		if status != 303 {
			t.Fatalf("start: %d", status)
		}
		tab := browser.NewTab(t, b, time.Minute)
		wfLogin(tab, e, "admin")
		start := time.Now()
		tab.Open(e.srv.URL + e.wf() + "/edit?id=" + itoa(id))
		tab.Wait(wfNodes + ` === 500 && document.querySelectorAll('#xj-wf-graph path.xj-wf-g-edge').length === 499`)
		t.Logf("editor of 500 nodes drawn in %v", time.Since(start))
		wfClean(tab, "editor of 500 nodes")
		start = time.Now()
		tab.Open(e.srv.URL + loc)
		tab.Wait(wfNodes + ` === 500 && document.querySelectorAll('#xj-wf-run-nodes tbody tr').length === 500`)
		t.Logf("run page of 500 nodes drawn in %v", time.Since(start))
		wfClean(tab, "run page of 500 nodes")
	})
}
