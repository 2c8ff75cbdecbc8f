package browser_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/xxl-admin-go/xxl-admin-go/conformance/consolereplay"
	"github.com/xxl-admin-go/xxl-admin-go/core/transfer"
	"github.com/xxl-admin-go/xxl-admin-go/internal/testsupport/browser"
)

var exportNameRe = regexp.MustCompile(`^xxl-job-jobs-\d{8}-\d{6}\.json$`)

// download clicks an export button and decodes the file it downloads.
func download(tb *browser.Tab, sel string) (transfer.Document, []byte) {
	tb.T.Helper()
	d := tb.Download(func() { tb.Click(sel) })
	if !exportNameRe.MatchString(d.Name) {
		tb.T.Errorf("%s downloaded as %q", sel, d.Name)
	}
	var doc transfer.Document
	if err := json.Unmarshal(d.Data, &doc); err != nil {
		tb.T.Fatalf("%s: %v\n%s", sel, err, d.Data)
	}
	if doc.Format != transfer.FormatName || doc.Version != transfer.Version {
		tb.T.Errorf("%s: format %q version %d", sel, doc.Format, doc.Version)
	}
	return doc, d.Data
}

func appNames(doc transfer.Document) []string {
	var out []string
	for _, g := range doc.Groups {
		out = append(out, g.AppName)
	}
	slices.Sort(out)
	return out
}

func jobDescs(doc transfer.Document) []string {
	var out []string
	for _, j := range doc.Jobs {
		out = append(out, j.JobDesc)
	}
	slices.Sort(out)
	return out
}

// changeList is the import dialog's change list, a row per change.
func changeList(tb *browser.Tab) []string {
	tb.T.Helper()
	var rows []string
	tb.Run(`Array.prototype.map.call(document.querySelectorAll('#xj-import-modal .xj-i-changes tbody tr'), function (r) {
		return Array.prototype.map.call(r.cells, function (c) { return c.textContent; }).join('|'); })`, &rows)
	return rows
}

// counts is the number of groups and jobs in a database.
func counts(t *testing.T, db *consolereplay.DB) [2]int {
	t.Helper()
	return [2]int{one[int](t, db, `SELECT COUNT(*) FROM xxl_job_group`), one[int](t, db, `SELECT COUNT(*) FROM xxl_job_info`)}
}

