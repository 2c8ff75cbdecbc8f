package schema

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"maps"
	"slices"
	"strings"
	"time"

	"github.com/go-sql-driver/mysql"
	"github.com/jackc/pgx/v5/pgconn"
)

// ErrAdminActive marks a database on which an admin is scheduling: the
// upgrade must not run under it (a MySQL ALTER of the log table blocks its
// fires for the whole copy, and it keeps running as the old generation).
var ErrAdminActive = errors.New("an admin is scheduling on this database")

// The defaults of ActivityOptions.
const (
	// DefaultIdle: an admin that is scheduling fires, or refreshes its
	// executors' registrations (every 30 s), within a minute.
	DefaultIdle = time.Minute
	// DefaultWatch: a schedule round runs every second while jobs are due
	// and at least every 5 s otherwise.
	DefaultWatch = 3 * time.Second
	watchEvery   = 100 * time.Millisecond
)

// ActivityOptions tune CheckActivity.
type ActivityOptions struct {
	// Idle is how long the database must have been quiet: log rows
	// triggered, running jobs fired or registrations refreshed within it
	// count as activity. 0 means DefaultIdle; a negative value looks only
	// at what happens during the watch.
	Idle time.Duration
	// Watch is how long to watch the database for a schedule round (0:
	// DefaultWatch).
	Watch time.Duration
	// Now is the clock the evidence is dated by (time.Now when nil).
	Now func() time.Time
}

// Activity is what CheckActivity saw.
type Activity struct {
	Seen    []string      // evidence of an admin at work, worded for the operator
	Watched time.Duration // how long the database was watched
	// QuietAt is when the recent evidence will be older than Idle (zero
	// when nothing recent was seen).
	QuietAt time.Time
	Notes   []string // what could not be looked at
}

// Active tells whether any evidence was seen.
func (a Activity) Active() bool { return len(a.Seen) > 0 }

// Err is the refusal naming what was seen (nil when nothing was).
func (a Activity) Err() error {
	if !a.Active() {
		return nil
	}
	return fmt.Errorf("%w: %s", ErrAdminActive, strings.Join(a.Seen, "; "))
}

// CheckActivity looks for an admin (of either generation, Java or ours)
// scheduling on this database: recent evidence (log rows triggered, running
// jobs fired, executor registrations refreshed within opts.Idle) and, for
// opts.Watch, live evidence: the schedule_lock row held by another session
// (probed with NOWAIT on MySQL/MariaDB and PostgreSQL; SQLite's lock is
// the database's write lock, not probed), running jobs' trigger_next_time
// moving (a schedule round's pre-read), new log rows, refreshed
// registrations. It returns at the first live evidence.
func (s *Store) CheckActivity(ctx context.Context, opts ActivityOptions) (Activity, error) {
	now := opts.Now
	if now == nil {
		now = time.Now
	}
	idle, watch := opts.Idle, opts.Watch
	if idle == 0 {
		idle = DefaultIdle
	}
	if watch <= 0 {
		watch = DefaultWatch
	}
	var a Activity
	if idle > 0 {
		if err := s.recentActivity(ctx, now(), idle, &a); err != nil {
			return a, err
		}
	}
	return a, s.watchActivity(ctx, watch, now, &a)
}

