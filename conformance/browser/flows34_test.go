package browser_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/xxl-admin-go/xxl-admin-go/internal/testsupport/browser"
)

// The 3.x pages' actions against the real endpoints, checked on the
// database rows and on what the executor received. The pages are opened
// on their own (as the frame's iframes load them); window.open is caught
// to see which window a button opens.

// catchOpen makes window.open record its URL (window.xjOpened).
const catchOpen = `window.open = function (u) { window.xjOpened = String(u); return null; }, true`

// pathOf is the path of a console URL (its context path, "" at the root).
func pathOf(base string) string {
	return strings.TrimPrefix(strings.TrimPrefix(base, "http://"), hostOf(base))
}

// toolbar clicks a toolbar button.
func toolbar(tb *browser.Tab, id string) {
	tb.T.Helper()
	tb.Click(`#` + id)
}

// toast waits for a toast holding text.
func toast(tb *browser.Tab, text string) {
	tb.T.Helper()
	tb.Wait(`[].some.call(document.querySelectorAll('.xj-toast'), function (e) { return e.textContent.indexOf(` + quote(text) + `) >= 0; })`)
}

// i18nText is a text of the page's bundle.
func i18nText(tb *browser.Tab, key string) string {
	tb.T.Helper()
	return tb.Str(`XJ.t(` + quote(key) + `)`)
}

