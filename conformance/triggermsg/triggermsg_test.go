package triggermsg

import (
	"context"
	"database/sql"
	"fmt"
	"html"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/rs/zerolog"

	"github.com/xxl-admin-go/xxl-admin-go/compat/api"
	"github.com/xxl-admin-go/xxl-admin-go/compat/i18n"
	"github.com/xxl-admin-go/xxl-admin-go/compat/schema"
	"github.com/xxl-admin-go/xxl-admin-go/core/alarm"
	"github.com/xxl-admin-go/xxl-admin-go/core/thread"
	"github.com/xxl-admin-go/xxl-admin-go/core/trigger"
	"github.com/xxl-admin-go/xxl-admin-go/internal/testsupport/storetest"
)

// situation is one manual trigger done by the jar and by us.
type situation struct {
	name    string
	job     int
	group   int
	route   string
	handler string
	param   string // the "run once" parameter
	retry   int
	rows    int  // log rows the job ends with (broadcast shards, a retry)
	markup  bool // the executor answers markup, which we escape (core/trigger doc.go)
	child   string
}

// TestJarTriggerMsg triggers the same jobs through the 3.4.2 jar's console
// and through our trigger flow (Layout342, the 3.4.2 bundle) on one 3.x
// database, and compares every log row the two wrote: trigger_msg byte for
// byte once the admin IP line is normalised and Java's stack trace is cut
// after its first line, and the executor columns. It covers success, an
// executor's error answer, a refused /run, an HTTP 500, no address, failed
// FAILOVER and BUSYOVER routes, a FAILOVER that found an address, a
// broadcast, the fail monitor's retry (and its marker on the failed row),
// and a callback firing child jobs (handle_msg and the child's row).
func TestJarTriggerMsg(t *testing.T) {
	java, jar := requireSuites(t)
	for _, lang := range []string{"zh_CN", "en"} {
		t.Run(lang, func(t *testing.T) { compareWithJar(t, java, jar, lang) })
	}
}

