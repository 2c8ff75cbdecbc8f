package openapi

import (
	"encoding/json"
	"os"
	"strings"
	"testing"

	"github.com/xxl-admin-go/xxl-admin-go/compat/api"
	"github.com/xxl-admin-go/xxl-admin-go/compat/schema"
	"github.com/xxl-admin-go/xxl-admin-go/core/trigger"
	"github.com/xxl-admin-go/xxl-admin-go/internal/testsupport/storetest"
	"github.com/xxl-admin-go/xxl-admin-go/internal/testsupport/testfactory"
)

// TestPipelineAppliesTwice is the "done when": a pipeline applies
// the same job file twice — groups with POST /groups, jobs with PUT
// /jobs/apply — and the second run changes nothing: one group, one job per
// entry. POST /jobs of the same entries is then answered 200 with them.
func TestPipelineAppliesTwice(t *testing.T) {
	storetest.ForEach(t, func(t *testing.T, s *schema.Store) {
		e := newEnv(t, s, "")
		raw, err := os.ReadFile("testdata/pipeline.json")
		if err != nil {
			t.Fatal(err)
		}
		var file struct{ Groups, Jobs []json.RawMessage }
		if err := json.Unmarshal(raw, &file); err != nil {
			t.Fatal(err)
		}
		run := func() (statuses []int, outcomes []string, ids []float64) {
			for _, g := range file.Groups {
				a := e.call("POST", "/groups", string(g))
				statuses = append(statuses, a.status)
			}
			for _, j := range file.Jobs {
				a := e.call("PUT", "/jobs/apply", string(j))
				if a.status != 200 && a.status != 201 {
					t.Fatalf("apply: %d %s", a.status, a.body)
				}
				outcomes = append(outcomes, a.data()["outcome"].(string))
				ids = append(ids, a.data()["job"].(map[string]any)["id"].(float64))
			}
			return statuses, outcomes, ids
		}
		st1, out1, ids1 := run()
		st2, out2, ids2 := run()
		if strings.Join(out1, ",") != "created,created" || st1[0] != 201 {
			t.Errorf("first run: %v %v", st1, out1)
		}
		if strings.Join(out2, ",") != "unchanged,unchanged" || st2[0] != 200 {
			t.Errorf("second run: %v %v", st2, out2)
		}
		if ids1[0] != ids2[0] || ids1[1] != ids2[1] {
			t.Errorf("ids %v then %v", ids1, ids2)
		}
		g, _, _ := e.api.cfg.Jobs.FindGroup(t.Context(), "app-billing")
		if n, _ := s.JobCount(t.Context(), schema.JobFilter{JobGroup: g.ID}); n != 2 {
			t.Errorf("%d jobs in the group, want 2", n)
		}
		if all, _ := s.GroupFindAll(t.Context()); len(all) != 2 {
			t.Errorf("%d groups, want the seed and app-billing", len(all))
		}
		for i, j := range file.Jobs {
			a := e.call("POST", "/jobs", string(j))
			if a.status != 200 || a.data()["id"] != ids1[i] {
				t.Errorf("POST /jobs of entry %d: %d %s", i, a.status, a.body)
			}
		}
		inv, _ := s.JobLoad(t.Context(), int(ids1[0]))
		if inv.TriggerStatus != 1 || inv.JobDesc != "Send invoices [key:billing/invoices]" {
			t.Errorf("invoices job: status %d desc %q", inv.TriggerStatus, inv.JobDesc)
		}
	})
}

