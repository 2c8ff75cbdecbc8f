package static_test

import (
	"strconv"
	"strings"
	"testing"

	"github.com/xxl-admin-go/xxl-admin-go/internal/testsupport/browser"
)

// shownRefusal is xssRefusal as the page must show it: the text, quotes
// and markup included.
var shownRefusal = strings.ReplaceAll(xssRefusal, `\"`, `"`)

// The job list's batch actions call the row actions' endpoints once per
// checked job, in the list's order, and report each refusal by job; run
// once sends one parameter for all or each job's own.
func TestJobBatchActions(t *testing.T) {
	t.Parallel()
	b := browser.ForTest(t)
	srv, tb := openFresh(t, b, "/jobinfo", "jobinfo")
	row := func(n int) string {
		return `#xj-job-list tbody tr:nth-child(` + strconv.Itoa(n) + `) input.xj-select`
	}
	state := func() string {
		return tb.Str(`[document.getElementById('xj-selected').textContent,
			document.getElementById('xj-select-all').checked, document.getElementById('xj-select-all').indeterminate,
			document.getElementById('xj-batch-start').disabled].join('|')`)
	}
	if got := state(); got != "|false|false|true" {
		t.Errorf("nothing checked: %q", got)
	}
	tb.Click(row(1))
	if got := state(); got != "1 selected|false|true|false" {
		t.Errorf("one checked: %q", got)
	}
	tb.Click(`#xj-select-all`)
	if got := state(); got != "3 selected|true|false|false" {
		t.Errorf("all checked: %q", got)
	}

	// start all three: one refusal, reported with the job and the server's text
	tb.Click(`#xj-batch-start`)
	tb.Wait(`document.querySelectorAll('.xj-dialog.in .xj-batch-jobs li').length === 3`)
	if got := tb.Str(`document.querySelector('.xj-dialog.in .modal-body').textContent`); got != "Start the selected jobs (3)?#9 "+xssDesc+"#7 fix rate job#8 none job" {
		t.Errorf("confirm text %q", got)
	}
	tb.Confirm()
	for i, id := range []string{"9", "7", "8"} {
		checkForm(t, tb.waitCall("/jobinfo/start", i+1), map[string]string{"id": id})
	}
	tb.Wait(`document.querySelector('.xj-dialog.in .xj-batch-failures')`)
	if got := tb.Str(`document.querySelector('.xj-dialog.in .modal-body').textContent`); got != "Start: 2 succeeded, 1 failed#8 none job: "+shownRefusal {
		t.Errorf("summary %q", got)
	}
	tb.Clean("batch start")
	tb.Confirm()
	tb.waitCall("/jobinfo/pageList", 2) // reloaded, nothing checked
	tb.Wait(`document.querySelectorAll('#xj-job-list tbody input.xj-select').length === 3`)
	if got := state(); got != "|false|false|true" {
		t.Errorf("after the batch: %q", got)
	}

	// stop one: all succeeded is a toast
	tb.Click(row(2))
	tb.Click(`#xj-batch-stop`)
	tb.Confirm()
	checkForm(t, tb.waitCall("/jobinfo/stop", 1), map[string]string{"id": "7"})
	tb.Wait(`Array.prototype.some.call(document.querySelectorAll('.xj-toast'), function (e) { return e.textContent === 'Stop: 1 succeeded'; })`)
	tb.waitCall("/jobinfo/pageList", 3)

	// run once: each job's own parameter, then one for all with an address
	tb.Wait(`document.querySelectorAll('#xj-job-list tbody input.xj-select:checked').length === 0`)
	tb.Click(row(1))
	tb.Click(row(3))
	tb.Click(`#xj-batch-run`)
	tb.Shown(`#xj-trigger-modal`)
	if got := tb.Str(`document.querySelector('#xj-trigger-modal .xj-batch-note').textContent`); got != "Runs each of the 2 selected jobs once." {
		t.Errorf("batch note %q", got)
	}
	if got := tb.Str(`String(document.getElementById('xj-t-own').checked && document.getElementById('xj-t-param').disabled)`); got != "true" {
		t.Error("own parameters are not the default")
	}
	tb.Click(`#xj-trigger-modal button[type=submit]`)
	checkForm(t, tb.waitCall("/jobinfo/trigger", 1), map[string]string{"id": "9", "executorParam": "p=1", "addressList": ""})
	checkForm(t, tb.waitCall("/jobinfo/trigger", 2), map[string]string{"id": "8", "executorParam": "p=1", "addressList": ""})
	tb.Hidden(`#xj-trigger-modal`)
	tb.Wait(`document.getElementById('xj-selected').textContent === '2 selected' && !document.getElementById('xj-batch-run').disabled`)
	tb.Click(`#xj-batch-run`)
	tb.Shown(`#xj-trigger-modal`)
	tb.Click(`#xj-t-own`)
	tb.Set(`#xj-t-param`, "all=1")
	tb.Set(`#xj-t-address`, "http://127.0.0.1:19991/")
	tb.Click(`#xj-trigger-modal button[type=submit]`)
	checkForm(t, tb.waitCall("/jobinfo/trigger", 3), map[string]string{"id": "9", "executorParam": "all=1", "addressList": "http://127.0.0.1:19991/"})
	checkForm(t, tb.waitCall("/jobinfo/trigger", 4), map[string]string{"id": "8", "executorParam": "all=1", "addressList": "http://127.0.0.1:19991/"})
	tb.Hidden(`#xj-trigger-modal`)

	// the row's own run once is not a batch
	tb.Click(`#xj-job-list tbody tr:nth-child(1) .xj-run`)
	tb.Shown(`#xj-trigger-modal`)
	if got := tb.Str(`String(document.querySelector('#xj-trigger-modal .xj-batch-note').hidden && !document.getElementById('xj-t-param').disabled)`); got != "true" {
		t.Error("the row's run once shows the batch controls")
	}
	tb.Click(`#xj-trigger-modal button[type=submit]`)
	checkForm(t, tb.waitCall("/jobinfo/trigger", 5), map[string]string{"id": "9", "executorParam": "p=1", "addressList": ""})
	tb.Hidden(`#xj-trigger-modal`)

	// delete the two still checked
	tb.Click(`#xj-batch-delete`)
	tb.Wait(`document.querySelectorAll('.xj-dialog.in .xj-batch-jobs li').length === 2`)
	tb.Confirm()
	checkForm(t, tb.waitCall("/jobinfo/remove", 1), map[string]string{"id": "9"})
	checkForm(t, tb.waitCall("/jobinfo/remove", 2), map[string]string{"id": "8"})
	tb.Wait(`document.querySelector('.xj-toast')`)
	if n := len(srv.calls("/jobinfo/trigger")); n != 5 {
		t.Errorf("%d trigger calls, want 5", n)
	}
	tb.Clean("batch actions")
}

