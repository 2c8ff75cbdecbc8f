package upgrade

import (
	"bytes"
	"context"
	"crypto/sha256"
	"database/sql"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/xxl-admin-go/xxl-admin-go/conformance/cluster"
	"github.com/xxl-admin-go/xxl-admin-go/conformance/javaadmin"
	"github.com/xxl-admin-go/xxl-admin-go/internal/testsupport/storetest"
)

// EnvJar34 points at the Java admin 3.4.2 elsewhere than beside the 2.4.2
// jar (../shared/reference).
const EnvJar34 = "XXL_TEST_JAVA_ADMIN34_JAR"

// logRows are the log rows the 2.4.2 database holds before the upgrade.
const logRows = 100_000

// TestUpgradeInPlace is issue 20 §5's test, on MariaDB: see the package doc.
func TestUpgradeInPlace(t *testing.T) {
	jar24 := javaadmin.Require(t)
	if os.Getenv(storetest.EnvMySQL) == "" {
		t.Skip("[suite-off] the upgrade test needs " + storetest.EnvMySQL)
	}
	jar34 := os.Getenv(EnvJar34)
	if jar34 == "" {
		jar34 = filepath.Join(filepath.Dir(jar24), "xxl-job-admin-3.4.2.jar")
	}
	if _, err := os.Stat(jar34); err != nil {
		t.Fatalf("the Java admin 3.4.2 (set %s to use another path): %v", EnvJar34, err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 6*time.Minute)
	defer cancel()
	work := t.TempDir()
	bin, err := cluster.BuildAdmin(ctx, work)
	if err != nil {
		t.Fatal(err)
	}
	url, user, pass := storetest.MySQLURLZone(t, zone)
	d := datasource{url + "&useUnicode=true&characterEncoding=UTF-8&autoReconnect=true", user, pass}
	db, err := openSQL(d)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if err := create24(ctx, db); err != nil {
		t.Fatal(err)
	}
	t0 := time.Now()
	if err := fillLogs(ctx, db, logRows); err != nil {
		t.Fatal(err)
	}
	t.Logf("inserted %d log rows in %s", logRows, time.Since(t0).Round(time.Millisecond))
	tool := func(words ...string) (int, string, string) {
		return runTool(t, ctx, bin, append(words, d.options()...)...)
	}

	before(t, ctx, db, d, jar24, bin, work, tool)
	out := upgradeDB(t, ctx, db, tool)
	after(t, ctx, db, d, jar34, bin, work, out)
}

// before runs the Java admin 2.4.2 and ours on the 2.4.2 database: both
// log in and fire job 1, and the upgrade is refused while they run.
func before(t *testing.T, ctx context.Context, db *sql.DB, d datasource, jar, bin, work string, tool func(...string) (int, string, string)) {
	admins := map[string]javaadmin.Target{"java": javaadmin.Java{Jar: jar}, "ours": javaadmin.Ours{Bin: bin}}
	started := map[string]*javaadmin.Admin{}
	var mu sync.Mutex
	var wg sync.WaitGroup
	for name, target := range admins {
		wg.Add(1)
		go func() {
			defer wg.Done()
			dir := filepath.Join(work, name+"24")
			if err := os.MkdirAll(dir, 0o755); err != nil {
				t.Error(err)
				return
			}
			out, err := os.Create(filepath.Join(dir, "admin.log"))
			if err != nil {
				t.Error(err)
				return
			}
			t.Cleanup(func() { out.Close() })
			a, err := javaadmin.Start(ctx, target, javaadmin.Settings{DatasourceURL: d.url, User: d.user, Password: d.pass,
				AccessToken: "default_token", WorkDir: dir}, out, 2*time.Minute)
			if err != nil {
				t.Error(err)
				return
			}
			t.Cleanup(a.Kill)
			mu.Lock()
			started[name] = a
			mu.Unlock()
		}()
	}
	wg.Wait()
	if t.Failed() {
		t.FailNow()
	}
	for name, a := range started {
		c, err := javaadmin.Login(a.URL(), "admin", "123456")
		if err != nil {
			t.Fatalf("%s 2.4 login: %v", name, err)
		}
		if err := c.Trigger(1, "before-"+name); err != nil {
			t.Fatalf("%s 2.4 trigger: %v", name, err)
		}
	}
	if _, err := waitCount(ctx, db, 2, "SELECT count(1) FROM xxl_job_log WHERE executor_param IN ('before-java', 'before-ours')"); err != nil {
		t.Fatal(err)
	}
	code, out, stderr := tool("db", "upgrade", "--to", "3.4")
	// Idle admins: the two fires are what shows them (no job is running, so
	// no schedule round moves anything while watching).
	if code != 1 || !strings.Contains(stderr, "refused: an admin is scheduling on this database: job log rows triggered in the last 1m0s: 2, ") {
		t.Fatalf("upgrade beside the running 2.4 admins: exit %d\n%s\n%s", code, out, stderr)
	}
	t.Logf("beside the running 2.4 admins: %s", stderr)
	for name, a := range started {
		if err := a.Stop(); err != nil {
			t.Fatalf("stop %s: %v", name, err)
		}
	}
}

// upgradeDB gives the stopped database the duplicate registrations and an
// MD5 user a 2.x database may hold, prints the plan, upgrades (timed) and
// returns the upgrade's output.
func upgradeDB(t *testing.T, ctx context.Context, db *sql.DB, tool func(...string) (int, string, string)) string {
	// 2.4.2 registers with an update, then an insert when none was
	// updated: two admins racing on a new executor insert it twice; case
	// differs where an executor's app name was edited (MySQL's key ignores it).
	for _, key := range []string{"xxl-job-executor-sample", "xxl-job-executor-sample", "XXL-JOB-executor-sample"} {
		if _, err := db.ExecContext(ctx, "INSERT INTO xxl_job_registry (registry_group, registry_key, registry_value, update_time) VALUES ('EXECUTOR', ?, 'http://127.0.0.1:9999/', NOW())", key); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := db.ExecContext(ctx, "INSERT INTO xxl_job_user (username, password, role) VALUES ('ops', 'e10adc3949ba59abbe56e057f20f883e', 0)"); err != nil {
		t.Fatal(err)
	}
	// The admins stopped a moment ago: only what happens now counts
	// (--idle=0); their fires of a moment ago would refuse it for a minute.
	code, plan, stderr := tool("db", "upgrade", "--to", "3.4", "--dry-run", "--idle=0")
	t.Logf("db upgrade --to 3.4 --dry-run:\n%s%s", plan, stderr)
	for _, want := range []string{"schema: 2.4 (xxl-job-admin 2.4.2); target: 3.4 (xxl-job-admin 3.4.2)", "plan: 6 steps",
		fmt.Sprintf("[rows: %d]", logRows+2), "duplicate registrations: 2 (", "users to reset: 2 (",
		"UPDATE xxl_job_user SET password = SHA2('<new password>', 256) WHERE username = 'admin';", "dry run: nothing was changed"} {
		if !strings.Contains(plan, want) {
			t.Errorf("the plan lacks %q", want)
		}
	}
	if code != 1 || !strings.Contains(stderr, "--remove-duplicate-registrations") {
		t.Errorf("dry run with duplicates: exit %d %s", code, stderr)
	}
	start := time.Now()
	code, out, stderr := tool("db", "upgrade", "--to", "3.4", "--remove-duplicate-registrations", "--idle=0")
	took := time.Since(start)
	t.Logf("db upgrade --to 3.4 --remove-duplicate-registrations (%s in all):\n%s%s", took.Round(time.Millisecond), out, stderr)
	if code != 0 || !strings.Contains(out, "the admin finds a 3.4 database without warnings") {
		t.Fatalf("upgrade: exit %d", code)
	}
	step := regexp.MustCompile(fmt.Sprintf(`step 6/6 xxl_job_log \[rows: %d\] \.\.\. (\S+)`, logRows+2)).FindStringSubmatch(out)
	if step == nil {
		t.Errorf("no timing of the log table's step")
	}
	if n, err := count(ctx, db, "SELECT count(1) FROM xxl_job_registry"); err != nil || n != 1 {
		t.Errorf("%d registrations left (%v), want 1", n, err)
	}
	return out
}

// newPassword is admin's password after the upgrade.
const newPassword = "upgraded-3.4"

// setPassword runs the tool's statement for admin with newPassword.
func setPassword(t *testing.T, ctx context.Context, db *sql.DB, output string) {
	t.Helper()
	var stmt string
	for _, line := range strings.Split(output, "\n") {
		if strings.Contains(line, "WHERE username = 'admin';") {
			stmt = strings.TrimSpace(strings.ReplaceAll(line, "<new password>", newPassword))
		}
	}
	if stmt == "" {
		t.Fatal("the tool printed no statement for admin")
	}
	if _, err := db.ExecContext(ctx, strings.TrimSuffix(stmt, ";")); err != nil {
		t.Fatalf("%s: %v", stmt, err)
	}
	var stored string
	if err := db.QueryRowContext(ctx, "SELECT password FROM xxl_job_user WHERE username = 'admin'").Scan(&stored); err != nil {
		t.Fatal(err)
	}
	sum := sha256.Sum256([]byte(newPassword))
	if stored != hex.EncodeToString(sum[:]) {
		t.Fatalf("admin's password after the statement = %q, want the SHA-256 hex of %q", stored, newPassword)
	}
}

// after starts ours and the Java admin 3.4.2 on the upgraded database;
// upgraded is the upgrade's output, whose statement gives admin a password.
func after(t *testing.T, ctx context.Context, db *sql.DB, d datasource, jar, bin, work, upgraded string) {
	ours, err := startOurs34(ctx, bin, filepath.Join(work, "ours34"), d)
	if err != nil {
		t.Fatal(err)
	}
	defer stopOrLog(t, ours)
	logged, _ := os.ReadFile(ours.log)
	if !regexp.MustCompile(`"schema":"3\.4".*"message":"database ready"|"message":"database ready".*"schema":"3\.4"`).Match(logged) {
		t.Errorf("our admin did not say it found a 3.4 database:\n%s", logged)
	}

	// A job fires on ours: a new one, with a parameter 2.4.2's
	// varchar(512) refused, every second.
	res, err := db.ExecContext(ctx, `INSERT INTO xxl_job_info (job_group, job_desc, add_time, update_time, author, schedule_type, schedule_conf,
		misfire_strategy, executor_route_strategy, executor_handler, executor_param, executor_block_strategy, glue_type, glue_remark,
		glue_updatetime, trigger_status, trigger_next_time) VALUES (1, 'after the upgrade', NOW(), NOW(), 'test', 'FIX_RATE', '1', 'DO_NOTHING',
		'FIRST', 'demoJobHandler', ?, 'SERIAL_EXECUTION', 'BEAN', '', NOW(), 1, ?)`, strings.Repeat("p", 1000), time.Now().UnixMilli())
	if err != nil {
		t.Fatal(err)
	}
	job, _ := res.LastInsertId()
	if _, err := waitCount(ctx, db, 1, "SELECT count(1) FROM xxl_job_log WHERE job_id = ?", job); err != nil {
		t.Fatal(err)
	}
	if err := waitLogged(ctx, ours.log, fmt.Sprintf(`"component":"trigger","job_id":%d,`, job)); err != nil {
		t.Error(err) // the row is written before the fire's log line
	}

	java, err := startJava34(ctx, jar, filepath.Join(work, "java34"), d)
	if err != nil {
		t.Fatal(err)
	}
	defer stopOrLog(t, java)
	// admin's MD5 hash is refused by both; the tool's statement fixes it.
	for _, p := range []*process{ours, java} {
		c, r, err := login34(p.base, "admin", "123456")
		if err != nil || r.Code == 200 || c.loggedIn() {
			t.Errorf("%s: login with the 2.x password hash = %+v %v", p.name, r, err)
		}
	}
	setPassword(t, ctx, db, upgraded)
	consoles := map[string]*console34{}
	for _, p := range []*process{ours, java} {
		c, r, err := login34(p.base, "admin", newPassword)
		if err != nil || r.Code != 200 || !c.loggedIn() {
			t.Fatalf("%s: login with the new password = %+v %v", p.name, r, err)
		}
		consoles[p.name] = c
	}

	// A job fires on the Java admin: its "run once".
	if err := consoles[java.name].trigger(1, "after-java"); err != nil {
		t.Fatal(err)
	}
	if _, err := waitCount(ctx, db, 1, "SELECT count(1) FROM xxl_job_log WHERE executor_param = 'after-java'"); err != nil {
		t.Fatal(err)
	}

	// Every log row of job 1 is listed: those of before the upgrade and the new one.
	want := logRows + 3
	if n, err := count(ctx, db, "SELECT count(1) FROM xxl_job_log WHERE job_id = 1"); err != nil || n != want {
		t.Errorf("%d log rows of job 1 in the database (%v), want %d", n, err, want)
	}
	total, err := consoles[java.name].logTotal(1, 1)
	if err != nil || total != want {
		t.Errorf("the Java admin 3.4.2 lists %d log rows of job 1 (%v), want %d", total, err, want)
	}
}

func stopOrLog(t *testing.T, p *process) {
	if err := p.stop(); err != nil {
		t.Errorf("stop %s: %v", p.name, err)
	}
	if t.Failed() {
		out, _ := os.ReadFile(p.log)
		if len(out) > 8000 {
			out = out[len(out)-8000:]
		}
		t.Logf("%s admin output (end):\n%s", p.name, out)
	}
}

// runTool runs our binary with args and returns its exit code and output.
func runTool(t *testing.T, ctx context.Context, bin string, args ...string) (int, string, string) {
	t.Helper()
	var out, errOut bytes.Buffer
	cmd := exec.CommandContext(ctx, bin, args...)
	cmd.Env = append(os.Environ(), "TZ="+zone)
	cmd.Stdout, cmd.Stderr = &out, &errOut
	err := cmd.Run()
	var exit *exec.ExitError
	switch {
	case errors.As(err, &exit):
		return exit.ExitCode(), out.String(), errOut.String()
	case err != nil:
		t.Fatalf("%s %v: %v", bin, args, err)
	}
	return 0, out.String(), errOut.String()
}
