package static_test

import (
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/xxl-admin-go/xxl-admin-go/internal/testsupport/browser"
)

// checkForm compares a recorded call's form with want (every key, no other)
// and checks it was sent as the Java pages send it: form-encoded, with
// X-Requested-With (recordings java-admin-2.4.2/*: every console call).
func checkForm(t *testing.T, got request, want map[string]string) {
	t.Helper()
	if got.XRW != "XMLHttpRequest" {
		t.Errorf("%s: X-Requested-With %q", got.Path, got.XRW)
	}
	if !strings.HasPrefix(got.ContentType, "application/x-www-form-urlencoded") {
		t.Errorf("%s: Content-Type %q", got.Path, got.ContentType)
	}
	var keys []string
	for k := range got.Form {
		keys = append(keys, k)
	}
	var wantKeys []string
	for k := range want {
		wantKeys = append(wantKeys, k)
	}
	slices.Sort(keys)
	slices.Sort(wantKeys)
	if !slices.Equal(keys, wantKeys) {
		t.Errorf("%s: form keys %v, want %v", got.Path, keys, wantKeys)
	}
	for k, v := range want {
		if v == "*" {
			continue
		}
		if g := got.Form.Get(k); g != v {
			t.Errorf("%s: %s = %q, want %q", got.Path, k, g, v)
		}
	}
}

var jobFields = map[string]string{
	"jobGroup": "2", "jobDesc": "*", "author": "*", "alarmEmail": "*", "scheduleType": "*", "scheduleConf": "*",
	"glueType": "*", "executorHandler": "*", "executorParam": "*", "executorRouteStrategy": "FIRST", "childJobId": "*",
	"misfireStrategy": "DO_NOTHING", "executorBlockStrategy": "SERIAL_EXECUTION", "executorTimeout": "0",
	"executorFailRetryCount": "0",
}

func with(base map[string]string, kv ...string) map[string]string {
	out := map[string]string{}
	for k, v := range base {
		out[k] = v
	}
	for i := 0; i+1 < len(kv); i += 2 {
		if kv[i+1] == "-" {
			delete(out, kv[i])
		} else {
			out[kv[i]] = kv[i+1]
		}
	}
	return out
}