func TestJobFlows34(t *testing.T) {
	t.Parallel()
	b := browser.ForTest(t)
	a := startAdmin34(t, "en", "")
	tb := browser.NewTab(t, b, 3*time.Minute)
	login34(tb, a.base, "admin", "123456")
	const list = "#xj-job-list"
	loads := 1
	open := func() {
		tb.T.Helper()
		tb.Open(a.base + "/jobinfo?jobGroup=2")
		loads = 1
		tb.Wait(tableLoaded(list, loads))
		tb.Run(catchOpen, nil)
	}
	reloaded := func() {
		tb.T.Helper()
		loads++
		tb.Wait(tableLoaded(list, loads))
	}
	open()
	if got := strings.Join(rowsOf(tb, list), ","); got != "8,7,4,2" {
		t.Fatalf("group 2's jobs %s", got)
	}

	// the single-row buttons: disabled with no row, and they say so
	if tb.Str(`String(document.querySelectorAll('.xj-toolbar .xj-one.disabled').length)`) != "10" {
		t.Errorf("single-row buttons not all disabled: %s", tb.Str(`document.querySelector('.xj-toolbar').innerHTML`))
	}
	toolbar(tb, "xj-edit")
	toast(tb, i18nText(tb, "system_please_choose"))
	// a click selects that row alone, a check box adds one
	tb.Click(`#xj-job-list tbody tr[data-index="1"] td:nth-child(2)`) // job 7
	tb.Click(`#xj-job-list tbody tr[data-index="3"] td:nth-child(2)`) // job 2
	if got := strings.Join(selected(tb, list), ","); got != "2" {
		t.Errorf("after two clicks %s selected", got)
	}
	if tb.Str(`String(document.querySelectorAll('.xj-toolbar .xj-one.disabled').length)`) != "0" {
		t.Error("single-row buttons disabled with one row")
	}
	checkRow(tb, list, "7")
	if got := strings.Join(selected(tb, list), ","); got != "7,2" || tb.Str(`document.getElementById('xj-selected-count').textContent`) != "2" {
		t.Errorf("after a check box %s selected, badge %q", got, tb.Str(`document.getElementById('xj-selected-count').textContent`))
	}

	t.Run("add", func(t *testing.T) {
		tb.T = t
		toolbar(tb, "xj-add")
		tb.Shown(`#xj-job-modal`)
		tb.Click(`#xj-job-modal button[type=submit]`)
		tb.Wait(`document.querySelectorAll('#xj-job-modal .has-error').length >= 3`) // desc, author, cron, handler
		tb.Set(`#xj-f-desc`, "nightly report")
		tb.Set(`#xj-f-author`, "ops")
		tb.Set(`#xj-f-cron`, "0 0 1 * * ?")
		tb.Set(`#xj-f-handler`, "reportHandler")
		tb.Set(`#xj-f-param`, "day=1")
		tb.Click(`#xj-job-modal button[type=submit]`)
		tb.Hidden(`#xj-job-modal`)
		reloaded()
		if got := one[string](t, a.db, `SELECT job_desc || '|' || author || '|' || schedule_type || '|' || schedule_conf || '|' || executor_handler || '|' || executor_param || '|' || glue_remark FROM xxl_job_info WHERE job_group = 2 AND job_desc = 'nightly report'`); got != "nightly report|ops|CRON|0 0 1 * * ?|reportHandler|day=1|GLUE代码初始化" {
			t.Errorf("added job %q", got)
		}
	})
	added := itoa(one[int64](t, a.db, `SELECT id FROM xxl_job_info WHERE job_desc = 'nightly report'`))

	t.Run("edit", func(t *testing.T) {
		tb.T = t
		selectRow(tb, list, added)
		toolbar(tb, "xj-edit")
		tb.Shown(`#xj-job-modal`)
		if got := tb.Str(`document.getElementById('xj-f-cron').value + '|' + document.getElementById('xj-f-glue').disabled`); got != "0 0 1 * * ?|true" {
			t.Errorf("edit form %q", got)
		}
		tb.Set(`#xj-f-desc`, "nightly report v2")
		tb.Click(`#xj-job-modal button[type=submit]`)
		tb.Hidden(`#xj-job-modal`)
		reloaded()
		if got := one[string](t, a.db, `SELECT job_desc FROM xxl_job_info WHERE id = ?`, added); got != "nightly report v2" {
			t.Errorf("edited job %q", got)
		}
	})

	t.Run("copy", func(t *testing.T) {
		tb.T = t
		selectRow(tb, list, "7") // FIX_RATE 3600
		toolbar(tb, "xj-copy")
		tb.Shown(`#xj-job-modal`)
		if got := tb.Str(`document.getElementById('xj-f-stype').value + '|' + document.getElementById('xj-f-rate').value + '|' + document.getElementById('xj-f-desc').value`); got != "FIX_RATE|3600|fix rate job" {
			t.Errorf("copy form %q", got)
		}
		tb.Set(`#xj-f-desc`, "fix rate copy")
		tb.Click(`#xj-job-modal button[type=submit]`)
		tb.Hidden(`#xj-job-modal`)
		reloaded()
		if got := one[string](t, a.db, `SELECT schedule_type || ' ' || schedule_conf FROM xxl_job_info WHERE job_desc = 'fix rate copy'`); got != "FIX_RATE 3600" {
			t.Errorf("copied job %q", got)
		}
	})

	t.Run("start and stop", func(t *testing.T) {
		tb.T = t
		selectRow(tb, list, "2")
		toolbar(tb, "xj-start")
		tb.Confirm()
		reloaded()
		if s := one[int](t, a.db, `SELECT trigger_status FROM xxl_job_info WHERE id = 2`); s != 1 {
			t.Errorf("started job 2: status %d", s)
		}
		if tb.Str(`(function () { var i = jQuery('#xj-job-list').bootstrapTable('getData').map(function (r) { return r.id; }).indexOf(2);
			return document.querySelector('#xj-job-list tbody tr[data-index="' + i + '"] .label').textContent; })()`) != "RUNNING" {
			t.Error("the list does not show job 2 running")
		}
		selectRow(tb, list, "2")
		toolbar(tb, "xj-stop")
		tb.Confirm()
		reloaded()
		if s := one[int](t, a.db, `SELECT trigger_status FROM xxl_job_info WHERE id = 2`); s != 0 {
			t.Errorf("stopped job 2: status %d", s)
		}
	})

	t.Run("run once", func(t *testing.T) {
		tb.T = t
		selectRow(tb, list, "2")
		toolbar(tb, "xj-run")
		tb.Shown(`#xj-trigger-modal`)
		tb.Set(`#xj-t-param`, "once=1")
		tb.Click(`#xj-trigger-modal button[type=submit]`)
		tb.Hidden(`#xj-trigger-modal`)
		ctx, cancel := context.WithTimeout(tb.Ctx, 20*time.Second)
		defer cancel()
		run, err := a.exec.wait(ctx, "/run", 1)
		if err != nil {
			t.Fatal(err)
		}
		if run.Body["jobId"] != float64(2) || run.Body["executorParams"] != "once=1" {
			t.Errorf("executor got %v", run.Body)
		}
	})

	t.Run("next times and registry", func(t *testing.T) {
		tb.T = t
		selectRow(tb, list, "2")
		toolbar(tb, "xj-next-time")
		tb.Wait(`document.querySelectorAll('.xj-dialog.in .xj-next-times li').length === 5`)
		tb.Confirm()
		toolbar(tb, "xj-registry")
		tb.Wait(`document.querySelector('.xj-dialog.in .xj-address-list li')`)
		if got := tb.Str(`document.querySelector('.xj-dialog.in .xj-address-list').textContent`); got != a.exec.address() {
			t.Errorf("registry %q", got)
		}
		tb.Confirm()
	})

	t.Run("windows and tabs", func(t *testing.T) {
		tb.T = t
		selectRow(tb, list, "4") // GLUE shell: the IDE in a window
		toolbar(tb, "xj-glue")
		if got := tb.Str(`window.xjOpened`); got != pathOf(a.base)+"/jobcode?jobId=4" {
			t.Errorf("GLUE IDE opened %q", got)
		}
		tb.Run(`window.xjOpened = '', true`, nil)
		selectRow(tb, list, "2") // BEAN: no IDE
		toolbar(tb, "xj-glue")
		toast(tb, i18nText(tb, "jobinfo_glue_gluetype_invalid"))
		if tb.Str(`window.xjOpened`) != "" {
			t.Error("a BEAN job opened the IDE")
		}
		toolbar(tb, "xj-log") // not in the frame: a window
		if got := tb.Str(`window.xjOpened`); got != pathOf(a.base)+"/joblog?jobId=2" {
			t.Errorf("query log opened %q", got)
		}
	})

	t.Run("delete", func(t *testing.T) {
		tb.T = t
		selectRow(tb, list, added)
		toolbar(tb, "xj-delete")
		tb.Confirm()
		reloaded()
		if n := one[int](t, a.db, `SELECT COUNT(*) FROM xxl_job_info WHERE id = ?`, added); n != 0 {
			t.Errorf("deleted job still there")
		}
	})

	t.Run("executor filter", func(t *testing.T) {
		tb.T = t
		// the executor is a select2 search; choosing one reloads the page on it
		tb.Run(`jQuery('#xj-filter-group').select2('open'), true`, nil)
		tb.Wait(`document.querySelector('.select2-search__field')`)
		tb.Set(`.select2-search__field`, "其他")
		tb.Wait(`document.querySelectorAll('.select2-results__option').length === 1`)
		if got := tb.Str(`document.querySelector('.select2-results__option').textContent`); got != "其他执行器" {
			t.Errorf("search '其他' found %q", got)
		}
		tb.Navigating(func() {
			tb.Run(`jQuery('.select2-results__option').trigger('mouseup'), true`, nil)
		})
		tb.Wait(tableLoaded(list, 1))
		if got := tb.Str(`location.search`) + " " + strings.Join(rowsOf(tb, list), ","); got != "?jobGroup=3 6,5,3" {
			t.Errorf("group 3: %s", got)
		}
	})
	tb.T = t
	tb.Clean("job list")
}

