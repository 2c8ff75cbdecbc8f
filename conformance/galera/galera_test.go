package galera

import (
	"context"
	"database/sql"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	_ "github.com/go-sql-driver/mysql" // the harness's own connections

	"github.com/xxl-admin-go/xxl-admin-go/compat/schema"
	"github.com/xxl-admin-go/xxl-admin-go/conformance/cluster"
	"github.com/xxl-admin-go/xxl-admin-go/conformance/javaadmin"
	"github.com/xxl-admin-go/xxl-admin-go/internal/testsupport/testfactory"
)

const (
	// EnvGalera switches the suite on ("1"); CI's setup step sets it.
	EnvGalera = "XXL_TEST_GALERA"
	// envSeconds sets the measured run (default 40 s, the CI short form).
	envSeconds = "XXL_TEST_GALERA_SECONDS"
	// envAdmin names an admin binary to measure instead of building this
	// tree's (e.g. an older commit's, for a before/after figure).
	envAdmin = "XXL_TEST_GALERA_ADMIN"
	// envDump names a directory for fires, log rows, admin and node logs.
	envDump = "XXL_TEST_GALERA_DUMP"
	// envJava switches TestGaleraJavaAdmins on ("1"): a measurement, not
	// part of CI. The jar is javaadmin's (XXL_TEST_JAVA_ADMIN_JAR).
	envJava = "XXL_TEST_GALERA_JAVA"

	nodes       = 3
	fixRateJobs = 300
	cronJobs    = 20 // CRON "* * * * * ?": every second, through the cron path
	// victim is the node SIGKILLed mid-run (0-based); the harness's own
	// connection is on node 0.
	victim = 2
	// startMargin is from switching the jobs on to their first fire: more
	// than the 5 s between idle rounds.
	startMargin = 8 * time.Second
	// maxPoolLag bounds how far before the kill the victim's trigger pool
	// may still have been sending seconds it had decided (see
	// cluster.Executor.SendingSince).
	maxPoolLag = 10
	// afterRejoin is the least run left once the killed node is back:
	// its admin's round back-off (up to 5 s) and a few rounds.
	afterRejoin = 12 * time.Second
	readyLimit  = 60 * time.Second
	stopGrace   = 30 * time.Second
	zone        = "Asia/Shanghai"
)

// TestGaleraNoDoubleFires runs one admin per node of a 3-node MariaDB
// Galera cluster with 300 FIX_RATE 1 s and 20 CRON every-second jobs,
// SIGKILLs one node a third into the run and rejoins it (crash recovery,
// incremental state transfer), and checks at the executor and in
// xxl_job_log: no job fires twice in a planned second, and the only fires
// missing are those of seconds the killed node's admin had decided in a
// round it committed (or whose commit the crash cut off) — they sat in
// its ring and its trigger flow lost its database. The schedule lock locks
// on its own node only; what keeps the admins apart is that a round fires
// only what its own committed transaction moved (docs/topologies.md).
func TestGaleraNoDoubleFires(t *testing.T) {
	o := runScenario(t, oursAdmin(t))
	res, logRes := o.res, o.logRes
	if res.Duplicates != 0 || logRes.Duplicates != 0 {
		t.Errorf("duplicate fires: %d at the executor (%v), %d in xxl_job_log (%v); want none; load average %s",
			res.Duplicates, res.DuplicateSlots, logRes.Duplicates, logRes.DuplicateSlots, cluster.LoadAverage())
	}
	if res.MissesElsewhere != 0 {
		t.Errorf("%d fires missing outside the seconds the killed node's admin had decided, e.g. %v; load average %s",
			res.MissesElsewhere, res.Missed, cluster.LoadAverage())
	}
	if res.Fired == 0 {
		t.Error("nothing fired")
	}
	if o.custom {
		return // another build: figures only
	}
	if o.roundsAfterRejoin == 0 {
		t.Errorf("the killed node's admin committed no round after its node rejoined")
	}
}

// TestGaleraJavaAdmins measures three Java 2.4.2 admins in the same run,
// for the side-by-side figures of docs/topologies.md. It only reports:
// their pre-read is a plain read, so they are expected to fire twice.
func TestGaleraJavaAdmins(t *testing.T) {
	if os.Getenv(envJava) != "1" {
		t.Skip("measurement only, not part of CI: " + envJava + "=1 runs it")
	}
	jar, err := javaadmin.JarPath()
	if err != nil {
		t.Fatal(err)
	}
	o := runScenario(t, javaAdmin(t, jar))
	t.Logf("java admins: %d duplicates at the executor, %d in xxl_job_log, %d planned",
		o.res.Duplicates, o.logRes.Duplicates, o.res.Planned)
}

