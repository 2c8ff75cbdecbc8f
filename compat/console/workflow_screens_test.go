package console

import (
	"context"
	"net/url"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/xxl-admin-go/xxl-admin-go/compat/schema"
	"github.com/xxl-admin-go/xxl-admin-go/core/workflow"
	"github.com/xxl-admin-go/xxl-admin-go/internal/testsupport/browser"
	"github.com/xxl-admin-go/xxl-admin-go/internal/testsupport/testfactory"
)

// TestWorkflowScreens shows docs/workflows.md's example, an ETL fan-in,
// in the editor and on a run page whose nodes stand in every colour
// (two extracts succeeded, the transform failed, the load skipped, the
// alert on one_failed at its executor), on both looks; with
// XXL_PAGES_SCREENSHOTS set it saves the pictures the page shows
// (scripts/screenshots.sh).
func TestWorkflowScreens(t *testing.T) {
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
		ctx := context.Background()
		job := func(desc string) string {
			return itoa(testfactory.Job(t, e.store, testfactory.JobOpts{Group: e.g2.ID, Desc: desc}).ID)
		}
		orders, users, transform, load, alert := job("extract orders"), job("extract users"), job("transform"), job("load warehouse"), job("page on-call")
		c := e.login("admin")
		f := url.Values{"id": {"0"}, "jobGroup": {itoa(e.g2.ID)}, "name": {"nightly ETL"}, "scheduleType": {"CRON"},
			"scheduleConf": {"0 0 2 * * ?"}, "timeZone": {"Europe/Berlin"}, "misfire": {"FIRE_ONCE_NOW"}, "policy": {"SKIP"},
			"maxParallel": {"1"}, "enabled": {"on"}, "params": {"day=today"},
			"edges": {"1 -> 3\n2 -> 3\n3 -> 4\n3 -> 5\n4 -> 5"}}
		for _, n := range [][4]string{{"1", orders, "orders", "all_success"}, {"2", users, "users", "all_success"},
			{"3", transform, "transform", "all_success"}, {"4", load, "load", "all_success"}, {"5", alert, "alert", "one_failed"}} {
			f.Add("node_id", n[0])
			f.Add("node_job", n[1])
			f.Add("node_label", n[2])
			f.Add("node_rule", n[3])
			f.Add("node_param", "")
		}
		f.Set("node_param", "--day=${param.day}") // the first node's own parameter
		status, loc, body := c.post(e.wf()+"/save", f)
		if status != 303 {
			t.Fatalf("save: %d %s", status, body)
		}
		u, _ := url.Parse(loc)
		id, _ := springInt(u.Query().Get("id"))
		runID, err := e.engine.StartRun(ctx, id, workflow.StartRequest{TriggerType: "CRON"})
		if err != nil {
			t.Fatal(err)
		}
		// The states a night with a failing transform leaves.
		set := map[int]workflow.NodeState{1: workflow.NodeSucceeded, 2: workflow.NodeSucceeded, 3: workflow.NodeFailed,
			4: workflow.NodeSkipped, 5: workflow.NodeTriggered}
		nodes, err := e.store.WorkflowNodeRuns(ctx, []int64{runID}, false)
		if err != nil {
			t.Fatal(err)
		}
		for _, n := range nodes {
			if _, err := e.store.WorkflowNodeRunMove(ctx, schema.NodeRunMove{ID: n.ID, From: n.State, FromAttempt: n.Attempt,
				To: string(set[n.NodeID]), Attempt: 1, At: time.Now()}); err != nil {
				t.Fatal(err)
			}
		}

		tab := browser.NewTab(t, b, time.Minute)
		wfLogin(tab, e, "admin")
		tab.Open(e.srv.URL + e.wf() + "/edit?id=" + itoa(id))
		tab.Wait(wfNodes + ` === 5`)
		wfClean(tab, "editor")
		wfScreenshot(tab, gen3, "workflow_editor_etl.en")
		tab.Open(e.srv.URL + e.wf() + "/run?id=" + itoa(int(runID)))
		tab.Wait(wfNodes + ` === 5`)
		var classes []string
		tab.Run(`Array.prototype.map.call(document.querySelectorAll('#xj-wf-graph g.xj-wf-g-node'), function (g) { return g.getAttribute('class'); })`, &classes)
		want := []string{"SUCCEEDED", "SUCCEEDED", "FAILED", "SKIPPED", "TRIGGERED"}
		for i, c := range classes {
			if i >= len(want) || !strings.Contains(c, "xj-wf-g-"+want[i]) {
				t.Fatalf("node classes %v, want %v", classes, want)
			}
		}
		wfClean(tab, "run page")
		wfScreenshot(tab, gen3, "workflow_run_etl.en")
	})
}
