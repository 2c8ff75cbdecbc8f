package consolereplay

import (
	"context"
	"crypto/md5"
	"encoding/hex"
	"fmt"
	"time"
)

// Fixture is the data the recorder inserted after the schema and seed rows
// and before starting the admin (README "How the capture was set up"). The
// values are read off the recordings: the job list of jobinfo_pageList, the
// log list of joblog_pageList (jobGroup=0), the group list of
// jobgroup_pageList and the user rows of user_add's db_after. Every time is
// relative to the moment the fixture is loaded (At): jobs and groups were
// added a day before, the log rows hours or days before.
type Fixture struct {
	At       time.Time // "now" of the fixture
	Executor string    // the fake executor's address, "http://127.0.0.1:PORT/"
}

// md5Hex is the stored form of a console password.
func md5Hex(s string) string {
	sum := md5.Sum([]byte(s))
	return hex.EncodeToString(sum[:])
}

// Load inserts the fixture rows; the database must hold only the seed rows.
func (f Fixture) Load(ctx context.Context, db *DB) error {
	return loadFixture(ctx, db, f.At, f.Executor, md5Hex)
}

// loadFixture inserts groups 2–4, users normal1 and victim1 (password
// 123456, stored as hash gives it), jobs 2–8 and log rows 1–7.
func loadFixture(ctx context.Context, db *DB, at time.Time, executor string, hash func(string) string) error {
	dayAgo := db.Time(at.Add(-24 * time.Hour))
	for _, g := range []struct {
		id           int
		app, title   string
		manual       int
		addresses    any
		updatedAfter string
	}{
		{2, "fake-executor", "假执行器", 1, executor, dayAgo},
		{3, "other-executor", "其他执行器", 1, executor, dayAgo},
		{4, "empty-group", "空执行器", 1, executor, dayAgo},
	} {
		if err := insertGroup(ctx, db, g.id, g.app, g.title, g.manual, g.addresses, g.updatedAfter); err != nil {
			return err
		}
	}
	for _, u := range []struct {
		id         int
		name, perm string
	}{{2, "normal1", "2"}, {3, "victim1", "3"}} {
		if err := insertUser(ctx, db, u.id, u.name, hash("123456"), 0, u.perm); err != nil {
			return err
		}
	}
	for _, j := range fixtureJobs() {
		j.added = dayAgo
		if err := insertJob(ctx, db, j); err != nil {
			return err
		}
	}
	for _, l := range fixtureLogs(executor) {
		if err := insertLog(ctx, db, l, at); err != nil {
			return err
		}
	}
	return nil
}

// fixtureJobs are jobs 2–8; all stopped, author "rec", route FIRST.
func fixtureJobs() []job {
	return []job{
		{id: 2, group: 2, desc: "fake bean job", schedType: "CRON", schedConf: "0 0 3 * * ?", handler: "demoJobHandler", glueType: "BEAN"},
		{id: 3, group: 3, desc: "other group job", schedType: "CRON", schedConf: "0 0 4 * * ?", handler: "demoJobHandler", glueType: "BEAN"},
		{id: 4, group: 2, desc: "shell glue job", schedType: "NONE", glueType: "GLUE_SHELL", glueSource: "#!/bin/bash\necho hello\n"},
		{id: 5, group: 3, desc: "other group glue", schedType: "NONE", glueType: "GLUE_GROOVY", glueSource: "class A {}"},
		{id: 6, group: 3, desc: "other group victim", schedType: "FIX_RATE", schedConf: "60", handler: "demoJobHandler", glueType: "BEAN"},
		{id: 7, group: 2, desc: "fix rate job", schedType: "FIX_RATE", schedConf: "3600", handler: "demoJobHandler", glueType: "BEAN"},
		{id: 8, group: 2, desc: "to be removed", schedType: "NONE", handler: "demoJobHandler", glueType: "BEAN"},
	}
}