func TestLogFlows34(t *testing.T) {
	t.Parallel()
	b := browser.ForTest(t)
	a := startAdmin34(t, "en", "")
	tb := browser.NewTab(t, b, 3*time.Minute)
	login34(tb, a.base, "admin", "123456")
	const list = "#xj-log-list"
	tb.Open(a.base + "/joblog?jobId=2")
	tb.Wait(tableLoaded(list, 1))
	tb.Run(catchOpen, nil)
	if got := strings.Join(rowsOf(tb, list), ","); got != "5,4,3,2,1" {
		t.Fatalf("job 2's logs %s", got)
	}
	// the job column names the job from the job filter
	if got := tb.Str(`document.querySelector('#xj-log-list tbody tr td:nth-child(3)').textContent`); got != "【2】fake be..." {
		t.Errorf("job cell %q", got)
	}

	// the status filter applies on search
	tb.Set(`#xj-filter-status`, "2")
	tb.Click(`#xj-search`)
	tb.Wait(tableLoaded(list, 2))
	if got := strings.Join(rowsOf(tb, list), ","); got != "4,2" {
		t.Errorf("failed logs %s", got)
	}
	if tb.Str(`String(document.querySelector('.xj-lower-bound') !== null)`) != "false" {
		t.Error("an exact total is marked as a lower bound")
	}
	// a total that is a lower bound ("countExact": false, a large table's
	// list whose count gave up) is marked on the pager's info
	tb.Run(`window.xjPost = XJ.post; XJ.post = function (path, data) {
		return window.xjPost(path, data).then(function (a) {
			if (path === '/joblog/pageList' && a && a.content) { a.content.countExact = false; }
			return a;
		});
	}, true`, nil)
	tb.Click(`#xj-search`)
	tb.Wait(tableLoaded(list, 3))
	tb.Wait(`document.querySelector('.xj-lower-bound') !== null`)
	if got := tb.Str(`document.querySelector('.xj-lower-bound').textContent`); got != " (≥ 2)" {
		t.Errorf("lower bound marked %q", got)
	}
	tb.Run(`XJ.post = window.xjPost, true`, nil)
	tb.Click(`#xj-reset`)
	tb.Wait(tableLoaded(list, 4))
	if tb.Str(`String(document.querySelector('.xj-lower-bound') !== null)`) != "false" {
		t.Error("the lower-bound mark stays on an exact total")
	}

	// a message opens in a dialog without changing the selection
	selectRow(tb, list, "1")
	tb.Click(`#xj-log-list tbody tr[data-index="4"] .xj-log-msg[data-kind="handleMsg"]`)
	tb.Wait(`document.querySelector('.xj-dialog.in.xj-msg-dark .xj-msg')`)
	if got := tb.Str(`document.querySelector('.xj-dialog.in .xj-msg').textContent`); got != "ok" {
		t.Errorf("handle message %q", got)
	}
	tb.Confirm()
	if got := strings.Join(selected(tb, list), ","); got != "1" {
		t.Errorf("selection after the message: %s", got)
	}

	// the rolling log in a window
	tb.Click(`#xj-detail`)
	if got := tb.Str(`window.xjOpened`); got != pathOf(a.base)+"/joblog/logDetailPage?id=1" {
		t.Errorf("rolling log opened %q", got)
	}

	// kill the running log 3
	selectRow(tb, list, "3")
	tb.Click(`#xj-kill`)
	tb.Accept() // confirm
	tb.Wait(`document.querySelectorAll('.xj-dialog').length === 1 && document.querySelector('.xj-dialog.in')`)
	tb.Confirm() // "operation succeeded"
	tb.Wait(tableLoaded(list, 5))
	ctx, cancel := context.WithTimeout(tb.Ctx, 10*time.Second)
	defer cancel()
	if _, err := a.exec.wait(ctx, "/kill", 1); err != nil {
		t.Fatal(err)
	}
	if code := one[int](t, a.db, `SELECT handle_code FROM xxl_job_log WHERE id = 3`); code != 500 {
		t.Errorf("killed log's handle code %d", code)
	}

	// clear every log of job 2; job 3's stay
	tb.Click(`#xj-clean`)
	tb.Shown(`#xj-clear-modal`)
	if got := tb.Str(`document.getElementById('xj-clear-group').value + '|' + document.getElementById('xj-clear-job').value`); got != "假执行器|fake bean job" {
		t.Errorf("clear dialog %q", got)
	}
	tb.Set(`#xj-clear-type`, "9")
	tb.Click(`#xj-clear-modal button[type=submit]`)
	tb.Hidden(`#xj-clear-modal`)
	tb.Confirm()
	tb.Wait(tableLoaded(list, 6))
	if n := one[int](t, a.db, `SELECT COUNT(*) FROM xxl_job_log WHERE job_id = 2`); n != 0 {
		t.Errorf("%d logs of job 2 left", n)
	}
	if n := one[int](t, a.db, `SELECT COUNT(*) FROM xxl_job_log WHERE job_id = 3`); n != 2 {
		t.Errorf("%d logs of job 3 left, want 2", n)
	}

	// the job filter is a select2 search over the executor's jobs
	tb.Run(`jQuery('#xj-filter-job').select2('open'), true`, nil)
	tb.Set(`.select2-search__field`, "glue")
	tb.Wait(`document.querySelectorAll('.select2-results__option').length === 1`)
	if got := tb.Str(`document.querySelector('.select2-results__option').textContent`); got != "shell glue job" {
		t.Errorf("search 'glue' found %q", got)
	}
	tb.Clean("log list")
}