// recentActivity reads the traces an admin leaves within idle before t.
func (s *Store) recentActivity(ctx context.Context, t time.Time, idle time.Duration, a *Activity) error {
	since := t.Add(-idle)
	ago := func(at time.Time) string {
		if d := at.Sub(t).Round(time.Second); d > 0 {
			// DATETIME is wall time: an admin whose zone is not this
			// store's (serverTimezone) writes times that look ahead.
			return fmt.Sprintf("%s in the future: the admin's clock or zone differs from serverTimezone %s", d, s.loc)
		}
		return t.Sub(at).Round(time.Second).String() + " ago"
	}
	quiet := func(at time.Time) {
		if q := at.Add(idle); q.After(a.QuietAt) {
			a.QuietAt = q
		}
	}
	var n int
	var last *time.Time
	if err := s.q.QueryRowContext(ctx, "SELECT count(1), max(trigger_time) FROM xxl_job_log WHERE trigger_time >= ?", s.dbTime(since)).
		Scan(&n, s.scanTime(&last)); err != nil {
		return fmt.Errorf("check recent fires: %w", err)
	}
	if n > 0 && last != nil {
		a.Seen = append(a.Seen, fmt.Sprintf("job log rows triggered in the last %s: %d, the last at %s (%s)", idle, n, last.Format(dateTimeLayout), ago(*last)))
		quiet(*last)
	}
	var lastFire sql.NullInt64
	if err := s.q.QueryRowContext(ctx, "SELECT count(1), max(trigger_last_time) FROM xxl_job_info WHERE trigger_status = 1 AND trigger_last_time >= ?", since.UnixMilli()).
		Scan(&n, &lastFire); err != nil {
		return fmt.Errorf("check recent schedule rounds: %w", err)
	}
	if n > 0 && lastFire.Valid {
		at := time.UnixMilli(lastFire.Int64).In(s.loc)
		a.Seen = append(a.Seen, fmt.Sprintf("running jobs fired by a schedule round in the last %s: %d, the last at %s (%s)", idle, n, at.Format(dateTimeLayout), ago(at)))
		quiet(at)
	}
	last = nil
	if err := s.q.QueryRowContext(ctx, "SELECT count(1), max(update_time) FROM xxl_job_registry WHERE update_time >= ?", s.dbTime(since)).
		Scan(&n, s.scanTime(&last)); err != nil {
		return fmt.Errorf("check recent registrations: %w", err)
	}
	if n > 0 && last != nil {
		a.Seen = append(a.Seen, fmt.Sprintf("executor registrations refreshed in the last %s (an admin receives their beats): %d, the last at %s (%s)", idle, n, last.Format(dateTimeLayout), ago(*last)))
		quiet(*last)
	}
	return nil
}

// watchState is what a schedule round or a fire changes.
type watchState struct {
	maxLog   int64
	next     map[int64]int64 // running job → trigger_next_time
	register *time.Time      // latest registration refresh
}

func (s *Store) readWatchState(ctx context.Context) (watchState, error) {
	w := watchState{next: map[int64]int64{}}
	var maxLog sql.NullInt64
	if err := s.q.QueryRowContext(ctx, "SELECT max(id) FROM xxl_job_log").Scan(&maxLog); err != nil {
		return w, fmt.Errorf("watch log rows: %w", err)
	}
	w.maxLog = maxLog.Int64
	rows, err := s.q.QueryContext(ctx, "SELECT id, trigger_next_time FROM xxl_job_info WHERE trigger_status = 1")
	if err != nil {
		return w, fmt.Errorf("watch running jobs: %w", err)
	}
	defer rows.Close()
	for rows.Next() {
		var id, next int64
		if err := rows.Scan(&id, &next); err != nil {
			return w, fmt.Errorf("watch running jobs: %w", err)
		}
		w.next[id] = next
	}
	if err := rows.Err(); err != nil {
		return w, fmt.Errorf("watch running jobs: %w", err)
	}
	if err := s.q.QueryRowContext(ctx, "SELECT max(update_time) FROM xxl_job_registry").Scan(s.scanTime(&w.register)); err != nil {
		return w, fmt.Errorf("watch registrations: %w", err)
	}
	return w, nil
}