// TestPermissions: the token acts as xxl.job.openapi.user — a normal user
// sees and uses only its groups and manages none; a missing user is
// refused.
func TestPermissions(t *testing.T) {
	storetest.ForEach(t, func(t *testing.T, s *schema.Store) {
		mine := testfactory.ManualGroup(t, s, "http://127.0.0.1:19991/")
		myJob := testfactory.Job(t, s, testfactory.JobOpts{Group: mine.ID})
		testfactory.Log(t, s, testfactory.LogOpts{Group: 1, Job: 1, TriggerCode: 200})
		testfactory.User(t, s, testfactory.UserOpts{Username: "deployer", Permission: schema.Ptr(itoa(mine.ID))})
		e := newEnv(t, s, "deployer")
		for _, c := range []struct {
			method, path string
			body         any
			status       int
		}{
			{"GET", "/groups/1", nil, 403},
			{"GET", "/jobs/1", nil, 403},
			{"POST", "/jobs/1/start", nil, 403},
			{"POST", "/jobs/1/trigger", nil, 403},
			{"DELETE", "/jobs/1", nil, 403},
			{"GET", "/jobs?jobGroup=1", nil, 403},
			{"GET", "/logs?jobGroup=1", nil, 403},
			{"GET", "/logs/1", nil, 403},
			{"POST", "/groups", map[string]any{"appname": "app-new", "title": "new"}, 403},
			{"DELETE", "/groups/" + itoa(mine.ID), nil, 403},
			{"POST", "/import", `{"format":"xxl-admin-go/jobs","version":1,"groups":[],"jobs":[]}`, 403},
			{"POST", "/jobs", map[string]any{"jobGroup": 1, "jobDesc": "x", "author": "a", "scheduleType": "NONE", "executorHandler": "h"}, 403},
			{"PUT", "/jobs/" + itoa(myJob.ID), map[string]any{"jobGroup": 1}, 403},
			{"PUT", "/jobs/" + itoa(myJob.ID), map[string]any{"childJobIds": []int{1}}, 400}, // the console's child check
			{"GET", "/jobs/" + itoa(myJob.ID), nil, 200},
		} {
			if a := e.call(c.method, c.path, c.body); a.status != c.status {
				t.Errorf("%s %s: %d %s, want %d", c.method, c.path, a.status, a.body, c.status)
			}
		}
		for path, want := range map[string]int{"/groups": 1, "/jobs": 1, "/logs": 0, "/registry": 1} {
			if got := len(e.call("GET", path, nil).json()["data"].([]any)); got != want {
				t.Errorf("%s: %d rows, want %d (its own group only)", path, got, want)
			}
		}
		if a := e.call("GET", "/export", nil); len(a.data()["groups"].([]any)) != 1 {
			t.Errorf("export: %s", a.body)
		}
		gone := newEnv(t, s, "nobody")
		if a := gone.call("GET", "/groups", nil); a.status != 403 || !strings.Contains(a.json()["message"].(string), `user "nobody" (xxl.job.openapi.user), who does not exist`) {
			t.Errorf("missing user: %d %s", a.status, a.body)
		}
	})
}

// TestAuthAndProtocol: the token, the API switched off, unknown paths and
// methods, strict JSON bodies — each a JSON error with its status.
func TestAuthAndProtocol(t *testing.T) {
	s := storetest.SQLite(t)
	e := newEnv(t, s, "")
	a := e.callToken("GET", "/groups", nil, "")
	if a.status != 401 || a.header.Get("WWW-Authenticate") != `Bearer realm="xxl-admin-go"` || a.json()["code"] != "unauthorized" {
		t.Errorf("no token: %d %v %s", a.status, a.header, a.body)
	}
	none := testfactory.Job(t, s, testfactory.JobOpts{}) // schedule type NONE
	if a := e.callToken("GET", "/openapi.json", nil, ""); a.status != 200 {
		t.Errorf("document without token: %d", a.status)
	}
	for _, c := range []struct {
		method, path string
		body         any
		ctype        string
		status       int
		message      string
	}{
		{"GET", "/nothing", nil, "", 404, "no such endpoint: /xxl-job-admin/openapi/v1/nothing"},
		{"PATCH", "/jobs/1", nil, "", 405, "PATCH is not allowed here"},
		{"GET", "/jobs/abc", nil, "", 400, `id: "abc" is not a positive integer`},
		{"GET", "/jobs?limit=5000", nil, "", 400, "offset must be at least 0 and limit between 1 and 1000"},
		{"POST", "/jobs", `{"jobDescription":"x"}`, "application/json", 400, `invalid JSON body: unknown field "jobDescription"`},
		{"POST", "/jobs", `{"jobDesc":"x"} {}`, "application/json", 400, "invalid JSON body: data after the JSON value"},
		{"POST", "/jobs", `jobDesc=x`, "application/x-www-form-urlencoded", 415, "send the body as application/json"},
		{"POST", "/jobs", "", "application/json", 400, "a JSON body is required"},
		{"PUT", "/jobs/1", `{"alarmEmail":null}`, "application/json", 400, "invalid JSON body: alarmEmail is null: leave a member out to keep it"},
		{"POST", "/groups", `{"appname":"app-x","title":"x","addressType":1,"addressList":["http://a/",null]}`, "application/json", 400,
			"invalid JSON body: addressList[1] is null: leave a member out to keep it"},
		{"POST", "/jobs/1/trigger", `{"executorParam":null}`, "application/json", 400, "invalid JSON body: executorParam is null: leave a member out to keep it"},
		{"POST", "/jobs", `{"jobDesc":"` + strings.Repeat("x", maxBody) + `"}`, "application/json", 413, "request body larger than 10485760 bytes"},
		{"POST", "/jobs", `{"appname":"nope"}`, "application/json", 400, `appname: no executor group has the app name "nope"`},
		{"POST", "/jobs", `{"jobGroup":1,"jobDesc":"d","author":"a","scheduleType":"NONE"}`, "application/json", 400, "please input JobHandler"},
		{"POST", "/jobs/" + itoa(none.ID) + "/start", nil, "", 400, "The current schedule type disables startup"},
	} {
		a := e.callType(c.method, c.path, c.body, c.ctype)
		if a.status != c.status || a.json()["message"] != c.message {
			t.Errorf("%s %s: %d %s, want %d %q", c.method, c.path, a.status, a.body, c.status, c.message)
		}
	}
	if a := e.call("PATCH", "/jobs/1", nil); a.header.Get("Allow") != "GET, PUT, DELETE" && strings.Join(a.header.Values("Allow"), ", ") != "GET, PUT, DELETE" {
		t.Errorf("Allow %v", a.header.Values("Allow"))
	}
	off := newEnv(t, s, "")
	off.api.cfg.Token = ""
	if a := off.call("GET", "/groups", nil); a.status != 404 || a.json()["message"] != "the job API is off: set xxl.job.openapi.token" {
		t.Errorf("API off: %d %s", a.status, a.body)
	}
}

