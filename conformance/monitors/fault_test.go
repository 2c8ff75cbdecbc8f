package monitors

import (
	"context"
	"fmt"
	"os"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/xxl-admin-go/xxl-admin-go/compat/schema"
	"github.com/xxl-admin-go/xxl-admin-go/conformance/mailbox"
	"github.com/xxl-admin-go/xxl-admin-go/internal/testsupport/storetest"
)

// envOutage sets the length of the database outage in seconds.
const envOutage = "XXL_TEST_OUTAGE_SECONDS"

// TestFailuresAcrossDatabaseOutage stops the admin's MariaDB while jobs
// keep failing and starts it again: afterwards every failed log must have
// been retried once and alarmed once — none left unprocessed or claimed
// (scheduler.md §8; the Go admin finishes its own interrupted claims,
// failmonitor.go), none mailed twice.
func TestFailuresAcrossDatabaseOutage(t *testing.T) {
	t.Parallel()
	t.Run("mysql", func(t *testing.T) {
		if os.Getenv(storetest.EnvMySQL) == "" {
			t.Skip("mysql: " + storetest.EnvMySQL + " not set")
		}
		outage := 20 * time.Second
		if v := os.Getenv(envOutage); v != "" {
			n, err := strconv.Atoi(v)
			if err != nil {
				t.Fatalf("%s=%q: %v", envOutage, v, err)
			}
			outage = time.Duration(n) * time.Second
		}
		srv := startMaria(t)
		db := openDatabase(t, srv.createDatabase("xxl_fault"), "root", "")
		mail := startSMTP(t)
		exec := startExecutor(t)
		startAdmin(t, fastMonitors(), db, exec, mail.Args()...)
		group := addGroup(t, db.store, exec.address())
		// Jobs run for a second before they fail, so results are in flight
		// when the database goes.
		exec.setCallbackDelay(time.Second)
		var jobs []int
		for i, mode := range []failMode{failByCallback, failByCallback, failAtRun} {
			id := addJob(t, db.store, group, jobSpec{desc: "outage-" + strconv.Itoa(i), alarmEmail: schema.Ptr("ops@test"),
				retry: 1, rate: 2, nextIn: time.Second, enabled: true})
			exec.setMode(id, mode)
			jobs = append(jobs, id)
		}

		// Some failures retried and alarmed before the outage. The database
		// stops while an alarm is in the middle of its SMTP DATA, so the
		// admin's CAS -2 → 2 after the send must fail and be finished after
		// the restart (failmonitor.go keep/finishPending); callbacks of the
		// jobs still running are pending too.
		waitMails(t, mail, fireTimeout, "alarms before the outage", atLeast[mailbox.Message](6))
		hold := mail.HoldNext()
		var heldLog int64
		select {
		case heldLog = <-hold.Held():
		case <-time.After(fireTimeout):
			t.Fatal("no alarm mail to hold")
		}
		stopAt := time.Now()
		srv.stop()
		hold.Release()
		var lastBefore int64
		for _, r := range exec.runs.all() {
			lastBefore = max(lastBefore, r.LogID)
		}
		t.Logf("MariaDB stopped during the alarm of log %d, after %d runs, %d mails (last log id %d); down for %v",
			heldLog, len(exec.runs.all()), len(mail.Messages()), lastBefore, outage)
		// The outage itself is the scenario: nothing to wait for.
		time.Sleep(outage)
		srv.start()
		upAt := time.Now()
		t.Logf("MariaDB back after %v (stop+restart included)", upAt.Sub(stopAt).Round(time.Millisecond))

		// Recovery, as the executor and the mailbox see it.
		exec.runs.waitFor(t, time.Minute, "a trigger after the restart", func(rs []runSeen) bool {
			return len(rs) > 0 && rs[len(rs)-1].LogID > lastBefore
		})
		scheduleBack := time.Since(upAt)
		waitMails(t, mail, time.Minute, "an alarm of a failure after the restart", newAlarms(lastBefore, 1))
		alarmsBack := time.Since(upAt)
		// Keep failing for a while on the recovered database.
		waitMails(t, mail, 30*time.Second, "more alarms after the restart", newAlarms(lastBefore, 6))

		// Stop the jobs and let the ring, the callbacks and the monitors drain.
		eventually(t, 30*time.Second, 200*time.Millisecond, func() (bool, string) {
			for _, id := range jobs {
				if err := stopJob(context.Background(), db.store, id); err != nil {
					return false, err.Error()
				}
			}
			return true, ""
		})
		stoppedAt := time.Now()
		var logs []schema.JobLog
		lastRuns := -1
		eventually(t, time.Minute, 500*time.Millisecond, func() (bool, string) {
			logs = nil
			for _, id := range jobs {
				l, err := jobLogs(context.Background(), db.store, id)
				if err != nil {
					return false, err.Error()
				}
				logs = append(logs, l...)
			}
			runs := len(exec.runs.all())
			quiet := runs == lastRuns && time.Since(stoppedAt) > 6*time.Second // the ring looks 5 s ahead
			lastRuns = runs
			var retryable, retries int
			for _, l := range logs {
				if !failed(l) || !settled(l) {
					return false, "waiting for " + describe([]schema.JobLog{l})
				}
				if l.ExecutorFailRetryCount == 1 {
					retryable++
				} else {
					retries++
				}
			}
			// A retry decided just before the stop (its marker and pending
			// row stored) whose log row the outage refused is sent by the
			// sweeper once its lease runs out (core/thread/sweeper.go), up
			// to lease + sweep interval (30 s + 10 s) after the decision:
			// wait for it and for the pending table to empty.
			pending, err := db.store.PendingCount(context.Background())
			if err != nil {
				return false, err.Error()
			}
			if retries < retryable || pending > 0 {
				return false, fmt.Sprintf("%d of %d retries stored, %d pending triggers", retries, retryable, pending)
			}
			return quiet, "runs still arriving"
		})
		caughtUp := time.Since(upAt)

		checkOutageOutcome(t, logs, mail.Messages())
		if n := mailbox.ByLogID(mail.Messages())[heldLog]; n != 1 {
			t.Errorf("log %d, whose alarm the outage interrupted, got %d mails, want 1", heldLog, n)
		}
		var before, after, delayed int
		for _, l := range logs {
			if l.ID <= lastBefore {
				before++
			} else {
				after++
			}
		}
		for _, c := range exec.callbacks.all() {
			if c.Attempts > 1 {
				delayed++
			}
		}
		t.Logf("failed logs: %d (%d triggered before the stop, %d after the restart); mails: %d; "+
			"callbacks re-sent across the outage: %d (%d rejected POSTs)",
			len(logs), before, after, len(mail.Messages()), delayed, exec.rejectedCbs.Load())
		t.Logf("recovery after restart: first trigger %v, first new alarm %v, all rows settled %v",
			scheduleBack.Round(time.Millisecond), alarmsBack.Round(time.Millisecond), caughtUp.Round(time.Millisecond))
	})
}

