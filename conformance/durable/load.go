package durable

import (
	"context"
	"database/sql"
	"fmt"
	"strings"
	"time"

	"github.com/xxl-admin-go/xxl-admin-go/compat/schema"
	"github.com/xxl-admin-go/xxl-admin-go/conformance/cluster"
	"github.com/xxl-admin-go/xxl-admin-go/internal/testsupport/testfactory"
)

// Family is one parent job and the two children it triggers: C succeeds,
// F fails and has one retry (which fails too, with none left).
type Family struct {
	Parent, Child, Failing int
}

// Load is the jobs of a run.
type Load struct {
	Group    int
	Families []Family
	kind     map[int]string // job id → "P", "C" or "F"
}

// Kind is "P", "C", "F" or "" for a job of the run.
func (l *Load) Kind(job int) string { return l.kind[job] }

// Seed stores n families on a manual group whose only address is the
// executor: the parents FIX_RATE 1 s, switched off until Arm, half of them
// FIRE_ONCE_NOW; the children never scheduled (they run only as children).
func Seed(ctx context.Context, st *schema.Store, n int, address string) (*Load, error) {
	now := time.Now()
	l := &Load{kind: map[int]string{}}
	err := st.WithTx(ctx, func(tx *schema.Store) error {
		var err error
		l.Group, err = tx.GroupSave(ctx, schema.Group{AppName: "xxl-durable", Title: "durable", AddressType: 1,
			AddressList: schema.Ptr(address), UpdateTime: &now})
		if err != nil {
			return fmt.Errorf("save group: %w", err)
		}
		save := func(o testfactory.JobOpts) (int, error) {
			o.Group, o.Author, o.Handler, o.At = l.Group, "durable", "h", now
			return tx.JobSave(ctx, testfactory.JobRow(o))
		}
		for i := range n {
			var f Family
			if f.Child, err = save(testfactory.JobOpts{Desc: fmt.Sprintf("child %d", i)}); err != nil {
				return err
			}
			if f.Failing, err = save(testfactory.JobOpts{Desc: fmt.Sprintf("failing child %d", i), Retry: 1}); err != nil {
				return err
			}
			// Half the parents fire a missed fire once (FIRE_ONCE_NOW): a
			// fire a killed admin never sent is sent once by a settler;
			// the other half's is dropped (DO_NOTHING).
			misfire := "DO_NOTHING"
			if i%2 == 1 {
				misfire = "FIRE_ONCE_NOW"
			}
			if f.Parent, err = save(testfactory.JobOpts{Desc: fmt.Sprintf("parent %d", i), ScheduleType: "FIX_RATE",
				ScheduleConf: "1", Misfire: misfire, ChildJobIDs: fmt.Sprintf("%d,%d", f.Child, f.Failing)}); err != nil {
				return err
			}
			l.Families = append(l.Families, f)
			l.kind[f.Parent], l.kind[f.Child], l.kind[f.Failing] = "P", "C", "F"
		}
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("seed %d families: %w", n, err)
	}
	return l, nil
}

// Arm switches the parents on, to fire first at first.
func (l *Load) Arm(ctx context.Context, db *cluster.DB, first time.Time) error {
	return l.setParents(ctx, db, 1, first.UnixMilli())
}

// Stop switches the parents off under the schedule lock, so that no round
// writes them back on; on Galera, where the lock is the node's own, a
// round of another node that read them before conflicts at certification
// and the update is run again.
func (l *Load) Stop(ctx context.Context, db *cluster.DB) error {
	return schema.RetryConflicts(ctx, 20, func() error { return l.setParents(ctx, db, 0, 0) }, nil)
}

func (l *Load) setParents(ctx context.Context, db *cluster.DB, status int, next int64) error {
	ids := make([]string, len(l.Families))
	for i, f := range l.Families {
		ids[i] = fmt.Sprint(f.Parent)
	}
	tx, err := db.SQL.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer func() { _ = tx.Rollback() }()
	lock := "SELECT lock_name FROM xxl_job_lock WHERE lock_name = 'schedule_lock'"
	if db.Store.Backend() != schema.SQLite {
		lock += " FOR UPDATE"
	}
	var name string
	if err := tx.QueryRowContext(ctx, lock).Scan(&name); err != nil {
		return fmt.Errorf("schedule lock: %w", err)
	}
	if _, err := tx.ExecContext(ctx, fmt.Sprintf("UPDATE xxl_job_info SET trigger_status = %d, trigger_last_time = 0, trigger_next_time = %d WHERE id IN (%s)",
		status, next, strings.Join(ids, ","))); err != nil {
		return fmt.Errorf("switch parents to %d: %w", status, err)
	}
	return tx.Commit()
}

// row is what the count reads of a log row.
type row struct {
	id          int64
	job         int
	retryCount  int
	triggerCode int
	handleCode  int
	alarmStatus int
	triggerMsg  string
}

// rows reads the group's log rows.
func (l *Load) rows(ctx context.Context, db *sql.DB) ([]row, error) {
	rs, err := db.QueryContext(ctx, fmt.Sprintf("SELECT id, job_id, executor_fail_retry_count, trigger_code, handle_code, alarm_status, "+
		"COALESCE(trigger_msg, '') FROM xxl_job_log WHERE job_group = %d", l.Group))
	if err != nil {
		return nil, fmt.Errorf("read log rows: %w", err)
	}
	defer rs.Close()
	var out []row
	for rs.Next() {
		var r row
		if err := rs.Scan(&r.id, &r.job, &r.retryCount, &r.triggerCode, &r.handleCode, &r.alarmStatus, &r.triggerMsg); err != nil {
			return nil, fmt.Errorf("read log rows: %w", err)
		}
		out = append(out, r)
	}
	return out, rs.Err()
}

// pendingCount is the number of pending rows.
func pendingCount(ctx context.Context, db *sql.DB) (int, error) {
	var n int
	err := db.QueryRowContext(ctx, "SELECT COUNT(*) FROM "+schema.PendingTable).Scan(&n)
	return n, err
}
