package monitors

import (
	"testing"
	"time"

	"github.com/xxl-admin-go/xxl-admin-go/app"
	"github.com/xxl-admin-go/xxl-admin-go/compat/i18n"
	"github.com/xxl-admin-go/xxl-admin-go/internal/testsupport/admintest"
)

// fastMonitors runs the fail monitor every 200 ms instead of 10 s; the
// lost-job monitor keeps a long interval unless a test needs it.
func fastMonitors() app.Tuning { return app.Tuning{FailInterval: 200 * time.Millisecond} }

// startAdmin runs an admin on db with the given extra arguments and points
// the executor's callbacks at it.
func startAdmin(t testing.TB, tuning app.Tuning, db database, exec *fakeExecutor, extra ...string) string {
	t.Helper()
	base := admintest.StartTuned(t, tuning, append(db.args(), extra...)...)
	if exec != nil {
		exec.setAdmin(base)
	}
	return base
}

// zh is the admin's default bundle (xxl.job.i18n defaults to zh_CN).
func zh() *i18n.Bundle { return i18n.Load("zh_CN") }

// retryMarker is what the fail monitor appends to a retried log's
// trigger_msg (scheduler.md §6, last block).
func retryMarker() string {
	return `<br><br><span style="color:#F39C12;" > >>>>>>>>>>>` + zh().Text("jobconf_trigger_type_retry") + `<<<<<<<<<<< </span><br>`
}
