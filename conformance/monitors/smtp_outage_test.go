package monitors

import (
	"testing"
	"time"

	"github.com/xxl-admin-go/xxl-admin-go/compat/schema"
	"github.com/xxl-admin-go/xxl-admin-go/conformance/mailbox"
)

// TestSMTPDownThenBack: while the mail server refuses connections the
// alarm fails and the log ends with alarm_status 3, never re-sent; once the
// server is back on the same port the next failure is mailed (status 2)
// (scheduler.md §8 step 2.4, config.md §4 step 2).
func TestSMTPDownThenBack(t *testing.T) {
	t.Parallel()
	forEachBackend(t, func(t *testing.T, db database) {
		mail := startSMTP(t)
		exec := startExecutor(t)
		startAdmin(t, fastMonitors(), db, exec, mail.Args()...)
		mail.Stop()
		group := addGroup(t, db.store, exec.address())
		down := addJob(t, db.store, group, jobSpec{desc: "smtp-down", alarmEmail: schema.Ptr("ops@test"),
			rate: 86400, nextIn: 2 * time.Second, enabled: true})

		exec.callbacks.waitFor(t, fireTimeout, "the first failure's callback", atLeast[callbackSent](1))
		first := waitSettled(t, db.store, down, 1)[0]
		if first.AlarmStatus != 3 {
			t.Fatalf("log %d with SMTP down: alarm_status %d, want 3", first.ID, first.AlarmStatus)
		}

		restartSMTP(t, mail)
		up := addJob(t, db.store, group, jobSpec{desc: "smtp-up", alarmEmail: schema.Ptr("ops@test"),
			rate: 86400, nextIn: 2 * time.Second, enabled: true})
		mails := waitMails(t, mail, fireTimeout, "the mail after SMTP is back", atLeast[mailbox.Message](1))
		second := waitSettled(t, db.store, up, 1)[0]
		if second.AlarmStatus != 2 {
			t.Errorf("log %d with SMTP back: alarm_status %d, want 2", second.ID, second.AlarmStatus)
		}
		if len(mails) != 1 || mails[0].LogID() != second.ID {
			t.Errorf("mails for logs %v, want one for log %d", mailbox.ByLogID(mails), second.ID)
		}
		// The failed alarm stays failed: 3 is final, nothing re-sends it.
		if l := mustJobLogs(t, db.store, down); len(l) != 1 || l[0].AlarmStatus != 3 {
			t.Errorf("first job's logs after SMTP came back: %s", describe(l))
		}
		if n := mailbox.ByLogID(mail.Messages())[first.ID]; n != 0 {
			t.Errorf("log %d (alarm failed) was mailed %d times later", first.ID, n)
		}
	})
}
