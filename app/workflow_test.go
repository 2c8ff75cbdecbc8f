package app_test

import (
	"context"
	"io"
	"net/http"
	"net/http/cookiejar"
	neturl "net/url"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/xxl-admin-go/xxl-admin-go/app"
	"github.com/xxl-admin-go/xxl-admin-go/compat/schema"
	"github.com/xxl-admin-go/xxl-admin-go/core/workflow"
	"github.com/xxl-admin-go/xxl-admin-go/internal/testsupport/fakeexec"
	"github.com/xxl-admin-go/xxl-admin-go/internal/testsupport/storetest"
	"github.com/xxl-admin-go/xxl-admin-go/internal/testsupport/testfactory"
)

// TestWorkflowsOff: by default an admin creates no workflow table and
// runs nothing of workflows.
func TestWorkflowsOff(t *testing.T) {
	url := "jdbc:sqlite:" + filepath.Join(t.TempDir(), "xxl-job.db")
	a := startAdmin(t, app.Options{}, "--spring.datasource.url="+url)
	if err := a.stop(); err != nil {
		t.Fatal(err)
	}
	target, err := schema.ParseJDBC(url, "", "")
	if err != nil {
		t.Fatal(err)
	}
	s, err := schema.Open(context.Background(), target, schema.PoolSettings{MaxOpen: 1}) // no Prepare
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if _, err := s.WorkflowList(context.Background(), 0); err == nil || strings.Contains(a.logs.String(), "workflow") {
		t.Errorf("workflows off: the table exists (%v) or the start-up mentions workflows", err)
	}
}

// TestWorkflowsWired: with xxl.job.workflows.enabled=true an admin creates
// the tables and says so, its workflow scheduler starts a FIX_RATE
// workflow, and the run goes through the trigger door, the executor and
// the callback to its end, each node once.
func TestWorkflowsWired(t *testing.T) {
	url := "jdbc:sqlite:" + filepath.Join(t.TempDir(), "xxl-job.db")
	s := storetest.Open(t, url, "", "")
	exec := fakeexec.Start(fakeexec.Config{})
	t.Cleanup(exec.Close)
	group := testfactory.Group(t, s, testfactory.GroupOpts{AddressType: 1, AddressList: schema.Ptr(exec.Address())})
	first := testfactory.Job(t, s, testfactory.JobOpts{Group: group.ID, Handler: "h"})
	second := testfactory.Job(t, s, testfactory.JobOpts{Group: group.ID, Handler: "h"})
	third := testfactory.Job(t, s, testfactory.JobOpts{Group: group.ID, Handler: "h"})

	a := startAdmin(t, app.Options{}, "--spring.datasource.url="+url, "--xxl.job.workflows.enabled=true")
	if !strings.Contains(a.logs.String(), "created our workflow tables") {
		t.Fatalf("no start-up line for the workflow tables\n%s", a.logs.String())
	}
	exec.SetAdmins([]fakeexec.Endpoint{{URL: a.base + "/xxl-job-admin", Token: "default_token"}})
	// Before the admin stops (cleanups run last first): a connection the
	// callbacks' client dialled and never used would hold the admin's
	// graceful shutdown for 5 s (net/http treats a new connection as idle
	// only after that).
	t.Cleanup(http.DefaultClient.CloseIdleConnections)
	ctx := context.Background()
	// A workflow after the second job: its success in the run below
	// starts it (trigger PARENT), through the admin's completer.
	after, err := workflow.Save(ctx, s, workflow.Workflow{JobGroup: group.ID, Name: "after second", Enabled: true,
		Graph:    workflow.Graph{Nodes: []workflow.Node{{ID: 1, JobID: third.ID}}},
		Schedule: workflow.Schedule{Type: workflow.ScheduleJob, Conf: strconv.Itoa(second.ID)}}, time.Now(), time.Local)
	if err != nil {
		t.Fatal(err)
	}
	w := workflow.Workflow{JobGroup: group.ID, Name: "wired", Enabled: true,
		Graph:    workflow.Graph{Nodes: []workflow.Node{{ID: 1, JobID: first.ID}, {ID: 2, JobID: second.ID}}, Edges: []workflow.Edge{{From: 1, To: 2}}},
		Schedule: workflow.Schedule{Type: "FIX_RATE", Conf: "3600"}}
	id, err := workflow.Save(ctx, s, w, time.Now().Add(-3600*time.Second), time.Local) // due now
	if err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(20 * time.Second)
	for {
		runs, err := s.WorkflowRunList(ctx, id, 0, 10)
		if err != nil {
			t.Fatal(err)
		}
		if len(runs) == 1 && workflow.RunState(runs[0].State).Final() {
			if runs[0].State != string(workflow.RunSucceeded) {
				t.Fatalf("run %+v", runs[0])
			}
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("runs %+v\n%s", runs, a.logs.String())
		}
		time.Sleep(20 * time.Millisecond)
	}
	for _, job := range []int{first.ID, second.ID} {
		rows, _, err := s.LogPageList(ctx, 0, 10, schema.LogFilter{JobID: job})
		if err != nil || len(rows) != 1 || rows[0].HandleCode != 200 {
			t.Fatalf("job %d: log rows %+v, %v", job, rows, err)
		}
		if e := exec.Entry(rows[0].ID); e.Received != 1 || e.Started != 1 {
			t.Fatalf("job %d at the executor: %+v", job, e)
		}
	}
	for {
		runs, err := s.WorkflowRunList(ctx, after, 0, 10)
		if err != nil {
			t.Fatal(err)
		}
		if len(runs) == 1 && workflow.RunState(runs[0].State).Final() {
			parents, err := s.WorkflowRunParents(ctx, []int64{runs[0].ID})
			rows, _, lerr := s.LogPageList(ctx, 0, 10, schema.LogFilter{JobID: second.ID})
			if err != nil || lerr != nil || runs[0].State != string(workflow.RunSucceeded) || runs[0].TriggerType != workflow.TriggerParent ||
				len(rows) != 1 || parents[runs[0].ID] != rows[0].ID {
				t.Fatalf("run after the parent %+v, parent log %v, second's logs %+v (%v %v)", runs[0], parents, rows, err, lerr)
			}
			break
		}
		if len(runs) > 1 || time.Now().After(deadline) {
			t.Fatalf("runs after the parent %+v\n%s", runs, a.logs.String())
		}
		time.Sleep(20 * time.Millisecond)
	}
	// The console has the workflow pages: the run's page shows it.
	jar, _ := cookiejar.New(nil)
	c := &http.Client{Jar: jar}
	resp, err := c.PostForm(a.base+"/xxl-job-admin/login", neturl.Values{"userName": {"admin"}, "password": {"123456"}})
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	resp, err = c.Get(a.base + "/xxl-job-admin/workflow/runs?id=" + strconv.Itoa(id))
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != 200 || !strings.Contains(string(body), "wired") || !strings.Contains(string(body), "SUCCEEDED") {
		t.Fatalf("the console's run list of the workflow: %d\n%s", resp.StatusCode, body)
	}
}
