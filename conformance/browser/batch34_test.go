package browser_test

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/xxl-admin-go/xxl-admin-go/internal/testsupport/browser"
)

// batchMenu opens the job list's batch menu and clicks one of its actions.
func batchMenu(tb *browser.Tab, id string) {
	tb.T.Helper()
	tb.Click(`#xj-batch`)
	tb.Wait(`document.querySelector('.xj-batch.open')`)
	tb.Click(`#` + id)
}

// The 3.x job list's batch actions (ours: the 3.4.2 page acts on one
// selected row) on the rows the list's selection holds, against the real
// endpoints — each job one call with ids[]=<id> — checked on the rows and
// on what the executor received (fixture group 2: jobs 8 and 4 NONE, 7
// FIX_RATE, 2 CRON, listed 8, 7, 4, 2).
func TestBatchActions34(t *testing.T) {
	t.Parallel()
	b := browser.ForTest(t)
	a := startAdmin34(t, "en", "")
	tb := browser.NewTab(t, b, 3*time.Minute)
	login34(tb, a.base, "admin", "123456")
	const list = "#xj-job-list"
	tb.Open(a.base + "/jobinfo?jobGroup=2")
	tb.Wait(tableLoaded(list, 1))
	if tb.Str(`String(document.getElementById('xj-batch').disabled)`) != "true" {
		t.Error("the batch menu is enabled with nothing selected")
	}

	// start every job of the page (the header's box): the NONE jobs are
	// refused, each with the server's message, and the others start
	tb.Click(`#xj-job-list thead input[name="btSelectAll"]`)
	if got := tb.Str(`document.getElementById('xj-selected-count').textContent`); got != "4" {
		t.Errorf("badge %q with the page selected", got)
	}
	batchMenu(tb, "xj-batch-start")
	tb.Wait(`document.querySelectorAll('.xj-dialog.in .xj-batch-jobs li').length === 4`)
	tb.Confirm()
	tb.Wait(`document.querySelector('.xj-dialog.in .xj-batch-failures')`)
	var failures []string
	tb.Run(`[].map.call(document.querySelectorAll('.xj-dialog.in .xj-batch-failures li'), function (li) { return li.textContent; })`, &failures)
	if len(failures) != 2 || !strings.HasPrefix(failures[0], "#8 to be removed: ") || !strings.HasPrefix(failures[1], "#4 shell glue job: ") {
		t.Errorf("failures %q", failures)
	}
	if got := tb.Str(`document.querySelector('.xj-dialog.in .xj-batch-report p').textContent`); got != "Start: 2 succeeded, 2 failed" {
		t.Errorf("summary %q", got)
	}
	tb.Confirm()
	tb.Wait(tableLoaded(list, 2))
	if got := runningJobs(t, a.db); !slices.Equal(got, []string{"2", "7"}) {
		t.Errorf("running after the batch start: %v", got)
	}
	tb.Clean("batch start")

	// stop them: a click selects one row, the box adds the other
	selectRow(tb, list, "7")
	checkRow(tb, list, "2")
	batchMenu(tb, "xj-batch-stop")
	tb.Confirm()
	toast(tb, "Stop: 2 succeeded")
	tb.Wait(tableLoaded(list, 3))
	if got := runningJobs(t, a.db); len(got) != 0 {
		t.Errorf("running after the batch stop: %v", got)
	}

	// run both once with their own parameters, then with one for both
	selectRow(tb, list, "7")
	checkRow(tb, list, "2")
	batchMenu(tb, "xj-batch-run")
	tb.Shown(`#xj-trigger-modal`)
	tb.Click(`#xj-trigger-modal button[type=submit]`)
	tb.Hidden(`#xj-trigger-modal`)
	toast(tb, "Run Once: 2 succeeded")
	const param = "batch ☃ a=1&b=2"
	batchMenu(tb, "xj-batch-run")
	tb.Shown(`#xj-trigger-modal`)
	tb.Click(`#xj-t-own`)
	tb.Set(`#xj-t-param`, param)
	tb.Click(`#xj-trigger-modal button[type=submit]`)
	tb.Hidden(`#xj-trigger-modal`)
	var got []string
	for n := 1; n <= 4; n++ {
		run, err := a.exec.wait(tb.Ctx, "/run", n)
		if err != nil {
			t.Fatal(err)
		}
		got = append(got, itoa(int64(run.Body["jobId"].(float64)))+":"+run.Body["executorParams"].(string))
	}
	// a round's two triggers are asynchronous: they may arrive in either order
	slices.Sort(got[:2])
	slices.Sort(got[2:])
	if want := []string{"2:", "7:", "2:" + param, "7:" + param}; !slices.Equal(got, want) {
		t.Errorf("executor ran %q, want %q", got, want)
	}

	// delete the NONE jobs
	selectRow(tb, list, "8")
	checkRow(tb, list, "4")
	batchMenu(tb, "xj-batch-delete")
	tb.Wait(`document.querySelectorAll('.xj-dialog.in .xj-batch-jobs li').length === 2`)
	tb.Confirm()
	toast(tb, "Delete: 2 succeeded")
	tb.Wait(tableLoaded(list, 4))
	if n := one[int](t, a.db, `SELECT COUNT(*) FROM xxl_job_info WHERE id IN (4, 8)`); n != 0 {
		t.Errorf("%d deleted jobs left", n)
	}
	if got := strings.Join(rowsOf(tb, list), ","); got != "7,2" {
		t.Errorf("list after the delete %s", got)
	}
	tb.Clean("batch delete")
}

