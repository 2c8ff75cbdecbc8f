package live

import (
	"context"
	"fmt"
	"net/http"
	"strings"
	"time"

	"github.com/xxl-admin-go/xxl-admin-go/compat/api"
)

// stopKills starts a one-node workflow whose node sleeps at the executor
// and stops the run through the job API: the executor receives /kill,
// the node's log ends killed, the run STOPPED.
func (f *fixture) stopKills(x wfExecutor) {
	t := f.t
	t.Helper()
	ctx := context.Background()
	job := f.wfJob(x.group, "wf sleeper", x.slow)
	status, wf := f.openapi("POST", "/workflows", map[string]any{"jobGroup": x.group, "name": "sleeper",
		"nodes": []map[string]any{{"id": 1, "jobId": job, "param": "30"}}})
	if status != http.StatusCreated {
		t.Fatalf("create the sleeper: %d %v", status, wf)
	}
	run := f.startRun(wf["id"], "")
	f.eventually("the sleeper running at the executor", 10*time.Second, func() (bool, string) {
		r := f.client.IdleBeat(ctx, x.address, api.IdleBeatParam{JobID: job})
		return r.Code == 500, r.MsgText()
	})
	began := time.Now()
	status, stopped := f.openapi("POST", fmt.Sprintf("/runs/%v/stop", run["id"]), nil)
	if status != http.StatusOK || stopped["state"] != "STOPPED" {
		t.Fatalf("stop: %d %v", status, stopped)
	}
	running, _ := stopped["runningLogIds"].([]any)
	killed, _ := stopped["killedLogIds"].([]any)
	if len(running) != 1 || fmt.Sprint(killed) != fmt.Sprint(running) || fmt.Sprint(stopped["killFailures"]) != "[]" {
		t.Fatalf("stop's kills: running %v, killed %v, failures %v", running, killed, stopped["killFailures"])
	}
	// The kill interrupted the handler's sleep of 30 s.
	f.eventually("the executor idle after the kill", 10*time.Second, func() (bool, string) {
		r := f.client.IdleBeat(ctx, x.address, api.IdleBeatParam{JobID: job})
		return r.Code == 200, r.MsgText()
	})
	t.Logf("stop through the job API to the executor idle: %s", time.Since(began).Round(time.Millisecond))
	id := int64(running[0].(float64))
	l := f.waitHandled(id, 10*time.Second)
	// The kill is recorded as the log list's kill records it (zh_CN
	// joblog_kill_log_byman and the executor's answer); the executor's
	// own callback of the interrupted run comes after and changes nothing.
	if l.HandleCode != 500 || !strings.HasPrefix(deref(l.HandleMsg), "人为操作，主动终止:") {
		t.Errorf("the killed node's log: handle %d %q", l.HandleCode, deref(l.HandleMsg))
	}
	f.checkRanOnce(x.address, x.runs, []int{job}, id)
}