// outcome is what one run measured.
type outcome struct {
	res, logRes       cluster.Result
	roundsAfterRejoin int
	custom            bool // admins other than this tree's build
}

// runScenario starts the cluster and the admins, runs the jobs with the
// kill and rejoin, and pairs the fires with the plan.
func runScenario(t *testing.T, kind adminKind) outcome {
	if os.Getenv(EnvGalera) == "" {
		t.Skip("[suite-off] " + EnvGalera + "=1 runs the 3-node Galera test (mariadb-server and galera-4; see .ci/packages.d/galera)")
	}
	if testing.Short() {
		t.Skip("real-clock test of about a minute")
	}
	bins, err := FindBinaries()
	if err != nil {
		t.Fatalf("%s is set but the cluster cannot be built: %v", EnvGalera, err)
	}
	// One clock-counting test at a time across the packages go test runs
	// in parallel: three nodes and three admins are a machine's worth.
	cluster.Exclusive(t)
	run := 40 * time.Second
	if v, err := strconv.Atoi(os.Getenv(envSeconds)); err == nil && v > 0 {
		run = time.Duration(v) * time.Second
	}
	ctx, cancel := context.WithTimeout(context.Background(), run+5*time.Minute)
	defer cancel()

	// A short base: socket paths are limited to 108 bytes.
	base, err := os.MkdirTemp("", "xxl-galera-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = os.RemoveAll(base) })
	prepared := make(chan error, 1)
	go func() { prepared <- kind.prepare(ctx) }()
	started := time.Now()
	c, err := Start(ctx, bins, base, nodes)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if err := c.Stop(); err != nil {
			t.Error(err)
		}
	})
	if err := <-prepared; err != nil {
		t.Fatal(err)
	}
	t.Logf("cluster of %d nodes up in %s", nodes, time.Since(started).Round(time.Millisecond))

	db := openCluster(t, ctx, c)
	ex := cluster.StartExecutor()
	t.Cleanup(ex.Close)
	group, jobs, err := db.Seed(ctx, fixRateJobs, ex.Address())
	if err != nil {
		t.Fatal(err)
	}
	crons, err := seedCron(ctx, db.Store, group, cronJobs)
	if err != nil {
		t.Fatal(err)
	}
	jobs = append(jobs, crons...)
	// The jobs wait switched off while the admins start (the Java admin
	// takes 10–80 s on a loaded machine), then all start on one whole
	// second far enough ahead that a round of every admin (idle rounds
	// come every 5 s) reads them before it: case C, on the grid.
	if err := setRunning(ctx, db, group, 0, time.Time{}); err != nil {
		t.Fatal(err)
	}
	f := &fleet{t: t, kind: kind, dir: base, c: c}
	t.Cleanup(f.killAll)
	var wg sync.WaitGroup
	for i := range nodes {
		wg.Go(func() { f.start(i) })
	}
	wg.Wait()
	if t.Failed() {
		t.FailNow()
	}
	first := time.Now().Truncate(time.Second).Add(startMargin)
	if err := setRunning(ctx, db, group, 1, first); err != nil {
		t.Fatal(err)
	}

	// Kill the victim node a third into the run; rejoin it once the
	// survivors have evicted it.
	if !sleepUntil(ctx, first.Add(run/3)) {
		t.Fatal("timed out")
	}
	killed := time.Now()
	c.Kill(victim)
	if err := c.WaitSynced(ctx, 0, nodes-1); err != nil {
		t.Fatal(err)
	}
	evicted := time.Now()
	if err := c.Rejoin(ctx, victim); err != nil {
		t.Fatal(err)
	}
	rejoined := time.Now()
	t.Logf("node %d SIGKILLed at %s, evicted after %s, rejoined (IST) after %s", victim+1, clockOf(killed),
		evicted.Sub(killed).Round(time.Millisecond), rejoined.Sub(killed).Round(time.Millisecond))

	// The rejoined node's admin gets some seconds to show it works again,
	// however long the rejoin took on a loaded machine.
	end := first.Add(run)
	if least := rejoined.Add(afterRejoin); end.Before(least) {
		end = least
	}
	if !sleepUntil(ctx, end) {
		t.Fatal("timed out")
	}
	// Fires due before the stop signal are planned; the ring drain at stop
	// fires some later ones, which count as outside the plan.
	last := time.Now().Truncate(time.Second).Add(-time.Second)
	f.terminateAll()

	logs := make([]AdminLog, nodes)
	for i := range nodes {
		if logs[i], err = ReadAdminLog(f.logs[i]); err != nil {
			t.Fatal(err)
		}
	}
	// The victim's trigger pool may still have been sending seconds it
	// had decided before the kill.
	sending := ex.SendingSince(token(victim), killed, maxPoolLag)
	excused, how := killedSeconds(logs[victim], killed, rejoined, sending)
	// Our admins' fires stand for the seconds their own rounds decided.
	decided := map[string][]int64{}
	for i, l := range logs {
		if d := l.Decided(); len(d) > 0 {
			decided[token(i)] = d
		}
	}
	fires, lookBack := cluster.LookBack(PlanFires(ex.Fires(), decided), first)
	var misfires []cluster.Misfire
	for _, n := range f.logs {
		b, _ := os.ReadFile(n)
		misfires = append(misfires, cluster.OurMisfires(b)...)
	}
	misfired := cluster.MisfiredSlots(fires, misfires)
	res := cluster.AnalyzeWith(fires, jobs, 1, first, last, excused, misfired)
	logFires, err := db.LogFires(ctx, group)
	if err != nil {
		t.Fatal(err)
	}
	logFires, _ = cluster.LookBack(cluster.PlanLogs(logFires, fires), first)
	logRes := cluster.AnalyzeWith(logFires, jobs, 1, first, last, excused, misfired)
	if res.Overloaded {
		logRes = cluster.AnalyzeOverloaded(logFires, jobs, 1, first, last, excused, misfired)
	}
	sameSecond, logRows, err := db.LogDuplicates(ctx, group)
	if err != nil {
		t.Fatal(err)
	}
	files := append(f.logs[:], c.Logs()...)
	if out := os.Getenv(envDump); out != "" {
		dump(t, ctx, db, out, group, ex, files, fires)
	} else {
		// A failed run keeps its evidence: registered last, this runs
		// before the cluster, the database and the executor are closed.
		t.Cleanup(func() {
			if !t.Failed() {
				return
			}
			out, err := os.MkdirTemp("", "xxl-galera-failed-")
			if err != nil {
				return
			}
			dump(t, context.Background(), db, out, group, ex, files, fires)
			t.Logf("fires, log rows, admin and node logs of the failed run: %s", out)
		})
	}
	t.Logf("galera run %s: %d %s admins on %d nodes, %d jobs (%d FIX_RATE 1 s, %d CRON every second), "+
		"%d fires a second late (look-back), %d misfires logged, load average %s\n"+
		"excused seconds (%s): %s\n%s", last.Sub(first)+time.Second, nodes, kind.name, nodes, len(jobs), fixRateJobs, cronJobs,
		lookBack, len(misfires), cluster.LoadAverage(), how, windowsText(excused), table(res, logRes, sameSecond, logRows, logs, rejoined))
	if res.Overloaded {
		t.Logf("overloaded run (lateness p99 %s): a fire counted for a free planned second up to %d s before its trigger second",
			res.Lateness.P99, cluster.OverloadWindow)
	}
	t.Logf("rounds around the kill (decided at second → planned span × fires):\n%s", roundsNear(logs, killed))
	return outcome{res: res, logRes: logRes, roundsAfterRejoin: committedAfter(logs[victim], rejoined), custom: kind.custom}
}