func TestGroupAndUserFlows34(t *testing.T) {
	t.Parallel()
	b := browser.ForTest(t)
	a := startAdmin34(t, "en", "")
	tb := browser.NewTab(t, b, 3*time.Minute)
	login34(tb, a.base, "admin", "123456")

	t.Run("executors", func(t *testing.T) {
		tb.T = t
		const list = "#xj-group-list"
		tb.Open(a.base + "/jobgroup")
		tb.Wait(tableLoaded(list, 1))
		tb.Click(`#xj-add`)
		tb.Shown(`#xj-group-modal`)
		tb.Set(`#xj-g-appname`, "new-executor")
		tb.Set(`#xj-g-title`, "New executor")
		tb.Click(`#xj-group-modal input[name=addressType][value="1"]`)
		tb.Set(`#xj-g-address`, "http://127.0.0.1:9999/")
		tb.Click(`#xj-group-modal button[type=submit]`)
		tb.Hidden(`#xj-group-modal`)
		tb.Wait(tableLoaded(list, 2))
		id := itoa(one[int64](t, a.db, `SELECT id FROM xxl_job_group WHERE app_name = 'new-executor'`))
		selectRow(tb, list, id)
		tb.Click(`#xj-edit`)
		tb.Shown(`#xj-group-modal`)
		if got := tb.Str(`document.getElementById('xj-g-address').value`); got != "http://127.0.0.1:9999/" {
			t.Errorf("edit form address %q", got)
		}
		tb.Set(`#xj-g-title`, "Renamed executor")
		tb.Click(`#xj-group-modal button[type=submit]`)
		tb.Hidden(`#xj-group-modal`)
		tb.Wait(tableLoaded(list, 3))
		if got := one[string](t, a.db, `SELECT title FROM xxl_job_group WHERE id = ?`, id); got != "Renamed executor" {
			t.Errorf("title %q", got)
		}
		// the online addresses of group 2
		tb.Click(`#xj-group-list tbody tr[data-index="1"] .xj-addresses`)
		tb.Wait(`document.querySelector('.xj-dialog.in .xj-address-table')`)
		tb.Confirm()
		selectRow(tb, list, id)
		tb.Click(`#xj-delete`)
		tb.Confirm()
		tb.Wait(tableLoaded(list, 4))
		if n := one[int](t, a.db, `SELECT COUNT(*) FROM xxl_job_group WHERE id = ?`, id); n != 0 {
			t.Error("deleted executor still there")
		}
		tb.Clean("executors")
	})

	t.Run("users", func(t *testing.T) {
		tb.T = t
		const list = "#xj-user-list"
		tb.Open(a.base + "/user")
		tb.Wait(tableLoaded(list, 1))
		if got := tb.Str(`document.querySelector('#xj-user-list tbody tr td:nth-child(3)').textContent`); got != "******" {
			t.Errorf("password cell %q", got)
		}
		tb.Click(`#xj-add`)
		tb.Shown(`#xj-user-modal`)
		tb.Set(`#xj-u-username`, "newuser34")
		tb.Set(`#xj-u-password`, "abcdef")
		tb.Click(`#xj-user-modal input[name=permission][value="2"]`)
		tb.Click(`#xj-user-modal button[type=submit]`)
		tb.Hidden(`#xj-user-modal`)
		tb.Wait(tableLoaded(list, 2))
		if got := one[string](t, a.db, `SELECT role || '|' || permission || '|' || password FROM xxl_job_user WHERE username = 'newuser34'`); got != "0|2|bef57ec7f53a6d40beb640a780a639c83bc29ac8a9816f1fc6c5c6dcd93c4721" {
			t.Errorf("new user %q", got)
		}
		id := itoa(one[int64](t, a.db, `SELECT id FROM xxl_job_user WHERE username = 'newuser34'`))
		selectRow(tb, list, id)
		tb.Click(`#xj-edit`)
		tb.Shown(`#xj-user-modal`)
		tb.Click(`#xj-user-modal input[name=role][value="1"]`)
		tb.Click(`#xj-user-modal button[type=submit]`)
		tb.Hidden(`#xj-user-modal`)
		tb.Wait(tableLoaded(list, 3))
		if r := one[int](t, a.db, `SELECT role FROM xxl_job_user WHERE id = ?`, id); r != 1 {
			t.Errorf("role %d", r)
		}
		// the logged-in user cannot delete itself
		selectRow(tb, list, "1")
		tb.Click(`#xj-delete`)
		tb.Accept()
		tb.Wait(`document.querySelector('.xj-dialog.in .xj-dialog-text')`)
		if got := tb.Str(`document.querySelector('.xj-dialog.in .xj-dialog-text').textContent`); got != i18nText(tb, "user_update_loginuser_limit") {
			t.Errorf("deleting oneself: %q", got)
		}
		tb.Confirm()
		selectRow(tb, list, id)
		tb.Click(`#xj-delete`)
		tb.Confirm()
		tb.Wait(tableLoaded(list, 4))
		if n := one[int](t, a.db, `SELECT COUNT(*) FROM xxl_job_user WHERE id = ?`, id); n != 0 {
			t.Error("deleted user still there")
		}
		tb.Clean("users")
	})
}