// Export from the 3.x job list (ours, under /xxl-admin-go/) and import into
// another 3.x admin through its page: the dry run lists the changes and
// writes nothing, the import writes them.
func TestExportImport34(t *testing.T) {
	t.Parallel()
	b := browser.ForTest(t)
	from := startAdmin34(t, "en", "")
	tb := browser.NewTab(t, b, 3*time.Minute)
	login34(tb, from.base, "admin", "123456")
	tb.Open(from.base + "/jobinfo?jobGroup=2")
	tb.Wait(tableLoaded("#xj-job-list", 1))
	if got := tb.Str(`document.getElementById('xj-export-group').getAttribute('href')`); got != "/xxl-admin-go/jobinfo/export?jobGroup=2" {
		t.Errorf("export link %q", got)
	}
	tb.Click(`#xj-transfer`)
	doc, raw := download(tb, "#xj-export-group")
	if got := appNames(doc); !slices.Equal(got, []string{"fake-executor"}) {
		t.Errorf("exported executors %v", got)
	}
	if got := jobDescs(doc); !slices.Equal(got, []string{"fake bean job", "fix rate job", "shell glue job", "to be removed"}) {
		t.Errorf("exported jobs %v", got)
	}
	file := filepath.Join(t.TempDir(), "jobs.json")
	if err := os.WriteFile(file, raw, 0o644); err != nil {
		t.Fatal(err)
	}

	// the other admin's database has no group 2 jobs under a new executor:
	// rename group 2 there so the import creates it
	to := startAdmin34(t, "en", "")
	if _, err := to.db.SQL.ExecContext(t.Context(), `DELETE FROM xxl_job_info WHERE job_group = 2`); err != nil {
		t.Fatal(err)
	}
	if _, err := to.db.SQL.ExecContext(t.Context(), `DELETE FROM xxl_job_group WHERE id = 2`); err != nil {
		t.Fatal(err)
	}
	before := counts(t, to.db)
	tb2 := browser.NewTab(t, b, 3*time.Minute)
	login34(tb2, to.base, "admin", "123456")
	tb2.Open(to.base + "/jobinfo?jobGroup=3")
	tb2.Wait(tableLoaded("#xj-job-list", 1))
	tb2.Click(`#xj-transfer`)
	tb2.Wait(`document.querySelector('.xj-transfer.open')`)
	tb2.Click(`#xj-import`)
	tb2.Shown(`#xj-import-modal`)
	tb2.SetFiles(`#xj-i-file`, file)
	tb2.Wait(`document.getElementById('xj-i-doc').value !== ''`)
	tb2.Click(`#xj-i-dry`)
	tb2.Wait(`!document.querySelector('#xj-import-modal .xj-i-report').hidden`)
	if rows := changeList(tb2); len(rows) != 5 {
		t.Errorf("dry run changes %q", rows)
	}
	if got := counts(t, to.db); got != before {
		t.Errorf("the dry run wrote: %v -> %v", before, got)
	}
	tb2.Click(`#xj-i-run`)
	tb2.Wait(`document.querySelector('.xj-dialog.in')`)
	tb2.Accept() // the summary; the page reloads for the new executor
	tb2.Wait(`document.readyState === 'complete' && ` + tableLoaded("#xj-job-list", 1))
	if got := counts(t, to.db); got != [2]int{before[0] + 1, before[1] + 4} {
		t.Errorf("after the import %v, want %v plus one executor and four jobs", got, before)
	}
	tb.Clean("export")
	tb2.Clean("import")
}