func compareWithJar(t *testing.T, java, jar, lang string) {
	db, raw := database34(t)
	ok1 := newExecutor(t, 200, `{"code":200,"msg":null}`)
	ok2 := newExecutor(t, 200, `{"code":200,"msg":null}`)
	bad := newExecutor(t, 200, `{"code":500,"msg":"boom <b>x</b> & co"}`)
	h500 := newExecutor(t, 500, ``)
	dead := fmt.Sprintf("http://127.0.0.1:%d/", freePort(t))
	groups := map[int]*string{
		10: &ok1.url, 11: &bad.url, 12: &dead, 13: nil, 14: ptr(ok1.url + "," + ok2.url), 15: &h500.url, 16: ptr(dead + "," + ok2.url),
	}
	for id, list := range groups {
		addressType := 1
		if list == nil {
			addressType = 0
		}
		mustExec(t, raw, "INSERT INTO xxl_job_group (id, app_name, title, address_type, address_list, update_time) VALUES (?, ?, ?, ?, ?, NOW())",
			id, fmt.Sprintf("g-%d", id), fmt.Sprintf("g%d", id), addressType, list)
	}
	const childTarget = 120
	cases := []situation{
		{name: "success", job: 101, group: 10, route: "FIRST", handler: "demoJobHandler", param: "p1", rows: 1},
		{name: "executor error answer", job: 102, group: 11, route: "FIRST", handler: "demoJobHandler", rows: 1, markup: true},
		{name: "executor unreachable", job: 103, group: 12, route: "FIRST", handler: "demoJobHandler", rows: 1},
		{name: "no address", job: 104, group: 13, route: "FIRST", handler: "demoJobHandler", rows: 1},
		{name: "failover finds the second", job: 105, group: 16, route: "FAILOVER", handler: "demoJobHandler", rows: 1},
		{name: "failover fails", job: 106, group: 12, route: "FAILOVER", handler: "demoJobHandler", rows: 1},
		{name: "busyover fails", job: 107, group: 12, route: "BUSYOVER", handler: "demoJobHandler", rows: 1},
		{name: "broadcast", job: 108, group: 14, route: "SHARDING_BROADCAST", handler: "demoJobHandler", param: "b", rows: 2},
		{name: "HTTP 500, no handler", job: 109, group: 15, route: "FIRST", handler: "", rows: 1},
		{name: "retry", job: 110, group: 12, route: "FIRST", handler: "demoJobHandler", param: "r", retry: 1, rows: 2},
		{name: "children", job: 111, group: 10, route: "FIRST", handler: "demoJobHandler", rows: 1,
			child: fmt.Sprintf("111,+2,%d", childTarget)},
	}
	for _, c := range append(cases, situation{job: childTarget, group: 10, route: "FIRST", handler: "childHandler"}) {
		mustExec(t, raw, `INSERT INTO xxl_job_info (id, job_group, job_desc, add_time, update_time, author, alarm_email,
			schedule_type, schedule_conf, misfire_strategy, executor_route_strategy, executor_handler, executor_param,
			executor_block_strategy, executor_timeout, executor_fail_retry_count, glue_type, glue_source, glue_remark,
			glue_updatetime, child_jobid, trigger_status, trigger_last_time, trigger_next_time)
			VALUES (?, ?, ?, NOW(), NOW(), 'test', '', 'NONE', '', 'DO_NOTHING', ?, ?, 'job param', 'SERIAL_EXECUTION', 0, ?,
			'BEAN', '', '', NOW(), ?, 0, 0, 0)`, c.job, c.group, "job "+c.name, c.route, c.handler, c.retry, c.child)
	}

	// The jar first.
	admin := startJar(t, java, jar, db, lang)
	con := login(t, admin.base)
	for _, c := range cases {
		con.trigger(t, c.job, c.param)
	}
	parent := cases[len(cases)-1]
	var parentLog int64
	waitFor(t, 30*time.Second, "the jar's child-parent row", func() (bool, error) {
		err := raw.QueryRow("SELECT id FROM xxl_job_log WHERE job_id = ? AND trigger_code <> 0", parent.job).Scan(&parentLog)
		return err == nil, err
	})
	callback(t, admin.base, parentLog, 200, "done")
	for _, c := range append(cases, situation{name: "child", job: childTarget, rows: 1}) {
		waitFor(t, 60*time.Second, "the jar's rows of "+c.name, func() (bool, error) {
			var n int
			err := raw.QueryRow("SELECT count(*) FROM xxl_job_log WHERE job_id = ? AND trigger_code <> 0", c.job).Scan(&n)
			return n >= c.rows, err
		})
	}
	// The failed row's retry marker is written before the retry is
	// queued; wait for the child's handle_msg too.
	waitFor(t, 30*time.Second, "the jar's handle_msg", func() (bool, error) {
		var code int
		err := raw.QueryRow("SELECT handle_code FROM xxl_job_log WHERE id = ?", parentLog).Scan(&code)
		return code == 200, err
	})
	admin.stop()
	if !strings.Contains(admin.out.String(), fmt.Sprintf("xxl-job operation log: operator = admin, type = jobinfo-trigger, content = %d", cases[0].job)) {
		t.Errorf("the jar logged no operation line for the trigger of job %d", cases[0].job)
	}
	var lastJar int64
	if err := raw.QueryRow("SELECT max(id) FROM xxl_job_log").Scan(&lastJar); err != nil {
		t.Fatal(err)
	}
	// Our fail monitor is to see only our rows.
	mustExec(t, raw, "UPDATE xxl_job_log SET alarm_status = 1 WHERE alarm_status = 0")

	// Then ours, on the same database.
	ctx := context.Background()
	s := storetest.Open(t, db.JDBC("serverTimezone=Asia/Shanghai&useSSL=false"), db.User(), db.Password())
	if s.Generation() != schema.Gen3 {
		t.Fatalf("our store places the database as %s", s.Generation())
	}
	texts := i18n.LoadFor(3, lang)
	client := api.NewClient(api.ClientConfig{AccessToken: "default_token"})
	t.Cleanup(client.CloseIdleConnections)
	flow := trigger.NewFlow(trigger.FlowConfig{Store: s, Client: client, Texts: texts, Layout: trigger.Layout342, Log: zerolog.Nop()})
	now := submitNow{ctx: ctx, flow: flow}
	for _, c := range cases {
		param := c.param
		if err := flow.Trigger(ctx, trigger.Request{JobID: c.job, Type: trigger.TypeManual, FailRetryCount: -1, ExecutorParam: &param}); err != nil {
			t.Fatal(err)
		}
	}
	completer := thread.NewCompleter(thread.CompleterConfig{Store: s, Texts: texts, Trigger: now, Log: zerolog.Nop(), Children: thread.ChildRule342})
	ours := rowsOf(t, raw, parent.job, lastJar)
	if err := completer.Callback(ctx, []api.HandleCallbackParam{{LogID: ours[0].id, HandleCode: 200, HandleMsg: ptr("done")}}); err != nil {
		t.Fatal(err)
	}
	fail := thread.NewFailMonitor(thread.FailMonitorConfig{Store: s, Texts: texts, Trigger: now, Alarm: noAlarm{},
		Log: zerolog.Nop(), RetryColor: thread.RetryColor342})
	if err := fail.Pass(ctx); err != nil {
		t.Fatal(err)
	}

	// Compare, row by row.
	for _, c := range append(cases, situation{name: "child", job: childTarget}) {
		t.Run(c.name, func(t *testing.T) {
			jarRows, ourRows := rowsOf(t, raw, c.job, 0), rowsOf(t, raw, c.job, lastJar)
			jarRows = jarRows[:len(jarRows)-len(ourRows)]
			if len(jarRows) != len(ourRows) || len(ourRows) == 0 {
				t.Fatalf("the jar wrote %d rows, we wrote %d", len(jarRows), len(ourRows))
			}
			for i := range ourRows {
				compareRow(t, jarRows[i], ourRows[i], c.markup)
			}
		})
	}
}