// Export from one admin's job list and import into another's with a new
// database, through the pages: the downloads hold the chosen executor's
// jobs (a normal user's, its groups' only), the dry run lists the changes
// and writes nothing, the import writes them, and a refusal is shown as the
// server's text with nothing written.
func TestExportImport(t *testing.T) {
	t.Parallel()
	b := browser.ForTest(t)
	exec := startExecutor(t)
	baseA, dbA := startFixtureAdmin(t, exec, "en")
	// planted markup in a description, and a child job, to travel
	const planted = `<img src=x onerror=alert('imported')>`
	if _, err := dbA.SQL.ExecContext(t.Context(), `UPDATE xxl_job_info SET job_desc = ? WHERE id = 8`, planted); err != nil {
		t.Fatal(err)
	}
	if _, err := dbA.SQL.ExecContext(t.Context(), `UPDATE xxl_job_info SET child_jobid = '7' WHERE id = 2`); err != nil {
		t.Fatal(err)
	}
	tb := browser.NewTab(t, b, 4*time.Minute)

	// the admin exports executor 2, then everything
	login(tb, baseA, "admin", "123456")
	tb.Open(baseA + "/jobinfo?jobGroup=2")
	tb.Wait(pages[1].ready)
	group, raw := download(tb, `#xj-export-group`)
	wantDescs := []string{planted, "fake bean job", "fix rate job", "shell glue job"}
	if got := appNames(group); !slices.Equal(got, []string{"fake-executor"}) {
		t.Errorf("group export holds groups %v", got)
	}
	if got := jobDescs(group); !slices.Equal(got, wantDescs) {
		t.Errorf("group export holds jobs %q", got)
	}
	all, _ := download(tb, `#xj-export-all`)
	if got := appNames(all); !slices.Equal(got, []string{"empty-group", "fake-executor", "other-executor", "xxl-job-executor-sample"}) {
		t.Errorf("export of all holds groups %v", got)
	}
	if got, want := len(all.Jobs), counts(t, dbA)[1]; got != want {
		t.Errorf("export of all holds %d jobs, the database %d", got, want)
	}
	tb.Clean("admin's export")

	// a normal user (normal1: group 2) has no import and exports its group only
	logout(tb)
	login(tb, baseA, "normal1", "123456")
	tb.Open(baseA + "/jobinfo")
	tb.Wait(pages[1].ready)
	if n := tb.Str(`String(document.querySelectorAll('#xj-import, #xj-import-modal').length)`); n != "0" {
		t.Error("a normal user is offered the import")
	}
	mine, _ := download(tb, `#xj-export-all`)
	if got := appNames(mine); !slices.Equal(got, []string{"fake-executor"}) {
		t.Errorf("normal user's export of all holds groups %v", got)
	}
	if got := jobDescs(mine); !slices.Equal(got, wantDescs) {
		t.Errorf("normal user's export holds jobs %q", got)
	}
	tb.Clean("normal user's export")

	// a second admin on a new database (the seed rows only)
	urlB, dbB := newDB(t)
	baseB := runAdmin(t, urlB, "en").base
	before := counts(t, dbB)
	file := filepath.Join(t.TempDir(), "export.json")
	if err := os.WriteFile(file, raw, 0o644); err != nil {
		t.Fatal(err)
	}
	tbB := browser.NewTab(t, b, 4*time.Minute)
	login(tbB, baseB, "admin", "123456")
	tbB.Open(baseB + "/jobinfo")
	tbB.Wait(listLoaded("#xj-job-list"))
	tbB.Click(`#xj-import`)
	tbB.Shown(`#xj-import-modal`)
	tbB.SetFiles(`#xj-i-file`, file)
	tbB.Wait(`document.getElementById('xj-i-doc').value !== ''`)
	if got := tbB.Str(`document.getElementById('xj-i-doc').value`); got != string(raw) {
		t.Errorf("the chosen file reads as %.200q", got)
	}
	tbB.Click(`#xj-i-dry`)
	tbB.Wait(`!document.querySelector('#xj-import-modal .xj-i-report').hidden`)
	wantCreated := []string{
		"Executor|fake-executor|created|",
		`Job|fake-executor / demoJobHandler / "fake bean job"|created|`,
		`Job|fake-executor /  / "shell glue job"|created|`,
		`Job|fake-executor / demoJobHandler / "fix rate job"|created|`,
		`Job|fake-executor / demoJobHandler / "` + planted + `"|created|`,
	}
	got := changeList(tbB)
	slices.Sort(got)
	slices.Sort(wantCreated)
	if !slices.Equal(got, wantCreated) {
		t.Errorf("dry run lists\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(wantCreated, "\n"))
	}
	if got := counts(t, dbB); got != before {
		t.Errorf("the dry run wrote: groups and jobs %v, before %v", got, before)
	}
	tbB.Screenshot("job_import_dialog")
	tbB.Clean("dry run")

	// the import, then the page shows the new executor and its jobs
	tbB.Click(`#xj-i-run`)
	tbB.Hidden(`#xj-import-modal`)
	tbB.Wait(`document.querySelector('.xj-dialog.in .xj-dialog-text')`)
	if got := tbB.Str(`document.querySelector('.xj-dialog.in .xj-dialog-text').textContent`); got != "Executor: created 1; Job: created 4" {
		t.Errorf("import result %q", got)
	}
	tbB.Navigating(func() { tbB.Accept() })
	groupB := one[int64](t, dbB, `SELECT id FROM xxl_job_group WHERE app_name = 'fake-executor'`)
	if got := one[string](t, dbB, `SELECT address_list FROM xxl_job_group WHERE id = ?`, groupB); got != exec.address() {
		t.Errorf("imported group's address list %q", got)
	}
	fixRate := one[int64](t, dbB, `SELECT id FROM xxl_job_info WHERE job_group = ? AND job_desc = 'fix rate job'`, groupB)
	if got := one[string](t, dbB, `SELECT child_jobid FROM xxl_job_info WHERE job_group = ? AND job_desc = 'fake bean job'`, groupB); got != itoa(fixRate) {
		t.Errorf("imported child id %q, want the imported fix rate job %d", got, fixRate)
	}
	if got := one[int](t, dbB, `SELECT COUNT(*) FROM xxl_job_info WHERE job_group = ?`, groupB); got != 4 {
		t.Errorf("%d jobs imported, want 4", got)
	}
	tbB.Wait(listLoaded("#xj-job-list"))
	tbB.Set(`#xj-filter-group`, itoa(groupB))
	tbB.Wait(`document.querySelectorAll('#xj-job-list tbody .btn-group').length === 4`)
	tbB.Clean("import")

	// the same document again: a dry run that finds everything unchanged
	after := counts(t, dbB)
	tbB.Click(`#xj-import`)
	tbB.Shown(`#xj-import-modal`)
	tbB.Set(`#xj-i-doc`, string(raw))
	tbB.Click(`#xj-i-dry`)
	tbB.Wait(`!document.querySelector('#xj-import-modal .xj-i-report').hidden`)
	for _, row := range changeList(tbB) {
		if !strings.HasSuffix(row, "|unchanged|") {
			t.Errorf("second dry run: %q", row)
		}
	}

	// a refused document: the server's text, no import offered, nothing written
	var bad transfer.Document
	if err := json.Unmarshal(raw, &bad); err != nil {
		t.Fatal(err)
	}
	bad.Jobs = bad.Jobs[:1]
	bad.Jobs[0].JobDesc = "bad cron " + planted
	bad.Jobs[0].ScheduleType = "CRON"
	bad.Jobs[0].ScheduleConf = new("not a cron")
	badRaw, err := json.Marshal(bad)
	if err != nil {
		t.Fatal(err)
	}
	tbB.Set(`#xj-i-doc`, string(badRaw))
	tbB.Click(`#xj-i-dry`)
	tbB.Wait(`!document.querySelector('#xj-import-modal .xj-i-error').hidden`)
	// core/transfer's message: the job's place in the document, its identity
	// and the console's validation text
	want := `job 1 (fake-executor / ` + *bad.Jobs[0].ExecutorHandler + ` / "bad cron ` + planted + `"): Cronillegal`
	if got := tbB.Str(`document.querySelector('#xj-import-modal .xj-i-error').textContent`); got != want {
		t.Errorf("refusal shown as %q, want %q", got, want)
	}
	if tbB.Str(`String(document.getElementById('xj-i-run').disabled && document.querySelector('#xj-import-modal .xj-i-report').hidden)`) != "true" {
		t.Error("a refused document can be imported")
	}
	if got := counts(t, dbB); got != after {
		t.Errorf("the refused dry run wrote: %v, before %v", got, after)
	}
	tbB.Clean("refused import")
}