// adminKind is how to run the admins of a scenario.
type adminKind struct {
	name string
	// prepare runs beside the cluster's start (builds the binary).
	prepare func(ctx context.Context) error
	// start runs admin i against url with its own access token (each fire
	// names its sender), logging to out.
	start  func(i int, url, token string, out io.Writer) (proc, error)
	custom bool
}

// proc is a running admin.
type proc interface {
	stop() error
	kill()
}

type oursProc struct{ a *cluster.Admin }

func (p oursProc) stop() error { return p.a.Terminate(stopGrace) }
func (p oursProc) kill()       { p.a.Kill() }

// oursAdmin is this tree's admin (or the binary envAdmin names), logging
// its rounds at debug level.
func oursAdmin(t *testing.T) adminKind {
	bin := os.Getenv(envAdmin)
	k := adminKind{name: "Go", custom: bin != ""}
	k.prepare = func(ctx context.Context) error {
		if bin != "" {
			return nil
		}
		b, err := cluster.BuildAdmin(ctx, t.TempDir())
		bin = b
		return err
	}
	k.start = func(i int, url, token string, out io.Writer) (proc, error) {
		args := append(cluster.AdminArgs(url, User, Password, token), "--logging.level.root=debug")
		a, err := cluster.StartAdmin(bin, args, out, readyLimit)
		if err != nil {
			return nil, err
		}
		return oursProc{a}, nil
	}
	return k
}