// fixtureLogs are log rows 1–7 with their trigger times as offsets from the
// fixture time; handled rows were handled at their trigger time. Log 6 is
// "running" an hour ago with an executor that never registered: the admin's
// lost-job monitor marks it failed right after start-up, as recorded.
func fixtureLogs(executor string) []logRow {
	const triggerMsg = "fixture trigger msg"
	ok, boom := "ok", "boom"
	return []logRow{
		{id: 1, group: 2, job: 2, address: executor, ago: 2 * time.Hour, triggerCode: 200, triggerMsg: triggerMsg, handleCode: 200, handleMsg: &ok, handled: true, alarm: 1},
		{id: 2, group: 2, job: 2, address: executor, ago: 3 * time.Hour, triggerCode: 200, triggerMsg: triggerMsg, handleCode: 500, handleMsg: &boom, handled: true, alarm: 1},
		{id: 3, group: 2, job: 2, address: executor, ago: time.Minute, triggerCode: 200, triggerMsg: triggerMsg, alarm: 1},
		{id: 4, group: 2, job: 2, address: executor, ago: 4 * time.Hour, triggerCode: 500, triggerMsg: triggerMsg, alarm: 1},
		{id: 5, group: 2, job: 2, address: executor, ago: 48 * time.Hour, triggerCode: 200, triggerMsg: triggerMsg, handleCode: 200, handleMsg: &ok, handled: true, alarm: 1},
		{id: 6, group: 3, job: 3, address: executor, ago: time.Hour, triggerCode: 200, triggerMsg: triggerMsg, alarm: 1},
		{id: 7, group: 3, job: 3, address: executor, ago: 5 * time.Hour, triggerCode: 200, triggerMsg: triggerMsg, handleCode: 200, handleMsg: &ok, handled: true, alarm: 1},
	}
}

func insertGroup(ctx context.Context, db *DB, id int, app, title string, addressType int, addresses any, updated string) error {
	err := db.exec(ctx, db.sb.Insert("xxl_job_group").
		Columns("id", "app_name", "title", "address_type", "address_list", "update_time").
		Values(id, app, title, addressType, addresses, updated))
	if err != nil {
		return fmt.Errorf("insert group %d: %w", id, err)
	}
	return nil
}

func insertUser(ctx context.Context, db *DB, id int, name, pwdHash string, role int, permission string) error {
	err := db.exec(ctx, db.sb.Insert("xxl_job_user").
		Columns("id", "username", "password", "role", "permission").
		Values(id, name, pwdHash, role, permission))
	if err != nil {
		return fmt.Errorf("insert user %d: %w", id, err)
	}
	return nil
}

// job is a fixture or hook job row: stopped, author "rec", route FIRST,
// misfire DO_NOTHING, block SERIAL_EXECUTION, no timeout, retry, alarm
// e-mail, parameter or child jobs, as every job the recorder inserted.
type job struct {
	id, group                     int
	desc, schedType, schedConf    string
	handler, glueType, glueSource string
	added                         string // add_time = update_time = glue_updatetime
}

func insertJob(ctx context.Context, db *DB, j job) error {
	err := db.exec(ctx, db.sb.Insert("xxl_job_info").
		Columns("id", "job_group", "job_desc", "add_time", "update_time", "author", "alarm_email",
			"schedule_type", "schedule_conf", "misfire_strategy", "executor_route_strategy", "executor_handler",
			"executor_param", "executor_block_strategy", "executor_timeout", "executor_fail_retry_count",
			"glue_type", "glue_source", "glue_remark", "glue_updatetime", "child_jobid",
			"trigger_status", "trigger_last_time", "trigger_next_time").
		Values(j.id, j.group, j.desc, j.added, j.added, "rec", "",
			j.schedType, j.schedConf, "DO_NOTHING", "FIRST", j.handler,
			"", "SERIAL_EXECUTION", 0, 0,
			j.glueType, j.glueSource, "GLUE代码初始化", j.added, "",
			0, 0, 0))
	if err != nil {
		return fmt.Errorf("insert job %d: %w", j.id, err)
	}
	return nil
}

// logRow is a fixture or hook log row. A handled row has handle_time equal
// to its trigger time.
type logRow struct {
	id, group, job          int
	address                 any // string or nil
	ago                     time.Duration
	triggerCode, handleCode int
	triggerMsg              string
	handleMsg               *string
	handled                 bool
	alarm                   int
}

func insertLog(ctx context.Context, db *DB, l logRow, now time.Time) error {
	at := db.Time(now.Add(-l.ago))
	var handleTime any
	if l.handled {
		handleTime = at
	}
	var handleMsg any
	if l.handleMsg != nil {
		handleMsg = *l.handleMsg
	}
	err := db.exec(ctx, db.sb.Insert("xxl_job_log").
		Columns("id", "job_group", "job_id", "executor_address", "executor_handler", "executor_param",
			"executor_sharding_param", "executor_fail_retry_count", "trigger_time", "trigger_code", "trigger_msg",
			"handle_time", "handle_code", "handle_msg", "alarm_status").
		Values(l.id, l.group, l.job, l.address, "demoJobHandler", "", nil, 0, at, l.triggerCode, l.triggerMsg,
			handleTime, l.handleCode, handleMsg, l.alarm))
	if err != nil {
		return fmt.Errorf("insert log %d: %w", l.id, err)
	}
	return nil
}
