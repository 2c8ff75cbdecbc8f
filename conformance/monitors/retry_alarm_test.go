package monitors

import (
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/xxl-admin-go/xxl-admin-go/compat/schema"
	"github.com/xxl-admin-go/xxl-admin-go/conformance/mailbox"
)

// fireTimeout covers the schedule loop's first round (~5 s after start,
// scheduler.md §3.1) plus the retries.
const fireTimeout = 30 * time.Second

// TestRetryThenAlarmEveryFailure: a job with executor_fail_retry_count 2
// that always fails runs three times, and each failed log is alarmed once
// (scheduler.md §8 steps 2.3–2.5, config.md §4).
func TestRetryThenAlarmEveryFailure(t *testing.T) {
	t.Parallel()
	forEachBackend(t, func(t *testing.T, db database) {
		mail := startSMTP(t)
		exec := startExecutor(t)
		startAdmin(t, fastMonitors(), db, exec, mail.Args()...)
		group := addGroup(t, db.store, exec.address())
		job := addJob(t, db.store, group, jobSpec{desc: "retry-alarm", alarmEmail: schema.Ptr("ops@test"),
			retry: 2, rate: 86400, nextIn: 2 * time.Second, enabled: true})

		mails := waitMails(t, mail, fireTimeout, "three alarm mails", atLeast[mailbox.Message](3))
		logs := waitSettled(t, db.store, job, 3)

		if n := len(exec.runs.all()); n != 3 {
			t.Errorf("executor got %d runs, want 3 (one trigger + two retries)", n)
		}
		checkRetryChain(t, logs, 2)
		checkOneMailPerLog(t, mail.Messages(), logs)
		for _, m := range mails {
			if len(m.To) != 1 || m.To[0] != "ops@test" || m.From != "alarm@test" {
				t.Errorf("mail envelope from %q to %v, want alarm@test to [ops@test]", m.From, m.To)
			}
			// config.md §4 step 3: the subject is jobconf_monitor.
			if want := zh().Text("jobconf_monitor"); m.Subject != want {
				t.Errorf("subject %q, want %q", m.Subject, want)
			}
			// config.md §4 step 5: handle_code 500 adds HandleCode=<handle_msg>.
			if !strings.Contains(m.Body, "<br>HandleCode="+failMsgByHandler) {
				t.Errorf("mail body lacks the handle message: %s", m.Body)
			}
		}
	})
}

// TestTwoAdminsAlarmOnce: two admins on one database claim each failed log
// by compare-and-set, so every failure gets exactly one retry and one mail
// (scheduler.md §8 step 2.1, §14).
func TestTwoAdminsAlarmOnce(t *testing.T) {
	t.Parallel()
	forEachBackend(t, func(t *testing.T, db database) {
		mail := startSMTP(t)
		exec := startExecutor(t)
		startAdmin(t, fastMonitors(), db, nil, mail.Args()...)
		startAdmin(t, fastMonitors(), db, exec, mail.Args()...)
		group := addGroup(t, db.store, exec.address())
		var jobs []int
		for i, mode := range []failMode{failByCallback, failByCallback, failAtRun} {
			id := addJob(t, db.store, group, jobSpec{desc: "two-admins-" + strconv.Itoa(i), alarmEmail: schema.Ptr("ops@test"),
				retry: 2, rate: 86400, nextIn: 2 * time.Second, enabled: true})
			exec.setMode(id, mode)
			jobs = append(jobs, id)
		}

		waitMails(t, mail, fireTimeout, "nine alarm mails", atLeast[mailbox.Message](9))
		var all []schema.JobLog
		for _, job := range jobs {
			logs := waitSettled(t, db.store, job, 3)
			checkRetryChain(t, logs, 2)
			all = append(all, logs...)
		}
		if n := len(exec.runs.all()); n != 9 {
			t.Errorf("executor got %d runs, want 9 (three jobs × one trigger + two retries)", n)
		}
		checkOneMailPerLog(t, mail.Messages(), all)
	})
}

// waitSettled polls until the job has n log rows and the fail monitor is
// done with all of them (alarm_status > 0 is written after the alarm, so
// there is no signal to wait on).
func waitSettled(t testing.TB, s *schema.Store, job, n int) []schema.JobLog {
	t.Helper()
	var logs []schema.JobLog
	eventually(t, 15*time.Second, 50*time.Millisecond, func() (bool, string) {
		logs = mustJobLogs(t, s, job)
		done := len(logs) >= n
		for _, l := range logs {
			done = done && settled(l)
		}
		return done, "job " + strconv.Itoa(job) + " logs: " + describe(logs)
	})
	if len(logs) != n {
		t.Fatalf("job %d has %d log rows, want %d: %s", job, len(logs), n, describe(logs))
	}
	return logs
}

// checkRetryChain checks the logs of one trigger and its retries: retry
// counts retry, retry-1, …, 0 (scheduler.md §8 step 2.3); every log failed
// and was alarmed (alarm_status 2); all but the last carry the retry marker
// (§6), and the retries say they are retries.
func checkRetryChain(t testing.TB, logs []schema.JobLog, retry int) {
	t.Helper()
	marker := retryMarker()
	retryType := zh().Text("jobconf_trigger_type") + "：" + zh().Text("jobconf_trigger_type_retry")
	for i, l := range logs {
		if want := retry - i; l.ExecutorFailRetryCount != want {
			t.Errorf("log %d: executor_fail_retry_count %d, want %d", l.ID, l.ExecutorFailRetryCount, want)
		}
		if !failed(l) || l.AlarmStatus != 2 {
			t.Errorf("log %d: trigger %d handle %d alarm_status %d, want a failure with alarm_status 2",
				l.ID, l.TriggerCode, l.HandleCode, l.AlarmStatus)
		}
		msg := deref(l.TriggerMsg)
		if last := i == len(logs)-1; strings.HasSuffix(msg, marker) == last || strings.Count(msg, marker) > 1 {
			t.Errorf("log %d (retry count %d): retry marker present=%v, want %v: %s",
				l.ID, l.ExecutorFailRetryCount, strings.Contains(msg, marker), !last, msg)
		}
		if i > 0 && !strings.HasPrefix(msg, retryType) {
			t.Errorf("log %d: trigger_msg does not start with %q: %s", l.ID, retryType, msg)
		}
	}
}

// checkOneMailPerLog: every failed log got exactly one mail and no mail
// names another log (config.md §4 step 5: the body says Alarm Job LogId=<id>).
func checkOneMailPerLog(t testing.TB, mails []mailbox.Message, logs []schema.JobLog) {
	t.Helper()
	counts := mailbox.ByLogID(mails)
	want := map[int64]bool{}
	for _, l := range logs {
		want[l.ID] = true
		if counts[l.ID] != 1 {
			t.Errorf("log %d got %d mails, want 1", l.ID, counts[l.ID])
		}
	}
	for id, n := range counts {
		if !want[id] {
			t.Errorf("%d mails for unexpected log id %d", n, id)
		}
	}
	if len(mails) != len(logs) {
		t.Errorf("%d mails for %d failed logs", len(mails), len(logs))
	}
}