// logRow is what the comparison reads of a log row.
type logRow struct {
	id                                  int64
	triggerCode, handleCode, retryCount int
	address, handler, param, sharding   sql.NullString
	triggerMsg, handleMsg               sql.NullString
}

// rowsOf lists a job's log rows with an id above after, by id.
func rowsOf(t *testing.T, raw *sql.DB, job int, after int64) []logRow {
	t.Helper()
	rs, err := raw.Query(`SELECT id, trigger_code, handle_code, executor_fail_retry_count, executor_address, executor_handler,
		executor_param, executor_sharding_param, trigger_msg, handle_msg FROM xxl_job_log WHERE job_id = ? AND id > ? ORDER BY id`, job, after)
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = rs.Close() }()
	var out []logRow
	for rs.Next() {
		var r logRow
		if err := rs.Scan(&r.id, &r.triggerCode, &r.handleCode, &r.retryCount, &r.address, &r.handler, &r.param, &r.sharding,
			&r.triggerMsg, &r.handleMsg); err != nil {
			t.Fatal(err)
		}
		out = append(out, r)
	}
	if err := rs.Err(); err != nil {
		t.Fatal(err)
	}
	return out
}

var (
	// adminLine is the trigger machine's address: the jar's IP, ours.
	adminLine = regexp.MustCompile(`(调度机器|Trigger machine address)：[^<]*<br>`)
	// javaTrace is the stack trace after an exception's first line
	// (ThrowableTool.toString); we keep the first line only.
	javaTrace = regexp.MustCompile(`(?s)\n.*\n`)
)

func normalise(s string) string {
	return javaTrace.ReplaceAllString(adminLine.ReplaceAllString(s, "${1}：ADMIN<br>"), "")
}

func compareRow(t *testing.T, jar, ours logRow, markup bool) {
	t.Helper()
	if jar.triggerCode != ours.triggerCode || jar.handleCode != ours.handleCode || jar.retryCount != ours.retryCount ||
		jar.address != ours.address || jar.handler != ours.handler || jar.param != ours.param || jar.sharding != ours.sharding {
		t.Errorf("columns differ:\n jar %+v\nours %+v", jar, ours)
	}
	j, o := normalise(jar.triggerMsg.String), normalise(ours.triggerMsg.String)
	switch {
	case j == o:
	case markup && html.UnescapeString(o) == j && o != j:
		// The executor's markup, escaped by us only (core/trigger doc.go).
	default:
		t.Errorf("trigger_msg differs\n jar: %q\nours: %q", j, o)
	}
	if jar.handleMsg != ours.handleMsg {
		t.Errorf("handle_msg differs\n jar: %q\nours: %q", jar.handleMsg.String, ours.handleMsg.String)
	}
}

// submitNow runs a submitted trigger at once (the child and retry doors).
type submitNow struct {
	ctx  context.Context
	flow *trigger.Flow
}

func (s submitNow) Submit(req trigger.Request) error { return s.flow.Trigger(s.ctx, req) }

type noAlarm struct{}

func (noAlarm) Alarm(context.Context, alarm.Event) bool { return true }

func mustExec(t *testing.T, db *sql.DB, stmt string, args ...any) {
	t.Helper()
	if _, err := db.Exec(stmt, args...); err != nil {
		t.Fatalf("%.60s: %v", stmt, err)
	}
}

func ptr[T any](v T) *T { return &v }