// The job form sends exactly the job fields (jobinfo_add.en: the Java form's
// field names), the GLUE template and remark on add, the id on update.
func TestJobForm(t *testing.T) {
	t.Parallel()
	b := browser.ForTest(t)

	t.Run("add GLUE shell with cron", func(t *testing.T) {
		srv, tb := openFresh(t, b, "/jobinfo", "jobinfo")
		tb.Click(`#xj-add`)
		tb.Shown(`#xj-job-modal`)
		tb.Click(`#xj-job-modal button[type=submit]`) // empty: stopped in the browser
		tb.Wait(`document.querySelectorAll('#xj-job-modal .has-error').length >= 3`)
		if n := len(srv.calls("/jobinfo/add")); n != 0 {
			t.Fatalf("invalid form was sent (%d calls)", n)
		}
		tb.Set(`#xj-f-desc`, "shell glue")
		tb.Set(`#xj-f-author`, "rec")
		tb.Set(`#xj-f-cron`, "0 0 1 * * ?")
		tb.Set(`#xj-f-glue`, "GLUE_SHELL")
		if tb.Str(`String(document.getElementById('xj-f-handler').readOnly)`) != "true" {
			t.Error("JobHandler is editable for a GLUE job")
		}
		tb.Click(`#xj-job-modal button[type=submit]`)
		got := tb.waitCall("/jobinfo/add", 1)
		checkForm(t, got, with(jobFields, "jobDesc", "shell glue", "author", "rec", "alarmEmail", "",
			"scheduleType", "CRON", "scheduleConf", "0 0 1 * * ?", "glueType", "GLUE_SHELL", "executorHandler", "",
			"executorParam", "", "childJobId", "", "glueRemark", "GLUE代码初始化", "glueSource", "*"))
		if src := got.Form.Get("glueSource"); !strings.HasPrefix(src, "#!/bin/bash\n") || !strings.Contains(src, "$1") {
			t.Errorf("glueSource %q is not a shell template", src)
		}
		tb.Wait(`!document.querySelector('#xj-job-modal.in') && document.querySelector('.xj-toast')`)
		tb.Clean("add")
	})

	t.Run("add BEAN with fix rate", func(t *testing.T) {
		_, tb := openFresh(t, b, "/jobinfo", "jobinfo")
		tb.Click(`#xj-add`)
		tb.Shown(`#xj-job-modal`)
		tb.Set(`#xj-f-desc`, "rate job")
		tb.Set(`#xj-f-author`, "rec")
		tb.Set(`#xj-f-stype`, "FIX_RATE")
		tb.Set(`#xj-f-rate`, "30")
		tb.Set(`#xj-f-handler`, "demoJobHandler")
		tb.Set(`#xj-f-timeout`, "1.5") // not digits: refused in the browser
		tb.Click(`#xj-job-modal button[type=submit]`)
		tb.Wait(`document.querySelector('#xj-f-timeout').closest('.has-error')`)
		tb.Set(`#xj-f-timeout`, "")
		tb.Click(`#xj-job-modal button[type=submit]`)
		checkForm(t, tb.waitCall("/jobinfo/add", 1), with(jobFields, "scheduleType", "FIX_RATE", "scheduleConf", "30",
			"glueType", "BEAN", "executorHandler", "demoJobHandler", "glueRemark", "GLUE代码初始化", "glueSource", ""))
	})

	t.Run("edit and copy", func(t *testing.T) {
		_, tb := openFresh(t, b, "/jobinfo", "jobinfo")
		tb.Click(`#xj-job-list tbody tr:nth-child(1) .xj-edit`)
		tb.Shown(`#xj-job-modal`)
		if got := tb.Str(`document.getElementById('xj-f-desc').value`); got != xssDesc {
			t.Errorf("jobDesc field %q", got)
		}
		if tb.Str(`String(document.getElementById('xj-f-glue').disabled)`) != "true" {
			t.Error("GLUE type can be changed on edit")
		}
		tb.Click(`#xj-job-modal button[type=submit]`)
		checkForm(t, tb.waitCall("/jobinfo/update", 1), with(jobFields, "id", "9", "jobDesc", xssDesc, "author", xssAuthor,
			"alarmEmail", "a@b.c", "scheduleType", "CRON", "scheduleConf", "0 0 1 * * ?", "glueType", "BEAN",
			"executorHandler", "demoJobHandler", "executorParam", "p=1", "childJobId", ""))
		tb.Hidden(`#xj-job-modal`)

		tb.Click(`#xj-job-list tbody tr:nth-child(2) .xj-copy`)
		tb.Shown(`#xj-job-modal`)
		tb.Click(`#xj-job-modal button[type=submit]`)
		checkForm(t, tb.waitCall("/jobinfo/add", 1), with(jobFields, "jobDesc", "fix rate job", "scheduleType", "FIX_RATE",
			"scheduleConf", "3600", "glueType", "GLUE_SHELL", "executorHandler", "", "glueRemark", "GLUE代码初始化", "glueSource", "*"))
		tb.Clean("edit and copy")
	})
}

