package monitors

import (
	"testing"
	"time"

	"github.com/xxl-admin-go/xxl-admin-go/app"
	"github.com/xxl-admin-go/xxl-admin-go/compat/schema"
)

// TestRetryWhenResultBeatsTriggerInfo: the executor's failing callback can
// be stored before the trigger flow writes the log's trigger info (the flow
// writes it only after the /run reply, scheduler.md §5.1). The fail monitor
// must not take that half-written row — trigger_code 0 and
// executor_fail_retry_count 0 as the INSERT left them — as the final
// failure: the job has a retry left, so it must still be retried once
// (§8 step 2.3) and alarmed once.
func TestRetryWhenResultBeatsTriggerInfo(t *testing.T) {
	t.Parallel()
	forEachBackend(t, func(t *testing.T, db database) {
		mail := startSMTP(t)
		exec := startExecutor(t)
		startAdmin(t, app.Tuning{FailInterval: 100 * time.Millisecond}, db, exec, mail.Args()...)
		group := addGroup(t, db.store, exec.address())
		job := addJob(t, db.store, group, jobSpec{desc: "early-callback", alarmEmail: schema.Ptr("ops@test"),
			retry: 1, rate: 86400, nextIn: 2 * time.Second, enabled: true})
		exec.setMode(job, failBeforeRunReply)

		// The retry is queued in the same fail-monitor step that alarms the
		// first log, so it runs at once once that log is settled.
		eventually(t, fireTimeout, 50*time.Millisecond, func() (bool, string) {
			logs := mustJobLogs(t, db.store, job)
			return len(logs) > 0 && settled(logs[0]), "first log: " + describe(logs)
		})
		exec.runs.waitFor(t, 5*time.Second, "the retry (first log: "+describe(mustJobLogs(t, db.store, job)[:1])+")",
			atLeast[runSeen](2))
		logs := waitSettled(t, db.store, job, 2)
		checkRetryChain(t, logs, 1)
		checkOneMailPerLog(t, mail.Messages(), logs)
	})
}