// TestRunOnceAndLogs: run once goes through the trigger door as an API
// trigger with the given parameter and addresses; the log text is raw; an
// executor that fails is a 502.
func TestRunOnceAndLogs(t *testing.T) {
	s := storetest.SQLite(t)
	e := newEnv(t, s, "")
	if a := e.call("POST", "/jobs/1/trigger", nil); a.status != 202 {
		t.Fatalf("trigger without body: %d %s", a.status, a.body)
	}
	e.call("POST", "/jobs/1/trigger", map[string]any{"executorParam": "p=1", "addressList": []string{"http://a/", "http://b/"}})
	if len(e.trig.reqs) != 2 {
		t.Fatalf("%d submits", len(e.trig.reqs))
	}
	r0, r1 := e.trig.reqs[0], e.trig.reqs[1]
	if r0.Type != trigger.TypeAPI || r0.ExecutorParam != nil || r0.AddressList != "" || r0.FailRetryCount != -1 {
		t.Errorf("bare trigger %+v", r0)
	}
	if r1.ExecutorParam == nil || *r1.ExecutorParam != "p=1" || r1.AddressList != "http://a/,http://b/" {
		t.Errorf("trigger with body %+v", r1)
	}
	// The seed group has no address, so only the second reached an
	// executor: the first of its list (route FIRST).
	if got := strings.Join(e.exec.runs, " "); got != "http://a/" {
		t.Errorf("/run sent to %q", got)
	}
	if a := e.call("POST", "/jobs/99/trigger", nil); a.status != 404 {
		t.Errorf("unknown job: %d", a.status)
	}
	addr := "http://127.0.0.1:9999/"
	l := testfactory.Log(t, s, testfactory.LogOpts{Group: 1, Job: 1, TriggerCode: 200, Address: &addr})
	a := e.call("GET", "/logs/"+itoa(int(l.ID))+"/text", nil)
	if a.status != 200 || a.data()["content"] != "start <job>\ndone\n" || a.data()["end"] != false {
		t.Errorf("text: %d %s", a.status, a.body)
	}
	e.exec.log = api.ReturnT[api.LogResult]{Code: 500, Msg: schema.Ptr("xxl-job remoting error")}
	if a := e.call("GET", "/logs/"+itoa(int(l.ID))+"/text", nil); a.status != 502 || a.json()["message"] != "executor: xxl-job remoting error" {
		t.Errorf("executor failure: %d %s", a.status, a.body)
	}
	e.exec.kill = api.ReturnT[string]{Code: 500}
	if a := e.call("POST", "/logs/"+itoa(int(l.ID))+"/kill", nil); a.status != 502 || a.json()["code"] != "executor_failed" {
		t.Errorf("kill refused: %d %s", a.status, a.body)
	}
	if a := e.call("GET", "/logs?status=lost", nil); a.status != 400 {
		t.Errorf("bad status filter: %d", a.status)
	}
}