// The cron builder reads the expression into its fields and writes each
// choice back (day and week kept exclusive with "?").
func TestCronBuilder(t *testing.T) {
	t.Parallel()
	b := browser.ForTest(t)
	_, tb := openFresh(t, b, "/jobinfo", "jobinfo")
	tb.Click(`#xj-add`)
	tb.Shown(`#xj-job-modal`)
	tb.Set(`#xj-f-cron`, "0 0 1 * * ?")
	tb.Click(`.xj-cron-toggle`)
	tb.Wait(`!document.querySelector('.xj-cron-builder').hidden`)
	tb.Screenshot("cron-builder")
	mode := func(field string) string {
		return tb.Str(`document.querySelector('.xj-cron-pane[data-field=` + field + `] input[type=radio]:checked').value`)
	}
	for field, want := range map[string]string{"second": "list", "minute": "list", "hour": "list", "day": "every", "week": "unspecified", "year": "none"} {
		if got := mode(field); got != want {
			t.Errorf("%s: mode %q, want %q", field, got, want)
		}
	}
	cron := func() string { return tb.Str(`document.getElementById('xj-f-cron').value`) }
	steps := []struct{ click, want string }{
		{`.xj-cron-pane[data-field=minute] input[value=every]`, "0 * 1 * * ?"},
		{`.xj-cron-pane[data-field=week] .xj-cron-values input[value="2"]`, "0 * 1 ? * 2"},
		{`.xj-cron-pane[data-field=week] .xj-cron-values input[value="6"]`, "0 * 1 ? * 2,6"},
		{`.xj-cron-pane[data-field=day] input[value=last]`, "0 * 1 L * ?"},
		{`.xj-cron-pane[data-field=year] input[value=every]`, "0 * 1 L * ? *"},
		{`.xj-cron-pane[data-field=year] input[value=none]`, "0 * 1 L * ?"},
	}
	for _, s := range steps {
		tb.Click(s.click)
		if got := cron(); got != s.want {
			t.Errorf("after %s: %q, want %q", s.click, got, s.want)
		}
	}
	tb.Set(`.xj-cron-pane[data-field=hour] .xj-step-a`, "2")
	if got := cron(); got != "0 * 2/1 L * ?" {
		t.Errorf("step: %q", got)
	}
	// a part the builder cannot show is kept as written
	tb.Set(`#xj-f-cron`, "0 0 12 ? * MON-FRI")
	tb.Click(`.xj-cron-toggle`) // hide
	tb.Click(`.xj-cron-toggle`) // show again: re-read
	if got := mode("week"); got != "custom" {
		t.Errorf("week mode %q for MON-FRI", got)
	}
	tb.Click(`.xj-cron-pane[data-field=second] input[value=every]`)
	if got := cron(); got != "* 0 12 ? * MON-FRI" {
		t.Errorf("custom part not kept: %q", got)
	}
	tb.Click(`.xj-cron-next button`)
	tb.Wait(`document.querySelectorAll('.xj-cron-next-list li').length === 5`)
	if got := tb.waitCall("/jobinfo/nextTriggerTime", 1); got.Form.Get("scheduleType") != "CRON" || got.Form.Get("scheduleConf") != "* 0 12 ? * MON-FRI" {
		t.Errorf("next times asked with %v", got.Form)
	}
	tb.Clean("cron builder")
}

// The job list's row actions call their endpoints with the row's id.
func TestJobRowActions(t *testing.T) {
	t.Parallel()
	b := browser.ForTest(t)
	_, tb := openFresh(t, b, "/jobinfo", "jobinfo")
	first := `#xj-job-list tbody tr:nth-child(1) `

	checkForm(t, tb.waitCall("/jobinfo/pageList", 1), map[string]string{"jobGroup": "2", "triggerStatus": "-1", "jobDesc": "",
		"executorHandler": "", "author": "", "start": "0", "length": "10"})

	tb.Click(first + `.xj-run`)
	tb.Shown(`#xj-trigger-modal`)
	if got := tb.Str(`document.getElementById('xj-t-param').value`); got != "p=1" {
		t.Errorf("run once param %q", got)
	}
	tb.Set(`#xj-t-address`, "http://127.0.0.1:19991/")
	tb.Click(`#xj-trigger-modal button[type=submit]`)
	checkForm(t, tb.waitCall("/jobinfo/trigger", 1), map[string]string{"id": "9", "executorParam": "p=1", "addressList": "http://127.0.0.1:19991/"})
	tb.Hidden(`#xj-trigger-modal`)

	tb.Click(first + `.xj-stop`)
	tb.Confirm()
	checkForm(t, tb.waitCall("/jobinfo/stop", 1), map[string]string{"id": "9"})

	tb.Click(`#xj-job-list tbody tr:nth-child(2) .xj-start`)
	tb.Confirm()
	checkForm(t, tb.waitCall("/jobinfo/start", 1), map[string]string{"id": "7"})

	tb.Click(first + `.xj-registry`)
	tb.Wait(`document.querySelectorAll('.xj-dialog.in .xj-address-list li').length === 2`)
	checkForm(t, tb.waitCall("/jobgroup/loadById", 1), map[string]string{"id": "2"})
	if got := tb.Str(`document.querySelector('.xj-dialog.in .xj-address-list').textContent`); got != "http://127.0.0.1:19991/"+xssTitle {
		t.Errorf("registry list %q", got)
	}
	tb.Confirm()

	tb.Click(first + `.xj-next-time`)
	tb.Wait(`document.querySelectorAll('.xj-dialog.in .xj-next-times li').length === 5`)
	checkForm(t, tb.waitCall("/jobinfo/nextTriggerTime", 1), map[string]string{"scheduleType": "CRON", "scheduleConf": "0 0 1 * * ?"})
	tb.Confirm()

	if got := tb.Str(`document.querySelector('#xj-job-list tbody tr:nth-child(2) a[href*="/jobcode"]').getAttribute('href')`); got != contextPath+"/jobcode?jobId=7" {
		t.Errorf("GLUE IDE link %q", got)
	}
	if n := tb.Str(`String(document.querySelectorAll('#xj-job-list tbody tr:nth-child(3) a[href*="/jobcode"], #xj-job-list tbody tr:nth-child(3) .xj-next-time').length)`); n != "0" {
		t.Errorf("BEAN/NONE row offers GLUE IDE or next times")
	}

	tb.Click(first + `.xj-delete`)
	tb.Confirm()
	checkForm(t, tb.waitCall("/jobinfo/remove", 1), map[string]string{"id": "9"})

	tb.Set(`#xj-filter-status`, "1")
	tb.Set(`#xj-filter-desc`, "glue")
	tb.Click(`#xj-search`)
	var last request
	for n := 1; ; n++ {
		last = tb.waitCall("/jobinfo/pageList", n)
		if last.Form.Get("jobDesc") == "glue" {
			break
		}
	}
	checkForm(t, last, map[string]string{"jobGroup": "2", "triggerStatus": "1", "jobDesc": "glue", "executorHandler": "",
		"author": "", "start": "0", "length": "10"})
	tb.Clean("row actions")
}

