package alarm

import (
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/xxl-admin-go/xxl-admin-go/compat/config"
	"github.com/xxl-admin-go/xxl-admin-go/compat/i18n"
	"github.com/xxl-admin-go/xxl-admin-go/compat/schema"
)

// TestRunFailureContent: a failed workflow run's alarm names the run, the
// workflow (escaped: it is user text) and its failed nodes, then the first
// failed node's log as a job's alarm does; the generic webhook carries the
// run's id and failed nodes as members of their own.
func TestRunFailureContent(t *testing.T) {
	ev := Event{Job: schema.JobInfo{ID: 4, JobDesc: "etl <b>"},
		Log: schema.JobLog{ID: 99, TriggerCode: 200, HandleCode: 500, HandleMsg: schema.Ptr("boom")},
		Run: &RunFailure{WorkflowID: 4, Workflow: "etl <b>", RunID: 17, Failed: []string{`2 "load" (job 12, log 99)`}}}
	got := alarmContent(ev)
	want := `Alarm Workflow RunId=17<br>Workflow=etl &lt;b&gt;<br>FailedNodes=2 &#34;load&#34; (job 12, log 99)<br>Alarm Job LogId=99<br>HandleCode=boom`
	if got != want {
		t.Errorf("content\n%s\nwant\n%s", got, want)
	}
	w := newWebhook(config.Alarm{WebhookFormat: "generic", Timeout: time.Second}, i18n.Load("en"))
	body, err := w.payload(formatGeneric, ev, "", time.Unix(0, 0))
	if err != nil {
		t.Fatal(err)
	}
	var p map[string]any
	if err := json.Unmarshal(body, &p); err != nil {
		t.Fatal(err)
	}
	if p["workflow_run_id"] != float64(17) || p["job_desc"] != "etl <b>" || len(p["failed_nodes"].([]any)) != 1 {
		t.Errorf("generic payload %s", body)
	}
	if s := w.summarize(ev).plain(); !strings.Contains(s, "Workflow=etl <b>") {
		t.Errorf("robot text lacks the workflow:\n%s", s)
	}
	// A job's alarm is as before: no workflow members.
	ev.Run = nil
	if body, _ := w.payload(formatGeneric, ev, "", time.Unix(0, 0)); strings.Contains(string(body), "workflow") {
		t.Errorf("job alarm payload %s", body)
	}
}
