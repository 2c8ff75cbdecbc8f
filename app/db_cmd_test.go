package app_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/xxl-admin-go/xxl-admin-go/app"
	"github.com/xxl-admin-go/xxl-admin-go/compat/schema"
	"github.com/xxl-admin-go/xxl-admin-go/internal/testsupport/storetest"
	"github.com/xxl-admin-go/xxl-admin-go/internal/testsupport/testfactory"
)

// open24 opens a store on a database's options (a prepared 2.4 one).
func open24(t *testing.T, args []string) *schema.Store {
	t.Helper()
	return storetest.Open(t, strings.TrimPrefix(args[0], "--spring.datasource.url="), user(args), pass(args))
}

// TestDBUpgrade runs `db check` and `db upgrade` with the options the
// server takes on a 2.4 database holding duplicate registrations: the dry
// run prints the plan and the count and changes nothing, the upgrade is
// refused until told to remove them, then runs step by step, and a second
// run has nothing to do.
func TestDBUpgrade(t *testing.T) {
	for _, db := range databases {
		t.Run(db.name, func(t *testing.T) {
			t.Parallel()
			args := db.args(t)
			s := open24(t, args)
			old := time.Now().Add(-time.Hour)
			for _, v := range []string{"http://10.0.0.1:9999/", "http://10.0.0.1:9999/", "http://10.0.0.2:9999/"} {
				testfactory.Registry(t, s, testfactory.RegistryOpts{App: "app", Addr: v, At: old})
			}
			run := func(words ...string) (int, string, string) { return runMain(t, append(words, args...)...) }

			code, out, stderr := run("db", "check")
			if code != 0 || !strings.Contains(out, "schema: 2.4 (the admin behaves as xxl-job-admin 2.4.2)\nwarnings: none\nupgrade: `xxl-admin-go db upgrade --to 3.4 --dry-run`") {
				t.Fatalf("db check: %d %s\n%s", code, stderr, out)
			}
			code, out, stderr = run("db", "upgrade", "--to", "3.4", "--dry-run")
			for _, want := range []string{"schema: 2.4 (xxl-job-admin 2.4.2); target: 3.4 (xxl-job-admin 3.4.2)\n", "plan: 6 steps\n",
				"  6. xxl_job_log: executor_param varchar(512) → text (3.4.0)", "duplicate registrations: 1 (rows of xxl_job_registry, of 1 keys,",
				"users to reset: 1 (their password is a 2.x MD5 hash", "WHERE username = 'admin';", "no admin seen scheduling", "dry run: nothing was changed\n"} {
				if !strings.Contains(out, want) {
					t.Errorf("dry run output lacks %q:\n%s", want, out)
				}
			}
			if code != 1 || !strings.Contains(stderr, "refused: duplicate registrations (1) break the unique key") {
				t.Errorf("dry run with duplicates: %d %q", code, stderr)
			}
			if code, _, stderr = run("db", "upgrade", "--to=3.4"); code != 1 || !strings.Contains(stderr, "--remove-duplicate-registrations") {
				t.Fatalf("upgrade with duplicates: %d %q", code, stderr)
			}
			if _, out, _ = run("db", "check"); !strings.Contains(out, "schema: 2.4") {
				t.Fatalf("a refused upgrade changed the schema: %s", out)
			}
			code, out, stderr = run("db", "upgrade", "--to", "3.4", "--remove-duplicate-registrations")
			if code != 0 || !strings.Contains(out, "step 6/6 xxl_job_log [rows: 0] ... ") ||
				!strings.Contains(out, "the admin finds a 3.4 database without warnings\n") {
				t.Fatalf("upgrade: %d %s\n%s", code, stderr, out)
			}
			if code, out, _ = run("db", "check"); code != 0 || !strings.Contains(out, "schema: 3.4 (the admin behaves as xxl-job-admin 3.4.2)\nwarnings: none\n") {
				t.Errorf("db check after the upgrade: %d %s", code, out)
			}
			if code, out, _ = run("db", "upgrade", "--to", "3.4"); code != 0 || !strings.HasSuffix(out, "nothing to do: the tables are 3.4.2's\n") {
				t.Errorf("second upgrade: %d %s", code, out)
			}
		})
	}
}