var filterTimeRe = regexp.MustCompile(`^\d{4}-\d\d-\d\d 00:00:00 - \d{4}-\d\d-\d\d 23:59:59$`)

// The log list asks with the recorded parameters (joblog_pageList.en), loads
// the group's jobs, kills and clears.
func TestJobLogActions(t *testing.T) {
	t.Parallel()
	b := browser.ForTest(t)
	srv, tb := openFresh(t, b, "/joblog?jobId=7", "joblog")

	checkForm(t, tb.waitCall("/joblog/getJobsByGroup", 1), map[string]string{"jobGroup": "2"})
	first := tb.waitCall("/joblog/pageList", 1)
	checkForm(t, first, map[string]string{"jobGroup": "2", "jobId": "7", "logStatus": "-1", "filterTime": "*", "start": "0", "length": "10"})
	if ft := first.Form.Get("filterTime"); !filterTimeRe.MatchString(ft) {
		t.Errorf("filterTime %q is not today as yyyy-MM-dd HH:mm:ss - yyyy-MM-dd HH:mm:ss", ft)
	}
	if got := tb.Str(`document.getElementById('xj-filter-job').value`); got != "7" {
		t.Errorf("job %q not preselected", got)
	}
	if got := tb.Str(`document.querySelector('#xj-filter-job option[value="7"]').textContent`); got != xssDesc {
		t.Errorf("job option text %q", got)
	}
	if n := tb.Str(`String(document.querySelectorAll('#xj-log-list tbody tr:nth-child(3) .btn-group').length)`); n != "0" {
		t.Error("a trigger-failed row offers operations")
	}
	if got := tb.Str(`document.querySelector('#xj-log-list tbody tr:nth-child(1) a[href*="logDetailPage"]').getAttribute('href')`); got != contextPath+"/joblog/logDetailPage?id=3" {
		t.Errorf("rolling log link %q", got)
	}

	tb.Click(`#xj-log-list tbody tr:nth-child(1) .xj-kill`)
	tb.Confirm()
	checkForm(t, tb.waitCall("/joblog/logKill", 1), map[string]string{"id": "3"})

	tb.Click(`#xj-clean`)
	tb.Shown(`#xj-clear-modal`)
	if got := tb.Str(`document.querySelector('#xj-clear-modal .xj-clear-job').textContent`); got != xssDesc {
		t.Errorf("clear dialog job %q", got)
	}
	tb.Set(`#xj-clear-type`, "9")
	tb.Click(`#xj-clear-modal button[type=submit]`)
	checkForm(t, tb.waitCall("/joblog/clearLog", 1), map[string]string{"jobGroup": "2", "jobId": "7", "type": "9"})
	tb.Hidden(`#xj-clear-modal`)

	tb.Click(`#xj-log-list tbody tr:nth-child(1) .xj-log-info`)
	tb.Wait(`document.querySelector('.xj-dialog.in .xj-log-info-list')`)
	if got := tb.Str(`document.querySelector('.xj-dialog.in .xj-log-info-list').textContent`); !strings.Contains(got, "<b>p</b>") {
		t.Errorf("log info %q lacks the param as text", got)
	}
	tb.Confirm()

	before := len(srv.calls("/joblog/getJobsByGroup"))
	tb.Set(`#xj-filter-group`, "0")
	tb.Wait(`document.querySelectorAll('#xj-filter-job option').length === 1`)
	var last request
	for n := 1; ; n++ {
		last = tb.waitCall("/joblog/pageList", n)
		if last.Form.Get("jobGroup") == "0" {
			break
		}
	}
	if last.Form.Get("jobId") != "0" {
		t.Errorf("All groups asked with jobId %q", last.Form.Get("jobId"))
	}
	if after := len(srv.calls("/joblog/getJobsByGroup")); after != before {
		t.Error("jobs of group 0 were asked for")
	}
	tb.Clean("log actions")
}

