package monitors

import (
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"
)

// webhookDoc is the generic webhook JSON (docs/configuration.md, "Webhooks").
type webhookDoc struct {
	Title       string  `json:"title"`
	JobID       int     `json:"job_id"`
	JobDesc     string  `json:"job_desc"`
	Group       *string `json:"group"`
	LogID       int64   `json:"log_id"`
	TriggerCode int     `json:"trigger_code"`
	TriggerMsg  *string `json:"trigger_msg"`
	HandleCode  int     `json:"handle_code"`
	HandleMsg   *string `json:"handle_msg"`
	Time        string  `json:"time"`
	TriggerTime string  `json:"trigger_time"`
}

// startWebhook records every JSON document posted to it.
func startWebhook(t testing.TB) (string, *feed[webhookDoc]) {
	t.Helper()
	docs := newFeed[webhookDoc]()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		var d webhookDoc
		if err := json.Unmarshal(body, &d); err != nil || !strings.HasPrefix(r.Header.Get("Content-Type"), "application/json") {
			t.Errorf("webhook got %s %q: %v", r.Header.Get("Content-Type"), body, err)
			http.Error(w, "bad json", http.StatusBadRequest)
			return
		}
		docs.add(d)
		_, _ = io.WriteString(w, `{"ok":true}`)
	}))
	t.Cleanup(srv.Close)
	return srv.URL + "/alarm", docs
}

// TestWebhookAlarm: with xxl.job.alarm.webhook.url set (format auto → the
// generic JSON for a non-robot host), each failed log is posted once, for a
// handler failure and for a trigger failure alike (config.md §4, last line;
// scheduler.md §8 step 2.4).
func TestWebhookAlarm(t *testing.T) {
	t.Parallel()
	forEachBackend(t, func(t *testing.T, db database) {
		url, docs := startWebhook(t)
		exec := startExecutor(t)
		startAdmin(t, fastMonitors(), db, exec, "--xxl.job.alarm.webhook.url="+url)
		group := addGroup(t, db.store, exec.address())
		// No alarm_email: the e-mail channel succeeds without sending.
		handlerFail := addJob(t, db.store, group, jobSpec{desc: "webhook-handler", rate: 86400, nextIn: 2 * time.Second, enabled: true})
		runFail := addJob(t, db.store, group, jobSpec{desc: "webhook-run", rate: 86400, nextIn: 2 * time.Second, enabled: true})
		exec.setMode(runFail, failAtRun)

		got := docs.waitFor(t, fireTimeout, "two webhook posts", atLeast[webhookDoc](2))
		for _, job := range []int{handlerFail, runFail} {
			logs := waitSettled(t, db.store, job, 1)
			l := logs[0]
			if l.AlarmStatus != 2 {
				t.Errorf("job %d log %d: alarm_status %d, want 2", job, l.ID, l.AlarmStatus)
			}
			var doc *webhookDoc
			for i := range got {
				if got[i].LogID == l.ID {
					if doc != nil {
						t.Errorf("log %d posted twice", l.ID)
					}
					doc = &got[i]
				}
			}
			if doc == nil {
				t.Fatalf("no webhook post for log %d of job %d: %+v", l.ID, job, got)
			}
			if doc.JobID != job || doc.TriggerCode != l.TriggerCode || doc.HandleCode != l.HandleCode {
				t.Errorf("log %d: posted job %d codes %d/%d, want job %d codes %d/%d",
					l.ID, doc.JobID, doc.TriggerCode, doc.HandleCode, job, l.TriggerCode, l.HandleCode)
			}
			if doc.Title != zh().Text("jobconf_monitor") || doc.Group == nil || *doc.Group != "Fake exec" || doc.Time == "" {
				t.Errorf("log %d: title %q group %v time %q", l.ID, doc.Title, doc.Group, doc.Time)
			}
			switch job {
			case handlerFail:
				if doc.TriggerCode != 200 || doc.HandleCode != 500 || doc.HandleMsg == nil || *doc.HandleMsg != failMsgByHandler {
					t.Errorf("handler failure posted as trigger %d handle %d msg %v", doc.TriggerCode, doc.HandleCode, doc.HandleMsg)
				}
			case runFail:
				if doc.TriggerCode != 500 || doc.HandleCode != 0 || doc.TriggerMsg == nil || !strings.Contains(*doc.TriggerMsg, "run refused") {
					t.Errorf("trigger failure posted as trigger %d handle %d msg %v", doc.TriggerCode, doc.HandleCode, doc.TriggerMsg)
				}
			}
		}
		if n := len(docs.all()); n != 2 {
			t.Errorf("%d webhook posts, want 2", n)
		}
	})
}