// TestDBUpgradeRefusedWhileScheduling starts a real admin of ours on a 2.4
// database with a job firing every second: the upgrade is refused, naming
// what it saw; once the admin has stopped, the dry run still names the
// recent fires (and when they will be a minute old), and the upgrade runs
// when only what happens now counts (--idle=0).
func TestDBUpgradeRefusedWhileScheduling(t *testing.T) {
	for _, db := range databases {
		t.Run(db.name, func(t *testing.T) {
			t.Parallel()
			args := db.args(t)
			s := open24(t, args)
			g := testfactory.ManualGroup(t, s, "http://127.0.0.1:9/")
			testfactory.Job(t, s, testfactory.JobOpts{Group: g.ID, ScheduleType: "FIX_RATE", ScheduleConf: "1", Status: 1,
				Next: time.Now().UnixMilli()})
			a := startAdmin(t, app.Options{}, args...)
			waitForFire(t, s)

			code, out, stderr := runMain(t, append([]string{"db", "upgrade", "--to", "3.4"}, args...)...)
			if code != 1 || !strings.Contains(stderr, "db upgrade: refused: an admin is scheduling on this database: ") ||
				!strings.Contains(stderr, "job log rows triggered in the last 1m0s: ") || !strings.Contains(out, "seen: ") {
				t.Fatalf("upgrade beside a running admin: %d %s\n%s", code, stderr, out)
			}
			t.Logf("beside a running admin:\n%s", stderr)
			code, _, stderr = runMain(t, append([]string{"db", "upgrade", "--to", "3.4", "--idle=0"}, args...)...)
			if code != 1 || !strings.Contains(stderr, "while watching") && !strings.Contains(stderr, "schedule_lock row was locked") {
				t.Fatalf("upgrade beside a running admin, watching only: %d %s", code, stderr)
			}
			if err := a.stop(); err != nil {
				t.Fatal(err)
			}
			code, _, stderr = runMain(t, append([]string{"db", "upgrade", "--to", "3.4", "--dry-run"}, args...)...)
			if code != 1 || !strings.Contains(stderr, "job log rows triggered in the last 1m0s: ") || !strings.Contains(stderr, "if they are all stopped already") {
				t.Errorf("dry run after the admin stopped: %d %s", code, stderr)
			}
			code, out, stderr = runMain(t, append([]string{"db", "upgrade", "--to", "3.4", "--idle=0"}, args...)...)
			if code != 0 || !strings.Contains(out, "no admin seen scheduling") {
				t.Fatalf("upgrade after the admin stopped: %d %s\n%s", code, stderr, out)
			}
		})
	}
}

// waitForFire returns once the admin has written a log row.
func waitForFire(t *testing.T, s *schema.Store) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	tick := time.NewTicker(50 * time.Millisecond)
	defer tick.Stop()
	for {
		_, n, err := s.LogPageList(ctx, 0, 1, schema.LogFilter{})
		if err != nil {
			t.Fatal(err)
		}
		if n > 0 {
			return
		}
		select {
		case <-ctx.Done():
			t.Fatal("the admin fired nothing in 30 s")
		case <-tick.C:
		}
	}
}

// TestDBRefused: usage errors exit 2; an empty database has nothing to
// upgrade (exit 1) and is not created.
func TestDBRefused(t *testing.T) {
	for _, args := range [][]string{{"db"}, {"db", "migrate"}, {"db", "upgrade"}, {"db", "upgrade", "--to", "2.4"},
		{"db", "upgrade", "--to", "3.4", "--idle", "soon"}, {"db", "check", "--dry-run"}} {
		if code, _, stderr := runMain(t, args...); code != 2 || !strings.Contains(stderr, "usage:") {
			t.Errorf("%v: %d %s", args, code, stderr)
		}
	}
	if code, out, _ := runMain(t, "db", "--help"); code != 0 || !strings.Contains(out, "db upgrade --to 3.4") {
		t.Errorf("help: %d", code)
	}
	empty := "--spring.datasource.url=" + storetest.SQLiteURL(t, "")
	for _, words := range [][]string{{"db", "check"}, {"db", "upgrade", "--to", "3.4"}} {
		if code, _, stderr := runMain(t, append(words, empty)...); code != 1 || !strings.Contains(stderr, "no xxl_job_* tables") {
			t.Errorf("%v on an empty database: %d %s", words, code, stderr)
		}
	}
}