// A list whose total is a lower bound ("countExact":false, a large
// table) says so on its info line; an exact one again does not.
func TestJobLogLowerBound(t *testing.T) {
	t.Parallel()
	b := browser.ForTest(t)
	_, tb := openFresh(t, b, "/joblog?jobId=7", "joblog")
	tb.waitCall("/joblog/pageList", 1)
	tb.Set(`#xj-filter-status`, "2")
	tb.Click(`#xj-search`)
	tb.Wait(`document.querySelector('#xj-log-list_wrapper .dataTables_info .xj-lower-bound') !== null`)
	if got := tb.Str(`document.querySelector('#xj-log-list_wrapper .dataTables_info .xj-lower-bound').textContent`); got != " (≥ 51)" {
		t.Errorf("lower bound shown as %q", got)
	}
	tb.Set(`#xj-filter-status`, "-1")
	tb.Click(`#xj-search`)
	tb.Wait(`document.querySelector('#xj-log-list_wrapper .dataTables_info .xj-lower-bound') === null`)
	tb.Clean("log lower bound")
}

// Executor and user forms: client-side rules, then exactly the recorded
// parameters (jobgroup_save.en, user_add.en, user_update.en).
func TestGroupAndUserForms(t *testing.T) {
	t.Parallel()
	b := browser.ForTest(t)

	t.Run("executor", func(t *testing.T) {
		_, tb := openFresh(t, b, "/jobgroup", "jobgroup")
		checkForm(t, tb.waitCall("/jobgroup/pageList", 1), map[string]string{"appname": "", "title": "", "start": "0", "length": "10"})
		tb.Click(`#xj-add`)
		tb.Shown(`#xj-group-modal`)
		tb.Set(`#xj-g-appname`, "Bad-name")
		tb.Set(`#xj-g-title`, "abc")
		tb.Click(`#xj-group-modal button[type=submit]`)
		tb.Wait(`document.querySelectorAll('#xj-group-modal .has-error').length === 2`)
		tb.Set(`#xj-g-appname`, "rec-manual")
		tb.Set(`#xj-g-title`, "手动组手动组")
		tb.Click(`#xj-group-modal input[name=addressType][value="1"]`)
		tb.Click(`#xj-group-modal button[type=submit]`) // manual without addresses
		tb.Wait(`document.querySelector('#xj-g-address').closest('.has-error')`)
		tb.Set(`#xj-g-address`, "http://127.0.0.1:19991/,http://127.0.0.1:19992/")
		tb.Click(`#xj-group-modal button[type=submit]`)
		checkForm(t, tb.waitCall("/jobgroup/save", 1), map[string]string{"appname": "rec-manual", "title": "手动组手动组",
			"addressType": "1", "addressList": "http://127.0.0.1:19991/,http://127.0.0.1:19992/"})
		tb.Hidden(`#xj-group-modal`)

		tb.Click(`#xj-group-list tbody tr:nth-child(1) .xj-edit`)
		tb.Shown(`#xj-group-modal`)
		tb.Set(`#xj-g-title`, "fake")
		tb.Click(`#xj-group-modal button[type=submit]`)
		checkForm(t, tb.waitCall("/jobgroup/update", 1), map[string]string{"id": "2", "appname": "fake-executor", "title": "fake",
			"addressType": "1", "addressList": "http://127.0.0.1:19991/"})
		tb.Hidden(`#xj-group-modal`)

		tb.Click(`#xj-group-list tbody tr:nth-child(1) .xj-addresses`)
		tb.Wait(`document.querySelectorAll('.xj-dialog.in .xj-address-list li').length === 2`)
		tb.Confirm()
		tb.Click(`#xj-group-list tbody tr:nth-child(2) .xj-delete`)
		tb.Confirm()
		checkForm(t, tb.waitCall("/jobgroup/remove", 1), map[string]string{"id": "1"})
		tb.Clean("executor forms")
	})

	t.Run("user", func(t *testing.T) {
		_, tb := openFresh(t, b, "/user", "user")
		checkForm(t, tb.waitCall("/user/pageList", 1), map[string]string{"username": "", "role": "-1", "start": "0", "length": "10"})
		if got := tb.Str(`document.querySelector('#xj-user-list tbody tr:nth-child(2)').textContent`); !strings.Contains(got, xssUser) {
			t.Errorf("user row %q", got)
		}
		tb.Click(`#xj-add`)
		tb.Shown(`#xj-user-modal`)
		tb.Set(`#xj-u-username`, "Newuser")
		tb.Click(`#xj-user-modal button[type=submit]`)
		tb.Wait(`document.querySelectorAll('#xj-user-modal .has-error').length === 2`) // pattern, password required
		tb.Set(`#xj-u-username`, "newuser1")
		tb.Set(`#xj-u-password`, "pass1234")
		tb.Click(`#xj-user-modal input[name=permission][value="2"]`)
		tb.Click(`#xj-user-modal input[name=permission][value="3"]`)
		tb.Click(`#xj-user-modal button[type=submit]`)
		checkForm(t, tb.waitCall("/user/add", 1), map[string]string{"username": "newuser1", "password": "pass1234", "role": "0", "permission": "2,3"})
		tb.Hidden(`#xj-user-modal`)

		tb.Click(`#xj-user-list tbody tr:nth-child(2) .xj-edit`)
		tb.Shown(`#xj-user-modal`)
		if tb.Str(`String(document.getElementById('xj-u-username').readOnly)`) != "true" {
			t.Error("username editable on edit")
		}
		if tb.Str(`String(document.querySelectorAll('#xj-user-modal input[name=permission]:checked').length)`) != "2" {
			t.Error("permissions 2,3 not checked")
		}
		tb.Click(`#xj-user-modal input[name=permission][value="3"]`)
		tb.Click(`#xj-user-modal button[type=submit]`) // blank password keeps it
		checkForm(t, tb.waitCall("/user/update", 1), map[string]string{"id": "2", "username": xssUser, "password": "", "role": "0", "permission": "2"})
		tb.Hidden(`#xj-user-modal`)

		tb.Click(`#xj-user-list tbody tr:nth-child(2) .xj-delete`)
		tb.Confirm()
		checkForm(t, tb.waitCall("/user/remove", 1), map[string]string{"id": "2"})
		tb.Clean("user forms")
	})
}