type javaProc struct{ a *javaadmin.Admin }

// stop does not report a slow stop: Java sleeps up to 8 s for its ring at
// shutdown and may pass the harness's grace on a loaded machine.
func (p javaProc) stop() error { _ = p.a.Stop(); return nil }
func (p javaProc) kill()       { p.a.Kill() }

// javaAdmin is the Java admin 2.4.2 with the JVM's full JIT
// (javaadmin.Java's C1-only flag starts faster but cannot keep up with 300
// triggers a second).
func javaAdmin(t *testing.T, jar string) adminKind {
	return adminKind{name: "Java 2.4.2", custom: true,
		prepare: func(context.Context) error { return nil },
		start: func(i int, url, token string, out io.Writer) (proc, error) {
			mail, err := cluster.FreePort()
			if err != nil {
				return nil, err
			}
			a, err := javaadmin.Start(context.Background(), javaTarget{jar},
				javaadmin.Settings{DatasourceURL: url, User: User, Password: Password, AccessToken: token,
					MailPort: mail, WorkDir: t.TempDir()}, out, 2*readyLimit)
			if err != nil {
				return nil, err
			}
			return javaProc{a}, nil
		}}
}

// javaTarget runs the jar with the JVM's defaults, logging to stdout only.
type javaTarget struct{ jar string }

func (javaTarget) Name() string { return "java" }

func (j javaTarget) Command(ctx context.Context, port int, s javaadmin.Settings) (*exec.Cmd, error) {
	logback := filepath.Join(s.WorkDir, "logback.xml")
	const conf = `<configuration><appender name="o" class="ch.qos.logback.core.ConsoleAppender">` +
		`<encoder><pattern>%d{HH:mm:ss.SSS} %-5level [%thread] %logger{36} - %msg%n</pattern></encoder></appender>` +
		`<root level="info"><appender-ref ref="o"/></root></configuration>`
	if err := os.WriteFile(logback, []byte(conf), 0o644); err != nil {
		return nil, err
	}
	cmd := exec.CommandContext(ctx, "java", "-Djava.io.tmpdir="+s.WorkDir, "-jar", j.jar,
		"--server.port="+strconv.Itoa(port), "--server.address=127.0.0.1",
		"--spring.datasource.url="+s.DatasourceURL, "--spring.datasource.username="+s.User,
		"--spring.datasource.password="+s.Password, "--xxl.job.accessToken="+s.AccessToken,
		"--spring.mail.host=127.0.0.1", "--spring.mail.port="+strconv.Itoa(s.MailPort),
		"--logging.config="+logback)
	cmd.Dir = s.WorkDir
	return cmd, nil
}

// openCluster creates the admins' database on node 0 and opens the
// harness's connection to it, preparing the tables as a first admin would.
func openCluster(t *testing.T, ctx context.Context, c *Cluster) *cluster.DB {
	t.Helper()
	root, err := sql.Open("mysql", c.DSN(0, ""))
	if err != nil {
		t.Fatal(err)
	}
	defer root.Close()
	if _, err := root.ExecContext(ctx, "CREATE DATABASE xxl_job DEFAULT CHARACTER SET utf8mb4"); err != nil {
		t.Fatal(err)
	}
	db, err := cluster.OpenDB(ctx, c.JDBCURL(0, "xxl_job", zone), User, Password)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(db.Close)
	return db
}

