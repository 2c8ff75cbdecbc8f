package browser_test

import (
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/xxl-admin-go/xxl-admin-go/conformance/consolereplay"
	"github.com/xxl-admin-go/xxl-admin-go/internal/testsupport/browser"
)

// startFixtureAdmin runs our admin in lang on a fresh database holding the
// recordings' fixture whose groups use the recording executor exec.
func startFixtureAdmin(t *testing.T, exec *executor, lang string) (string, *consolereplay.DB) {
	t.Helper()
	url, db := newDB(t)
	if err := (consolereplay.Fixture{At: time.Now(), Executor: exec.address()}).Load(t.Context(), db); err != nil {
		t.Fatal(err)
	}
	return runAdmin(t, url, lang).base, db
}

// checkJobs checks the job list's boxes of these job ids.
func checkJobs(tb *browser.Tab, ids ...string) {
	tb.T.Helper()
	for _, id := range ids {
		tb.Click(`#xj-job-list tbody input.xj-select[value="` + id + `"]`)
	}
}

// runningJobs lists the ids of group 2's running jobs.
func runningJobs(t *testing.T, db *consolereplay.DB) []string {
	t.Helper()
	rows, err := db.SQL.QueryContext(t.Context(), `SELECT id FROM xxl_job_info WHERE job_group = 2 AND trigger_status = 1 ORDER BY id`)
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = rows.Close() }()
	var ids []string
	for rows.Next() {
		var id int64
		if err := rows.Scan(&id); err != nil {
			t.Fatal(err)
		}
		ids = append(ids, itoa(id))
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
	return ids
}

// The job list's batch actions against the real handlers (fixture group 2:
// jobs 8 and 4 NONE, 7 FIX_RATE, 2 CRON, listed 8, 7, 4, 2), checked on
// the rows and on what the executor received.
func TestBatchActions(t *testing.T) {
	t.Parallel()
	b := browser.ForTest(t)
	exec := startExecutor(t)
	base, db := startFixtureAdmin(t, exec, "en")
	tb := browser.NewTab(t, b, 3*time.Minute)
	login(tb, base, "admin", "123456")
	tb.Open(base + "/jobinfo?jobGroup=2")
	tb.Wait(pages[1].ready)
	labels := func() []string {
		var l []string
		tb.Run(`Array.prototype.map.call(document.querySelectorAll('#xj-job-list tbody tr'), function (r) {
			return r.cells[1].textContent + ':' + r.querySelector('.label').textContent; })`, &l)
		return l
	}

	// start every job of the page: the NONE jobs are refused, each with the
	// server's message, and the others start
	tb.Click(`#xj-select-all`)
	tb.Click(`#xj-batch-start`)
	tb.Wait(`document.querySelectorAll('.xj-dialog.in .xj-batch-jobs li').length === 4`)
	tb.Confirm()
	tb.Wait(`document.querySelector('.xj-dialog.in .xj-batch-failures')`)
	const refused = "The current schedule type disables startup"
	var failures []string
	tb.Run(`Array.prototype.map.call(document.querySelectorAll('.xj-dialog.in .xj-batch-failures li'), function (li) { return li.textContent; })`, &failures)
	if want := []string{"#8 to be removed: " + refused, "#4 shell glue job: " + refused}; !slices.Equal(failures, want) {
		t.Errorf("failures %q, want %q", failures, want)
	}
	if got := tb.Str(`document.querySelector('.xj-dialog.in .xj-batch-report p').textContent`); got != "Start: 2 succeeded, 2 failed" {
		t.Errorf("summary %q", got)
	}
	tb.Confirm()
	tb.Wait(`document.querySelectorAll('#xj-job-list tbody .label-success').length === 2`)
	if got := runningJobs(t, db); !slices.Equal(got, []string{"2", "7"}) {
		t.Errorf("running after the batch start: %v", got)
	}
	if got := labels(); !slices.Equal(got, []string{"8:STOP", "7:RUNNING", "4:STOP", "2:RUNNING"}) {
		t.Errorf("list after the batch start: %v", got)
	}
	tb.Clean("batch start")

	// stop them
	checkJobs(tb, "7", "2")
	tb.Click(`#xj-batch-stop`)
	tb.Confirm()
	tb.Wait(`Array.prototype.some.call(document.querySelectorAll('.xj-toast'), function (e) { return e.textContent === 'Stop: 2 succeeded'; })`)
	tb.Wait(`document.querySelectorAll('#xj-job-list tbody .label-success').length === 0`)
	if got := runningJobs(t, db); len(got) != 0 {
		t.Errorf("running after the batch stop: %v", got)
	}
	tb.Clean("batch stop")

	// run two once with their own parameters, then with one for both and
	// an address
	tb.Wait(`document.querySelectorAll('#xj-job-list tbody input.xj-select:checked').length === 0`)
	checkJobs(tb, "7", "2")
	tb.Click(`#xj-batch-run`)
	tb.Shown(`#xj-trigger-modal`)
	tb.Click(`#xj-trigger-modal button[type=submit]`)
	tb.Hidden(`#xj-trigger-modal`)
	tb.Wait(`Array.prototype.some.call(document.querySelectorAll('.xj-toast'), function (e) { return e.textContent === 'Run Once: 2 succeeded'; })`)
	const param = "batch ☃ a=1&b=2"
	tb.Click(`#xj-batch-run`)
	tb.Shown(`#xj-trigger-modal`)
	tb.Click(`#xj-t-own`)
	tb.Set(`#xj-t-param`, param)
	tb.Set(`#xj-t-address`, exec.address())
	tb.Click(`#xj-trigger-modal button[type=submit]`)
	tb.Hidden(`#xj-trigger-modal`)
	var got []string
	for n := 1; n <= 4; n++ {
		run, err := exec.wait(tb.Ctx, "/run", n)
		if err != nil {
			t.Fatal(err)
		}
		got = append(got, itoa(int64(run.Body["jobId"].(float64)))+":"+run.Body["executorParams"].(string))
	}
	// Each round's calls are made in turn, but a trigger is asynchronous:
	// the executor may see a round's two runs in either order (CI saw
	// "2:…" before "7:…" once). The rounds themselves are in order.
	slices.Sort(got[:2])
	slices.Sort(got[2:])
	if want := []string{"2:", "7:", "2:" + param, "7:" + param}; !slices.Equal(got, want) {
		t.Errorf("executor ran %q, want %q (each round sorted)", got, want)
	}
	tb.Clean("batch run once")

	// delete the NONE jobs
	tb.Open(base + "/jobinfo?jobGroup=2")
	tb.Wait(pages[1].ready)
	checkJobs(tb, "8", "4")
	tb.Click(`#xj-batch-delete`)
	tb.Wait(`document.querySelectorAll('.xj-dialog.in .xj-batch-jobs li').length === 2`)
	if got := tb.Str(`document.querySelector('.xj-dialog.in .modal-body').textContent`); !strings.HasPrefix(got, "Delete the selected jobs (2)?") {
		t.Errorf("delete question %q", got)
	}
	tb.Confirm()
	tb.Wait(`document.querySelectorAll('#xj-job-list tbody .btn-group').length === 2`)
	if n := one[int](t, db, `SELECT COUNT(*) FROM xxl_job_info WHERE id IN (4, 8)`); n != 0 {
		t.Errorf("%d deleted jobs left", n)
	}
	if n := len(exec.callsTo("/run")); n != 4 {
		t.Errorf("executor received %d runs, want 4", n)
	}
	tb.Clean("batch delete")
}