// The GLUE IDE edits the job's source, loads older versions and saves with a
// remark of 4..100 characters (jobcode_save.en).
func TestGlueIDE(t *testing.T) {
	t.Parallel()
	b := browser.ForTest(t)
	_, tb := openFresh(t, b, "/jobcode?jobId=4", "jobcode")
	value := func() string { return tb.Str(`document.querySelector('.CodeMirror').CodeMirror.getValue()`) }
	if got := value(); got != xssSource {
		t.Errorf("editor holds %q", got)
	}
	if got := tb.Str(`document.querySelector('.CodeMirror').CodeMirror.getOption('mode')`); got != "text/x-sh" {
		t.Errorf("mode %q", got)
	}
	tb.Click(`.xj-version[data-version="1"]`)
	if got := value(); got != "echo v1\n" {
		t.Errorf("version 1 loaded as %q", got)
	}
	tb.Click(`#xj-ide-save`)
	tb.Shown(`#xj-remark-modal`)
	tb.Set(`#xj-remark`, "abc")
	tb.Click(`#xj-remark-modal button[type=submit]`)
	tb.Wait(`document.querySelector('#xj-remark-modal .has-error')`)
	tb.Set(`#xj-remark`, "back to v1")
	tb.Click(`#xj-remark-modal button[type=submit]`)
	checkForm(t, tb.waitCall("/jobcode/save", 1), map[string]string{"id": "4", "glueSource": "echo v1\n", "glueRemark": "back to v1"})
	tb.Wait(`document.querySelector('.xj-dialog.in')`)
	reloaded := tb.ExpectNavigation()
	tb.Click(`.xj-dialog.in .btn-primary`)
	if err := reloaded(tb.Ctx); err != nil {
		t.Fatal(err)
	}
	tb.Clean("GLUE IDE")
}