// setRunning switches every job of the group on (status 1, first fire at
// first) or off (status 0, no next time).
func setRunning(ctx context.Context, db *cluster.DB, group, status int, first time.Time) error {
	next := int64(0)
	if status == 1 {
		next = first.UnixMilli()
	}
	_, err := db.SQL.ExecContext(ctx, "UPDATE xxl_job_info SET trigger_status = ?, trigger_last_time = 0, trigger_next_time = ?"+
		" WHERE job_group = ?", status, next, group)
	if err != nil {
		return fmt.Errorf("switch jobs to status %d: %w", status, err)
	}
	return nil
}

// seedCron adds n running CRON jobs firing every second to the group,
// otherwise like the FIX_RATE ones (route FIRST, BEAN "h", DO_NOTHING).
func seedCron(ctx context.Context, st *schema.Store, group, n int) ([]int, error) {
	now := time.Now()
	var ids []int
	err := st.WithTx(ctx, func(tx *schema.Store) error {
		for i := range n {
			id, err := tx.JobSave(ctx, testfactory.JobRow(testfactory.JobOpts{Group: group, Desc: fmt.Sprintf("cron %d", i),
				Author: "galera", ScheduleType: "CRON", ScheduleConf: "* * * * * ?", Handler: "h", Status: 1, At: now}))
			if err != nil {
				return err
			}
			ids = append(ids, id)
		}
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("seed %d cron jobs: %w", n, err)
	}
	return ids, nil
}

// killedSeconds are the planned seconds whose fires the kill may cost: the
// seconds decided by the killed node's admin in rounds it committed (or
// whose commit failed with an unknown outcome) that it had not yet sent a
// second before the kill (or, when its trigger pool was behind, since the
// first second it was still sending: sending). Its ring held them, and its trigger flow could
// no longer write their log rows. Without round lines (an admin that does
// not log them), the five seconds a ring holds are excused instead.
func killedSeconds(l AdminLog, killed, rejoined, sending time.Time) ([]cluster.Window, string) {
	from := killed.Add(-time.Second).Truncate(time.Second)
	if !sending.IsZero() && sending.Before(from) {
		from = sending.Truncate(time.Second)
	}
	var out []cluster.Window
	for _, r := range l.Rounds {
		// Rounds committed after the kill ran on the rejoined node; a
		// failed commit is reported when the connection breaks.
		decidedBefore := r.At.Before(killed.Add(time.Second)) || !r.Committed && r.At.Before(rejoined)
		if r.LastPlan.Before(from) || !decidedBefore {
			continue
		}
		out = append(out, cluster.Window{From: maxTime(r.FirstPlan, from).Truncate(time.Second), To: r.LastPlan})
	}
	if len(l.Rounds) == 0 {
		return []cluster.Window{{From: from, To: killed.Add(6 * time.Second)}}, "no round lines in the killed admin's log: a ring's 5 s"
	}
	return out, "rounds of the killed node's admin"
}

// roundsNear lists every admin's rounds from 8 s before to 2 s after the
// kill, for reading a failure.
func roundsNear(logs []AdminLog, killed time.Time) string {
	var b strings.Builder
	for i, l := range logs {
		fmt.Fprintf(&b, "  admin %d:", i+1)
		for _, r := range l.Rounds {
			if r.At.Before(killed.Add(-8*time.Second)) || r.At.After(killed.Add(2*time.Second)) {
				continue
			}
			mark := ""
			if !r.Committed {
				mark = " (commit failed)"
			}
			fmt.Fprintf(&b, " %s→%s…%s×%d%s", r.At.UTC().Format("05"), r.FirstPlan.UTC().Format("05.000"),
				r.LastPlan.UTC().Format("05.000"), r.Fires, mark)
		}
		b.WriteString("\n")
	}
	return b.String()
}

func committedAfter(l AdminLog, t time.Time) int {
	n := 0
	for _, r := range l.Rounds {
		if r.Committed && r.At.After(t) {
			n++
		}
	}
	return n
}

func maxTime(a, b time.Time) time.Time {
	if a.After(b) {
		return a
	}
	return b
}

// token is admin i's access token, which the executor records per fire.
func token(i int) string { return fmt.Sprintf("galera-admin%d", i+1) }

// fleet is the admin processes of the test, admin i on node i.
type fleet struct {
	t    *testing.T
	kind adminKind
	dir  string
	c    *Cluster

	mu     sync.Mutex
	admins [nodes]proc
	logs   [nodes]string
}

func (f *fleet) start(i int) {
	name := filepath.Join(f.dir, fmt.Sprintf("admin%d.log", i+1))
	out, err := os.Create(name)
	if err != nil {
		f.t.Error(err)
		return
	}
	f.t.Cleanup(func() { out.Close() })
	f.mu.Lock()
	f.logs[i] = name
	f.mu.Unlock()
	a, err := f.kind.start(i, f.c.JDBCURL(i, "xxl_job", zone), token(i), out)
	if err != nil {
		f.t.Errorf("admin %d: %v", i+1, err)
		return
	}
	f.mu.Lock()
	f.admins[i] = a
	f.mu.Unlock()
}

// terminateAll stops every admin with SIGTERM at the same time.
func (f *fleet) terminateAll() {
	f.mu.Lock()
	all := f.admins
	f.admins = [nodes]proc{}
	f.mu.Unlock()
	var wg sync.WaitGroup
	for i, a := range all {
		if a == nil {
			continue
		}
		wg.Go(func() {
			if err := a.stop(); err != nil {
				f.t.Errorf("admin %d: %v", i+1, err)
			}
		})
	}
	wg.Wait()
}

func (f *fleet) killAll() {
	f.mu.Lock()
	all := f.admins
	f.admins = [nodes]proc{}
	f.mu.Unlock()
	for _, a := range all {
		if a != nil {
			a.kill()
		}
	}
}

func dump(t *testing.T, ctx context.Context, db *cluster.DB, out string, group int, exec *cluster.Executor, files []string, planned []cluster.Fire) {
	if err := db.Dump(ctx, out, group, exec.Fires()); err != nil {
		t.Error(err)
	}
	// The fires as analysed: sender, trigger time and planned second.
	var b strings.Builder
	for _, f := range planned {
		fmt.Fprintf(&b, "%d\t%d\t%s\t%s\t%s\t%s\n", f.JobID, f.LogID, f.Admin, clockOf(f.Trigger), clockOf(f.At),
			time.Unix(f.Planned, 0).UTC().Format("15:04:05"))
	}
	_ = os.WriteFile(filepath.Join(out, "fires-planned.tsv"), []byte(b.String()), 0o644)
	for _, n := range files {
		if b, err := os.ReadFile(n); err == nil {
			_ = os.WriteFile(filepath.Join(out, filepath.Base(n)), b, 0o644)
		}
	}
}

func sleepUntil(ctx context.Context, at time.Time) bool {
	t := time.NewTimer(time.Until(at))
	defer t.Stop()
	select {
	case <-t.C:
		return true
	case <-ctx.Done():
		return false
	}
}

func clockOf(t time.Time) string { return t.UTC().Format("15:04:05.000") }

func windowsText(ws []cluster.Window) string {
	if len(ws) == 0 {
		return "none"
	}
	var s []string
	for _, w := range ws {
		s = append(s, w.From.UTC().Format("15:04:05")+"…"+w.To.UTC().Format("15:04:05"))
	}
	return strings.Join(s, ", ")
}

func table(r, logs cluster.Result, sameSecond, logRows int, admins []AdminLog, rejoined time.Time) string {
	var b strings.Builder
	row := func(k string, v any) { fmt.Fprintf(&b, "  %-34s %v\n", k, v) }
	row("planned (job × second)", r.Planned)
	row("fired on plan", r.Fired)
	row("fired outside plan", r.Outside)
	row("duplicates (executor)", r.Duplicates)
	row("duplicates (xxl_job_log)", logs.Duplicates)
	row("fires no planned second was left for", r.Unpaired)
	row("log rows", logRows)
	row("log rows sharing a second", sameSecond)
	row("misses in the killed admin's seconds", r.MissesExcused)
	row("misses logged as misfired", r.MissesMisfired)
	row("misses elsewhere", fmt.Sprintf("%d (in xxl_job_log: %d)", r.MissesElsewhere, logs.MissesElsewhere))
	row("lateness p50 / p99 / max", fmt.Sprintf("%s / %s / %s", r.Lateness.P50, r.Lateness.P99, r.Lateness.Max))
	for i, a := range admins {
		committed := 0
		for _, x := range a.Rounds {
			if x.Committed {
				committed++
			}
		}
		row(fmt.Sprintf("admin %d rounds committed / lost", i+1), fmt.Sprintf("%d / %d (error lines %d)", committed, a.Conflicts, a.Errors))
	}
	row("killed admin's rounds after rejoin", committedAfter(admins[victim], rejoined))
	return b.String()
}