// watchActivity watches for watch, returning at the first evidence.
func (s *Store) watchActivity(ctx context.Context, watch time.Duration, now func() time.Time, a *Activity) error {
	start := time.Now() // the watch's length is real time, whatever clock dates the evidence
	defer func() { a.Watched = time.Since(start) }()
	before, err := s.readWatchState(ctx)
	if err != nil {
		return err
	}
	probe := s.d.backend() != SQLite
	if !probe {
		a.Notes = append(a.Notes, "the schedule lock was not probed: on SQLite it is the database's write lock, held only while a round writes")
	}
	tick := time.NewTicker(watchEvery)
	defer tick.Stop()
	for {
		if probe {
			held, note, err := s.probeScheduleLock(ctx)
			if err != nil {
				return err
			}
			if note != "" {
				a.Notes, probe = append(a.Notes, note), false
			}
			if held {
				a.Seen = append(a.Seen, fmt.Sprintf("the schedule_lock row was locked by another session at %s (an admin's schedule round holds it)", now().In(s.loc).Format(dateTimeLayout)))
				return nil
			}
		}
		after, err := s.readWatchState(ctx)
		if err != nil {
			return err
		}
		if seen := before.changes(after, s.loc); len(seen) > 0 {
			a.Seen = append(a.Seen, seen...)
			return nil
		}
		if time.Since(start) >= watch {
			return nil
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-tick.C:
		}
	}
}

// changes words what happened between two watch states.
func (w watchState) changes(after watchState, loc *time.Location) []string {
	var out []string
	if after.maxLog > w.maxLog {
		out = append(out, fmt.Sprintf("job log rows were written while watching (ids up to %d)", after.maxLog))
	}
	for _, id := range slices.Sorted(maps.Keys(after.next)) {
		if old, ok := w.next[id]; ok && old != after.next[id] {
			out = append(out, fmt.Sprintf("the trigger_next_time of running job %d moved from %s to %s while watching (a schedule round pre-read it)",
				id, time.UnixMilli(old).In(loc).Format(dateTimeLayout), time.UnixMilli(after.next[id]).In(loc).Format(dateTimeLayout)))
			break
		}
	}
	if after.register != nil && (w.register == nil || after.register.After(*w.register)) {
		out = append(out, "executor registrations were refreshed while watching")
	}
	return out
}

// errProbed ends the probe's transaction (rolled back).
var errProbed = errors.New("probed")

// MySQL and PostgreSQL answers to a NOWAIT on a locked row, and MySQL's to
// a syntax it does not know.
const (
	erLockWaitTimeout = 1205 // MariaDB: NOWAIT on a locked row
	erLockNowait      = 3572 // MySQL 8
	erParse           = 1064 // MySQL 5.7 has no NOWAIT
	pgLockNotAvail    = "55P03"
)

// probeScheduleLock tries to lock the schedule_lock row without waiting,
// in a transaction rolled back at once: held is true when another session
// has it. note says why probing cannot go on.
func (s *Store) probeScheduleLock(ctx context.Context) (held bool, note string, err error) {
	err = s.WithTx(ctx, func(tx *Store) error {
		var name string
		if err := tx.q.QueryRowContext(ctx, "SELECT lock_name FROM xxl_job_lock WHERE lock_name = 'schedule_lock' FOR UPDATE NOWAIT").Scan(&name); err != nil {
			return err
		}
		return errProbed
	})
	var me *mysql.MySQLError
	var pe *pgconn.PgError
	switch {
	case errors.Is(err, errProbed):
		return false, "", nil
	case errors.Is(err, sql.ErrNoRows):
		return false, "the schedule lock was not probed: xxl_job_lock has no schedule_lock row", nil
	case errors.As(err, &me) && (me.Number == erLockWaitTimeout || me.Number == erLockNowait):
		return true, "", nil
	case errors.As(err, &me) && me.Number == erParse:
		return false, "the schedule lock was not probed: this server has no SELECT … FOR UPDATE NOWAIT (MySQL 5.7)", nil
	case errors.As(err, &pe) && pe.Code == pgLockNotAvail:
		return true, "", nil
	}
	return false, "", fmt.Errorf("probe the schedule lock: %w", err)
}
