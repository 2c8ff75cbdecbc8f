package schema

import (
	"context"
	"errors"
	"slices"
	"strings"
	"sync/atomic"
	"testing"
	"time"
)

func seenContaining(a Activity, part string) bool {
	return slices.ContainsFunc(a.Seen, func(s string) bool { return strings.Contains(s, part) })
}

// TestActivityRecent: fires, schedule rounds and registrations within the
// idle time are named, with the moment the database will have been quiet
// long enough; older ones, or a negative idle time, are not looked at.
func TestActivityRecent(t *testing.T) {
	forEachPrepared(t, func(t *testing.T, s *Store) {
		ctx := context.Background()
		now := time.Now().In(s.Location()).Truncate(time.Second)
		fired := now.Add(-10 * time.Second)
		rawExec(t, s, "INSERT INTO xxl_job_log (job_group, job_id, trigger_time, trigger_code, handle_code) VALUES (1, 1, ?, 200, 0), (1, 1, ?, 200, 0)",
			s.dbTime(now.Add(-2*time.Hour)), s.dbTime(fired))
		rawExec(t, s, "UPDATE xxl_job_info SET trigger_status = 1, trigger_last_time = ?, trigger_next_time = ? WHERE id = 1",
			now.Add(-5*time.Second).UnixMilli(), now.Add(time.Hour).UnixMilli())
		rawExec(t, s, "INSERT INTO xxl_job_registry (registry_group, registry_key, registry_value, update_time) VALUES ('EXECUTOR', 'app', 'http://a:9999/', ?)",
			s.dbTime(now.Add(-3*time.Second)))
		clock := func() time.Time { return now }

		a, err := s.CheckActivity(ctx, ActivityOptions{Idle: time.Minute, Watch: time.Millisecond, Now: clock})
		mustNoErr(t, err)
		for _, want := range []string{
			"job log rows triggered in the last 1m0s: 1, the last at " + fired.Format(dateTimeLayout) + " (10s ago)",
			"running jobs fired by a schedule round in the last 1m0s: 1, the last at ",
			"executor registrations refreshed in the last 1m0s (an admin receives their beats): 1",
		} {
			if !seenContaining(a, want) {
				t.Errorf("seen %q lacks %q", a.Seen, want)
			}
		}
		if !a.QuietAt.Equal(now.Add(57 * time.Second)) { // the registration, 3 s ago, is the last trace
			t.Errorf("quiet at %s, want %s", a.QuietAt, now.Add(57*time.Second))
		}
		if err := a.Err(); !errors.Is(err, ErrAdminActive) || !strings.Contains(err.Error(), "10s ago") {
			t.Errorf("Err = %v", err)
		}

		a, err = s.CheckActivity(ctx, ActivityOptions{Idle: 2 * time.Second, Watch: time.Millisecond, Now: clock})
		mustNoErr(t, err)
		if a.Active() {
			t.Errorf("with 2 s of idle time: seen %q", a.Seen)
		}
		a, err = s.CheckActivity(ctx, ActivityOptions{Idle: -1, Watch: time.Millisecond, Now: clock})
		mustNoErr(t, err)
		if a.Active() || a.Err() != nil {
			t.Errorf("without idle time: seen %q", a.Seen)
		}

		// An admin in another zone writes wall times that look ahead.
		rawExec(t, s, "INSERT INTO xxl_job_log (job_group, job_id, trigger_time, trigger_code, handle_code) VALUES (1, 1, ?, 200, 0)",
			s.dbTime(now.Add(8*time.Hour)))
		a, err = s.CheckActivity(ctx, ActivityOptions{Idle: 2 * time.Second, Watch: time.Millisecond, Now: clock})
		mustNoErr(t, err)
		if !seenContaining(a, "(8h0m0s in the future: the admin's clock or zone differs from serverTimezone "+testZone+")") {
			t.Errorf("a log row 8 h ahead: seen %q", a.Seen)
		}
	})
}

// TestActivityLockHeld: the schedule_lock row held by another session (as
// a schedule round holds it) is seen at once on MySQL and PostgreSQL;
// SQLite says it cannot probe it.
func TestActivityLockHeld(t *testing.T) {
	forEachPrepared(t, func(t *testing.T, s *Store) {
		ctx := context.Background()
		if s.Backend() == SQLite {
			a, err := s.CheckActivity(ctx, ActivityOptions{Idle: -1, Watch: time.Millisecond})
			mustNoErr(t, err)
			if a.Active() || len(a.Notes) != 1 || !strings.Contains(a.Notes[0], "not probed") {
				t.Errorf("activity on SQLite = %+v", a)
			}
			return
		}
		held, release := make(chan struct{}), make(chan struct{})
		done := make(chan error, 1)
		go func() {
			done <- s.WithScheduleLock(ctx, func(*Store) error {
				close(held)
				<-release
				return nil
			})
		}()
		<-held
		a, err := s.CheckActivity(ctx, ActivityOptions{Idle: -1, Watch: time.Minute})
		close(release)
		mustNoErr(t, err)
		mustNoErr(t, <-done)
		if !seenContaining(a, "the schedule_lock row was locked by another session") || a.Watched > 10*time.Second {
			t.Errorf("activity with the lock held = %+v", a)
		}
		a, err = s.CheckActivity(ctx, ActivityOptions{Idle: -1, Watch: time.Millisecond})
		mustNoErr(t, err)
		if a.Active() || len(a.Notes) > 0 {
			t.Errorf("activity with the lock free = %+v", a)
		}
	})
}

// TestActivityWatch: a schedule round moving a running job's next time,
// and a fire writing a log row, are seen while watching.
func TestActivityWatch(t *testing.T) {
	cases := []struct {
		name, want string
		change     func(t *testing.T, s *Store, n int64)
	}{
		{"next time", "the trigger_next_time of running job 1 moved", func(t *testing.T, s *Store, n int64) {
			rawExec(t, s, "UPDATE xxl_job_info SET trigger_next_time = ? WHERE id = 1", 1700000000000+n*1000)
		}},
		{"log row", "job log rows were written while watching", func(t *testing.T, s *Store, _ int64) {
			rawExec(t, s, "INSERT INTO xxl_job_log (job_group, job_id, trigger_code, handle_code) VALUES (1, 1, 0, 0)")
		}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			forEachPrepared(t, func(t *testing.T, s *Store) {
				ctx := context.Background()
				rawExec(t, s, "UPDATE xxl_job_info SET trigger_status = 1, trigger_next_time = 1700000000000 WHERE id = 1")
				result := make(chan Activity, 1)
				go func() {
					a, err := s.CheckActivity(ctx, ActivityOptions{Idle: -1, Watch: time.Minute})
					if err != nil {
						t.Error(err)
					}
					result <- a
				}()
				// Keep changing until the watch has seen it: the first change
				// may come before the watch's first look.
				var n atomic.Int64
				tick := time.NewTicker(20 * time.Millisecond)
				defer tick.Stop()
				for {
					select {
					case a := <-result:
						if !seenContaining(a, c.want) {
							t.Errorf("seen %q, want %q", a.Seen, c.want)
						}
						return
					case <-tick.C:
						c.change(t, s, n.Add(1))
					}
				}
			})
		})
	}
}