// Export links follow the executor filter; the import dialog (admins only)
// sends the document as JSON, dry run first, shows the change list as text,
// imports only what the dry run checked, and shows a refusal as text.
func TestJobExportImport(t *testing.T) {
	t.Parallel()
	b := browser.ForTest(t)

	t.Run("export links", func(t *testing.T) {
		_, tb := openFresh(t, b, "/jobinfo", "jobinfo")
		href := func(id string) string { return tb.Str(`document.getElementById('` + id + `').getAttribute('href')`) }
		if got := href("xj-export-group"); got != contextPath+"/jobinfo/export?jobGroup=2" {
			t.Errorf("group export %q", got)
		}
		if got := href("xj-export-all"); got != contextPath+"/jobinfo/export" {
			t.Errorf("export of all %q", got)
		}
		tb.Set(`#xj-filter-group`, "3")
		if got := href("xj-export-group"); got != contextPath+"/jobinfo/export?jobGroup=3" {
			t.Errorf("group export after choosing group 3: %q", got)
		}
		if got := tb.Str(`document.getElementById('xj-export-all').textContent`); got != " Export all" {
			t.Errorf("export button text %q", got)
		}
		tb.Clean("export links")
	})

	t.Run("import", func(t *testing.T) {
		_, tb := openFresh(t, b, "/jobinfo", "jobinfo")
		tb.Click(`#xj-import`)
		tb.Shown(`#xj-import-modal`)
		runDisabled := func() string { return tb.Str(`String(document.getElementById('xj-i-run').disabled)`) }
		if runDisabled() != "true" {
			t.Error("import offered before a dry run")
		}
		tb.Click(`#xj-i-dry`) // nothing chosen: said in the dialog, nothing sent
		tb.Wait(`!document.querySelector('#xj-import-modal .xj-i-error').hidden`)
		if got := tb.Str(`document.querySelector('#xj-import-modal .xj-i-error').textContent`); got != "Choose a file or paste a document first." {
			t.Errorf("empty document: %q", got)
		}

		// the file chooser fills the document
		const doc = `{"format":"xxl-admin-go/jobs","version":1,"groups":[],"jobs":[]}`
		tb.Run(`(function () { var dt = new DataTransfer();
			dt.items.add(new File([`+jsQuote(doc)+`], 'jobs.json', {type: 'application/json'}));
			var input = document.getElementById('xj-i-file'); input.files = dt.files;
			input.dispatchEvent(new Event('change', {bubbles: true})); return true; })()`, nil)
		tb.Wait(`document.getElementById('xj-i-doc').value !== ''`)
		if got := tb.Str(`document.getElementById('xj-i-doc').value`); got != doc {
			t.Errorf("document from the file %q", got)
		}
		tb.Click(`#xj-i-dry`)
		got := tb.waitCall("/jobinfo/import", 1)
		if got.Body != doc || got.Query.Get("mode") != "merge" || got.Query.Get("dryRun") != "true" ||
			!strings.HasPrefix(got.ContentType, "application/json") || got.XRW != "XMLHttpRequest" {
			t.Errorf("dry run sent %+v", got)
		}
		tb.Wait(`!document.querySelector('#xj-import-modal .xj-i-report').hidden`)
		var rows []string
		tb.Run(`Array.prototype.map.call(document.querySelectorAll('#xj-import-modal .xj-i-changes tbody tr'), function (r) {
			return Array.prototype.map.call(r.cells, function (c) { return c.textContent; }).join('|'); })`, &rows)
		want := []string{
			"Executor|fake-executor|created|",
			`Job|fake-executor / demoJobHandler / "` + xssDesc + `"|created|`,
			`Job|key "orders/cleanup"|kept|author, scheduleConf`,
		}
		if strings.Join(rows, "\n") != strings.Join(want, "\n") {
			t.Errorf("change list\n%s\nwant\n%s", strings.Join(rows, "\n"), strings.Join(want, "\n"))
		}
		if got := tb.Str(`document.querySelector('#xj-import-modal .xj-i-summary').textContent`); got != "Dry run, nothing was written. The import would make these changes: Executor: created 1; Job: created 1, kept 1" {
			t.Errorf("summary %q", got)
		}
		tb.Screenshot("import-dry-run")
		tb.Clean("dry run")
		if runDisabled() != "false" {
			t.Fatal("import not offered after the dry run")
		}

		// another mode needs its own dry run
		tb.Click(`#xj-import-modal input[name=mode][value=overwrite]`)
		if runDisabled() != "true" {
			t.Error("import offered for a mode the dry run did not check")
		}
		tb.Click(`#xj-i-dry`)
		if got := tb.waitCall("/jobinfo/import", 2); got.Query.Get("mode") != "overwrite" || got.Query.Get("dryRun") != "true" {
			t.Errorf("second dry run %v", got.Query)
		}
		tb.Wait(`!document.getElementById('xj-i-run').disabled`)
		tb.Click(`#xj-i-run`)
		if got := tb.waitCall("/jobinfo/import", 3); got.Body != doc || got.Query.Get("mode") != "overwrite" || got.Query.Get("dryRun") != "false" {
			t.Errorf("import sent %+v", got)
		}
		tb.Hidden(`#xj-import-modal`)
		tb.Wait(`document.querySelector('.xj-dialog.in .xj-dialog-text')`)
		if got := tb.Str(`document.querySelector('.xj-dialog.in').textContent`); !strings.Contains(got, "Imported") || !strings.Contains(got, "Executor: created 1; Job: created 1, kept 1") {
			t.Errorf("import result %q", got)
		}
		tb.Clean("import")
		tb.Navigating(func() { tb.Accept() }) // an executor was created: the page reloads
		tb.Wait(ready["jobinfo"].cond)

		// a refusal is the server's text, and nothing can be imported
		tb.Click(`#xj-import`)
		tb.Shown(`#xj-import-modal`)
		if got := tb.Str(`document.getElementById('xj-i-doc').value`); got != "" {
			t.Errorf("the dialog kept the last document %q", got)
		}
		tb.Set(`#xj-i-doc`, `{"bad": true}`)
		tb.Click(`#xj-i-dry`)
		tb.Wait(`!document.querySelector('#xj-import-modal .xj-i-error').hidden`)
		if got := tb.Str(`document.querySelector('#xj-import-modal .xj-i-error').textContent`); got != shownRefusal {
			t.Errorf("refusal shown as %q", got)
		}
		if runDisabled() != "true" || tb.Str(`String(document.querySelector('#xj-import-modal .xj-i-report').hidden)`) != "true" {
			t.Error("a refused document can be imported")
		}
		tb.Clean("refused import")
	})

	t.Run("normal user", func(t *testing.T) {
		_, tb := openFresh(t, b, "/jobinfo?normal=1", "jobinfo")
		if n := tb.Str(`String(document.querySelectorAll('#xj-import, #xj-import-modal').length)`); n != "0" {
			t.Error("a normal user is offered the import")
		}
		if n := tb.Str(`String(document.querySelectorAll('#xj-export-group, #xj-export-all').length)`); n != "2" {
			t.Error("a normal user has no export")
		}
		tb.Clean("normal user")
	})

	// the page's own words exist in every language
	for _, lang := range langs {
		t.Run("words/"+lang, func(t *testing.T) {
			_, tb := openFresh(t, b, "/jobinfo?lang="+lang, "jobinfo")
			var missing []string
			tb.Run(`Array.prototype.filter.call(document.querySelectorAll('.xj-word'), function (e) {
				return e.textContent === '' || e.textContent === e.getAttribute('data-word'); }).map(function (e) { return e.getAttribute('data-word'); })`, &missing)
			if len(missing) > 0 {
				t.Errorf("words missing: %v", missing)
			}
			if got := tb.Str(`document.getElementById('xj-select-all').getAttribute('aria-label')`); got == "" || got == "selectAll" {
				t.Errorf("select-all label %q", got)
			}
		})
	}
}

func jsQuote(s string) string {
	r := strings.NewReplacer(`\`, `\\`, `'`, `\'`, "\n", `\n`)
	return "'" + r.Replace(s) + "'"
}