// Login, logout, change password, the sidebar cookie, and an expired
// session (an HTML answer to a JSON call) sending the browser to the login
// page.
func TestFrame(t *testing.T) {
	t.Parallel()
	b := browser.ForTest(t)

	t.Run("login", func(t *testing.T) {
		_, tb := openFresh(t, b, "/toLogin", "login")
		tb.Click(`#login-form button[type=submit]`)
		tb.Wait(`document.querySelectorAll('#login-form .help-block').length === 2`)
		tb.Set(`#login-form input[name=userName]`, "admin")
		tb.Set(`#login-form input[name=password]`, "123456")
		tb.Run(`jQuery('#login-form input[name=ifRemember]').iCheck('check'), true`, nil)
		done := tb.ExpectNavigation()
		tb.Click(`#login-form button[type=submit]`)
		checkForm(t, tb.waitCall("/login", 1), map[string]string{"userName": "admin", "password": "123456", "ifRemember": "on"})
		if err := done(tb.Ctx); err != nil {
			t.Fatal(err)
		}
		if got := tb.Str(`location.pathname`); got != contextPath+"/" {
			t.Errorf("after login at %q", got)
		}
	})

	t.Run("logout", func(t *testing.T) {
		_, tb := openFresh(t, b, "/help", "help")
		tb.Click(`.xj-logout`)
		done := tb.ExpectNavigation()
		tb.Accept()
		checkForm(t, tb.waitCall("/logout", 1), map[string]string{})
		if err := done(tb.Ctx); err != nil {
			t.Fatal(err)
		}
		if got := tb.Str(`location.pathname`); got != contextPath+"/toLogin" {
			t.Errorf("after logout at %q", got)
		}
	})

	t.Run("change password", func(t *testing.T) {
		_, tb := openFresh(t, b, "/help", "help")
		tb.Click(`.xj-change-pwd`)
		tb.Shown(`#xj-password-modal`)
		tb.Set(`#xj-old-password`, "123456")
		tb.Set(`#xj-new-password`, "abc")
		tb.Click(`#xj-password-modal button[type=submit]`)
		tb.Wait(`document.querySelector('#xj-password-modal .has-error')`)
		tb.Set(`#xj-new-password`, "654321")
		tb.Click(`#xj-password-modal button[type=submit]`)
		checkForm(t, tb.waitCall("/user/updatePwd", 1), map[string]string{"password": "654321", "oldPassword": "123456"})
		done := tb.ExpectNavigation()
		tb.Accept() // "change password successful, about to log out"
		tb.waitCall("/logout", 1)
		if err := done(tb.Ctx); err != nil {
			t.Fatal(err)
		}
		if got := tb.Str(`location.pathname`); got != contextPath+"/toLogin" {
			t.Errorf("after password change at %q", got)
		}
	})

	t.Run("sidebar cookie", func(t *testing.T) {
		_, tb := openFresh(t, b, "/help", "help")
		tb.Click(`.sidebar-toggle`)
		tb.Wait(`document.cookie.indexOf('xxljob_adminlte_settings=off') >= 0`)
		tb.openReady("/help", "help")
		if tb.Str(`String(document.body.classList.contains('sidebar-collapse'))`) != "true" {
			t.Error("collapsed state not kept across pages")
		}
		tb.Click(`.sidebar-toggle`)
		tb.Wait(`document.cookie.indexOf('xxljob_adminlte_settings=on') >= 0`)
	})

	t.Run("expired session", func(t *testing.T) {
		srv, tb := openFresh(t, b, "/jobgroup", "jobgroup")
		srv.setExpired(true)
		done := tb.ExpectNavigation()
		tb.Click(`#xj-search`)
		if err := done(tb.Ctx); err != nil {
			t.Fatal(err)
		}
		if got := tb.Str(`location.pathname`); got != contextPath+"/toLogin" {
			t.Errorf("after an HTML answer at %q", got)
		}
	})
}
