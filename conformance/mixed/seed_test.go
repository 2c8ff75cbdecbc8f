package mixed

import (
	"context"
	"fmt"
	"time"

	"github.com/xxl-admin-go/xxl-admin-go/compat/schema"
	"github.com/xxl-admin-go/xxl-admin-go/conformance/cluster"
	"github.com/xxl-admin-go/xxl-admin-go/internal/testsupport/testfactory"
)

// extra are the jobs beside the FIX_RATE grid: CRON jobs on the plan, and
// in a group of their own the jobs whose completion the admins share.
type extra struct {
	everySecond, evenSeconds []int // CRON "* * * * * ?" and "*/2 * * * * ?"
	group                    int   // the group of the jobs below
	parent, child            int   // parent succeeds by callback; child runs on each success
	retryRun, retryCallback  int   // fail at /run, fail by callback; one retry, alarm by e-mail
}

// jobSpec is what differs between the extra jobs.
type jobSpec struct {
	group              int
	desc, kind, conf   string
	child, alarmEmail  string
	retry, triggerStat int
}

func saveJob(ctx context.Context, db *cluster.DB, s jobSpec) (int, error) {
	return db.Store.JobSave(ctx, testfactory.JobRow(testfactory.JobOpts{Group: s.group, Desc: s.desc, Author: "mixed",
		AlarmEmail: s.alarmEmail, ScheduleType: s.kind, ScheduleConf: s.conf, Handler: "h", Retry: s.retry,
		ChildJobIDs: s.child, Status: s.triggerStat}))
}

// seedExtra adds the CRON jobs to the grid's group and the completion jobs
// to a second manual group on the same executor; all enabled jobs wait
// unarmed (trigger_next_time 0) like the grid's.
func seedExtra(ctx context.Context, db *cluster.DB, gridGroup int, address string) (extra, error) {
	var x extra
	for i := range 3 {
		id, err := saveJob(ctx, db, jobSpec{group: gridGroup, desc: fmt.Sprintf("cron every second %d", i),
			kind: "CRON", conf: "* * * * * ?", triggerStat: 1})
		if err != nil {
			return x, err
		}
		x.everySecond = append(x.everySecond, id)
		id, err = saveJob(ctx, db, jobSpec{group: gridGroup, desc: fmt.Sprintf("cron even seconds %d", i),
			kind: "CRON", conf: "*/2 * * * * ?", triggerStat: 1})
		if err != nil {
			return x, err
		}
		x.evenSeconds = append(x.evenSeconds, id)
	}
	now := time.Now()
	g, err := db.Store.GroupSave(ctx, schema.Group{AppName: "xxl-mixed-done", Title: "completion",
		AddressType: 1, AddressList: schema.Ptr(address), UpdateTime: &now})
	if err != nil {
		return x, fmt.Errorf("save group: %w", err)
	}
	x.group = g
	// The child only runs as a child: stopped, a schedule it never uses.
	if x.child, err = saveJob(ctx, db, jobSpec{group: g, desc: "child", kind: "CRON", conf: "0 0 0 1 1 ? 2099"}); err != nil {
		return x, err
	}
	if x.parent, err = saveJob(ctx, db, jobSpec{group: g, desc: "parent", kind: "FIX_RATE", conf: "2",
		child: fmt.Sprint(x.child), triggerStat: 1}); err != nil {
		return x, err
	}
	if x.retryRun, err = saveJob(ctx, db, jobSpec{group: g, desc: "fails at run", kind: "FIX_RATE", conf: "3",
		retry: 1, alarmEmail: "ops@test", triggerStat: 1}); err != nil {
		return x, err
	}
	if x.retryCallback, err = saveJob(ctx, db, jobSpec{group: g, desc: "fails by callback", kind: "FIX_RATE", conf: "3",
		retry: 1, alarmEmail: "ops@test", triggerStat: 1}); err != nil {
		return x, err
	}
	return x, nil
}

// arm sets the first fire of every enabled job: first for the grid, the
// every-second CRON jobs and the completion jobs, the next even second for
// the even-second CRON jobs.
func arm(ctx context.Context, db *cluster.DB, gridGroup int, x extra, first time.Time) error {
	if err := db.Arm(ctx, gridGroup, first); err != nil {
		return err
	}
	even := first
	if even.Unix()%2 != 0 {
		even = even.Add(time.Second)
	}
	for _, id := range x.evenSeconds {
		if _, err := db.SQL.ExecContext(ctx, "UPDATE xxl_job_info SET trigger_next_time = ? WHERE id = ?", even.UnixMilli(), id); err != nil {
			return fmt.Errorf("arm job %d: %w", id, err)
		}
	}
	_, err := db.SQL.ExecContext(ctx, "UPDATE xxl_job_info SET trigger_last_time = 0, trigger_next_time = ? WHERE job_group = ? AND trigger_status = 1",
		first.UnixMilli(), x.group)
	if err != nil {
		return fmt.Errorf("arm completion jobs: %w", err)
	}
	return nil
}

// nextTimes reads every job's trigger_next_time (epoch ms) by id.
func nextTimes(ctx context.Context, db *cluster.DB) (map[int]int64, error) {
	rows, err := db.SQL.QueryContext(ctx, "SELECT id, trigger_next_time FROM xxl_job_info")
	if err != nil {
		return nil, fmt.Errorf("read next times: %w", err)
	}
	defer rows.Close()
	out := map[int]int64{}
	for rows.Next() {
		var id int
		var next int64
		if err := rows.Scan(&id, &next); err != nil {
			return nil, fmt.Errorf("read next times: %w", err)
		}
		out[id] = next
	}
	return out, rows.Err()
}

// logRow is what the completion checks read of a log row.
type logRow struct {
	id                         int64
	jobID, retry, trigger, hdl int
	alarm                      int
	triggerTime                time.Time
}

func (r logRow) String() string {
	return fmt.Sprintf("[id=%d job=%d retry=%d trigger=%d handle=%d alarm=%d at=%s]", r.id, r.jobID, r.retry,
		r.trigger, r.hdl, r.alarm, r.triggerTime.Format(time.TimeOnly))
}

// logRows reads the log rows of a group.
func logRows(ctx context.Context, db *cluster.DB, group int) ([]logRow, error) {
	rows, err := db.SQL.QueryContext(ctx, "SELECT id, job_id, executor_fail_retry_count, trigger_code, handle_code,"+
		" alarm_status, trigger_time FROM xxl_job_log WHERE job_group = ? ORDER BY id", group)
	if err != nil {
		return nil, fmt.Errorf("read log rows: %w", err)
	}
	defer rows.Close()
	var out []logRow
	for rows.Next() {
		var r logRow
		var at string
		if err := rows.Scan(&r.id, &r.jobID, &r.retry, &r.trigger, &r.hdl, &r.alarm, &at); err != nil {
			return nil, fmt.Errorf("read log rows: %w", err)
		}
		if r.triggerTime, err = time.ParseInLocation(time.DateTime, at, db.Store.Location()); err != nil {
			return nil, fmt.Errorf("log %d trigger_time %q: %w", r.id, at, err)
		}
		out = append(out, r)
	}
	return out, rows.Err()
}