// checkOutageOutcome: every failed log alarmed (2) with exactly one mail,
// and every log that had a retry left was retried exactly once.
func checkOutageOutcome(t testing.TB, logs []schema.JobLog, mails []mailbox.Message) {
	t.Helper()
	marker := retryMarker()
	var retryable, retries int
	for _, l := range logs {
		if l.AlarmStatus != 2 {
			t.Errorf("log %d: alarm_status %d, want 2", l.ID, l.AlarmStatus)
		}
		switch l.ExecutorFailRetryCount {
		case 1:
			retryable++
			if n := strings.Count(deref(l.TriggerMsg), marker); n != 1 {
				t.Errorf("log %d: retry marker %d times, want once", l.ID, n)
			}
		case 0:
			retries++
		default:
			t.Errorf("log %d: executor_fail_retry_count %d", l.ID, l.ExecutorFailRetryCount)
		}
	}
	if retries != retryable {
		t.Errorf("%d retry logs for %d failed logs with a retry left: %s", retries, retryable, describe(logs))
	}
	checkOneMailPerLog(t, mails, logs)
}

// newAlarms is a waitFor condition: n mails about logs newer than lastBefore.
func newAlarms(lastBefore int64, n int) func([]mailbox.Message) bool {
	return func(ms []mailbox.Message) bool {
		for _, m := range ms {
			if m.LogID() > lastBefore {
				n--
			}
		}
		return n <= 0
	}
}
