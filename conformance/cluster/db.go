package cluster

import (
	"context"
	"database/sql"
	"fmt"
	"time"

	sq "github.com/Masterminds/squirrel"

	"github.com/xxl-admin-go/xxl-admin-go/compat/schema"
	"github.com/xxl-admin-go/xxl-admin-go/internal/testsupport/testfactory"
)

// DB is the harness's own connection to the admins' database: the store for
// seeding and a plain handle for the checks no store method covers.
type DB struct {
	Store *schema.Store
	SQL   *sql.DB
}

// OpenDB opens and prepares (tables and seed rows) the database at a JDBC
// URL, as an admin would on its first start: an empty database gets the
// 2.4.2 tables.
func OpenDB(ctx context.Context, url, user, pass string) (*DB, error) {
	return OpenDBAs(ctx, url, user, pass, schema.Gen2)
}

// OpenDBAs is OpenDB creating an empty database as gen: schema.Gen3 makes
// the 3.4.2 tables and seed rows (spec/schema-3.4.2.sql), which the 3.4.2
// jar needs and on which our admin behaves as 3.4.2.
func OpenDBAs(ctx context.Context, url, user, pass string, gen schema.Generation) (*DB, error) {
	target, err := schema.ParseJDBC(url, user, pass)
	if err != nil {
		return nil, fmt.Errorf("parse %s: %w", url, err)
	}
	st, err := schema.Open(ctx, target, schema.PoolSettings{MaxOpen: 4, MaxIdle: 4})
	if err != nil {
		return nil, err
	}
	if _, err := st.Prepare(ctx, schema.PrepareOptions{Create: gen}); err != nil {
		st.Close()
		return nil, fmt.Errorf("prepare %s: %w", target.Display, err)
	}
	db, err := sql.Open(target.Driver, target.DSN)
	if err != nil {
		st.Close()
		return nil, fmt.Errorf("open %s: %w", target.Display, err)
	}
	return &DB{Store: st, SQL: db}, nil
}

// bind numbers the '?' placeholders of query where the database wants $n
// (PostgreSQL).
func (d *DB) bind(query string) string {
	if d.Store.Backend() != schema.Postgres {
		return query
	}
	q, err := sq.Dollar.ReplacePlaceholders(query)
	if err != nil { // cannot happen: Dollar only rewrites
		return query
	}
	return q
}

// Close closes both handles.
func (d *DB) Close() {
	d.SQL.Close()
	d.Store.Close()
}

// Seed inserts a manual group whose only address is the executor and n
// enabled FIX_RATE 1 s jobs (route FIRST, BEAN handler "h", misfire
// DO_NOTHING, SERIAL_EXECUTION). Their trigger_next_time is 0 until Arm:
// seeding many jobs takes a while and must not eat into the start margin.
// It returns the group id and the job ids.
func (d *DB) Seed(ctx context.Context, n int, address string) (int, []int, error) {
	now := time.Now()
	var group int
	ids := make([]int, 0, n)
	err := d.Store.WithTx(ctx, func(tx *schema.Store) error {
		var err error
		group, err = tx.GroupSave(ctx, schema.Group{AppName: "xxl-cluster", Title: "cluster",
			AddressType: 1, AddressList: schema.Ptr(address), UpdateTime: &now})
		if err != nil {
			return fmt.Errorf("save group: %w", err)
		}
		for i := range n {
			id, err := tx.JobSave(ctx, testfactory.JobRow(testfactory.JobOpts{Group: group, Desc: fmt.Sprintf("fix-rate %d", i),
				Author: "cluster", ScheduleType: "FIX_RATE", ScheduleConf: "1", Handler: "h", Status: 1, At: now}))
			if err != nil {
				return err
			}
			ids = append(ids, id)
		}
		return nil
	})
	if err != nil {
		return 0, nil, fmt.Errorf("seed %d jobs: %w", n, err)
	}
	return group, ids, nil
}

// Arm sets every job of the group to fire first at first (a whole second).
func (d *DB) Arm(ctx context.Context, group int, first time.Time) error {
	_, err := d.SQL.ExecContext(ctx, d.bind("UPDATE xxl_job_info SET trigger_last_time = 0, trigger_next_time = ? WHERE job_group = ?"),
		first.UnixMilli(), group)
	if err != nil {
		return fmt.Errorf("arm jobs: %w", err)
	}
	return nil
}

// LogDuplicates counts log rows beyond the first for one job and one
// trigger_time second (trigger_time is stored without fraction), and how
// many log rows the group has in all.
func (d *DB) LogDuplicates(ctx context.Context, group int) (dups, rows int, err error) {
	err = d.SQL.QueryRowContext(ctx, d.bind("SELECT COUNT(*) FROM xxl_job_log WHERE job_group = ?"), group).Scan(&rows)
	if err != nil {
		return 0, 0, fmt.Errorf("count log rows: %w", err)
	}
	err = d.SQL.QueryRowContext(ctx, d.bind("SELECT COALESCE(SUM(c - 1), 0) FROM (SELECT COUNT(*) AS c FROM xxl_job_log"+
		" WHERE job_group = ? GROUP BY job_id, trigger_time HAVING COUNT(*) > 1) d"), group).Scan(&dups)
	if err != nil {
		return 0, 0, fmt.Errorf("count duplicate log rows: %w", err)
	}
	return dups, rows, nil
}

// LogFires reads the group's log rows as fires at their trigger_time
// (whole seconds: the column has no fraction), for pairing with the plan
// like the executor's fires.
func (d *DB) LogFires(ctx context.Context, group int) ([]Fire, error) {
	rows, err := d.SQL.QueryContext(ctx, d.bind("SELECT id, job_id, trigger_time FROM xxl_job_log WHERE job_group = ?"), group)
	if err != nil {
		return nil, fmt.Errorf("read log rows: %w", err)
	}
	defer rows.Close()
	var out []Fire
	for rows.Next() {
		var f Fire
		var at any
		if err := rows.Scan(&f.LogID, &f.JobID, &at); err != nil {
			return nil, fmt.Errorf("read log rows: %w", err)
		}
		if f.At, err = wallTime(at, d.Store.Location()); err != nil {
			return nil, fmt.Errorf("log %d trigger_time %v: %w", f.LogID, at, err)
		}
		out = append(out, f)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("read log rows: %w", err)
	}
	return out, nil
}

// wallTime reads a DATETIME (timestamp) column as the wall time in loc it
// holds: MySQL's driver hands back text, pgx a time whose zone is UTC.
func wallTime(v any, loc *time.Location) (time.Time, error) {
	switch x := v.(type) {
	case time.Time:
		return time.Date(x.Year(), x.Month(), x.Day(), x.Hour(), x.Minute(), x.Second(), x.Nanosecond(), loc), nil
	case []byte:
		return time.ParseInLocation(time.DateTime, string(x), loc)
	case string:
		return time.ParseInLocation(time.DateTime, x, loc)
	}
	return time.Time{}, fmt.Errorf("unexpected type %T", v)
}
