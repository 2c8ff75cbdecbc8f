package mixed

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/xxl-admin-go/xxl-admin-go/compat/schema"
	"github.com/xxl-admin-go/xxl-admin-go/conformance/cluster"
	"github.com/xxl-admin-go/xxl-admin-go/conformance/javaadmin"
	"github.com/xxl-admin-go/xxl-admin-go/conformance/mailbox"
	"github.com/xxl-admin-go/xxl-admin-go/internal/testsupport/storetest"
)

const (
	// phaseEnv sets how long each phase runs (seconds); 8 by default to
	// keep CI short. The figures in docs/migration.md come from 20.
	phaseEnv = "XXL_TEST_MIXED_PHASE_SECONDS"
	// dumpEnv names a directory for the fires and Java's ring pushes.
	dumpEnv  = "XXL_TEST_MIXED_DUMP"
	gridJobs = 300
	// startMargin puts the first planned fire after our admin's first
	// round (it sleeps to a whole second ≥ 4 s after start, §3.1).
	startMargin = 7 * time.Second
	// lossWindow: a killed admin's ring holds at most the five seconds a
	// round reads ahead, plus the second under way.
	lossWindow = 6 * time.Second
	// callbackDrain is how long callbacks stay away from an admin before
	// it is killed: a parent's result is stored at once, its child trigger
	// waits in the admin's trigger pool, which a kill empties.
	callbackDrain = 3 * time.Second
	// stopLag is how long before the final stop the plan ends.
	stopLag       = 5 * time.Second
	javaReady     = 120 * time.Second
	oursReady     = 30 * time.Second
	handoverLimit = 40 * time.Second
)

// generation is the Java admin release a mixed cluster runs with, and how
// both admins and the executor are set up for it; the cluster, the kills
// and every check are the same.
type generation struct {
	name    string
	require func(testing.TB) string // the jar, or a [suite-off] skip
	// create is the schema the database is created as: our admin behaves
	// as the generation the database holds.
	create schema.Generation
	// contextPath is where both admins serve: the executors' admin
	// address is the base URL with it (3.4.1 on: without one).
	contextPath string
	readyPath   string // "" for javaadmin's 2.4.2 default
	// scheduler is the Java logger whose debug lines name every ring push.
	scheduler string
	// executorOK is the fake executor's success body.
	executorOK string
}

var (
	gen242 = generation{name: "2.4.2", require: javaadmin.Require, create: schema.Gen2,
		contextPath: javaadmin.ContextPath, scheduler: "com.xxl.job.admin.core.thread.JobScheduleHelper",
		executorOK: cluster.Success242}
	gen342 = generation{name: "3.4.2", require: javaadmin.Require342, create: schema.Gen3,
		readyPath: javaadmin.ReadyPath342, scheduler: "com.xxl.job.admin.business.scheduler.thread.JobScheduleHelper",
		executorOK: cluster.Success342}
)

// TestMixedCluster runs the Java admin 2.4.2 and ours on one MariaDB
// database with 300 FIX_RATE 1 s jobs and six CRON jobs, and a fake
// executor: both admins take turns on schedule_lock; the Java admin is
// SIGKILLed while it holds read-ahead fires and restarted, then ours is
// SIGKILLed the same way and Java carries on alone. Checked per job and
// planned second (scheduler.md §3, §14):
//   - no second fire anywhere, at the executor and in xxl_job_log;
//   - no miss outside the seconds after a kill, and every miss after a kill
//     was held by the killed admin: for Java, a push its own debug log
//     shows; for ours, a second read ahead before the kill (the rows'
//     trigger_next_time) that Java did not push; and each kill lost some;
//   - child jobs, retries and alarms across the two admins: each parent
//     success fires one child, each failed log gets one retry and one alarm
//     mail, whichever admin took the callback or the failed row.
func TestMixedCluster(t *testing.T) { mixedCluster(t, gen242) }

// TestMixedCluster342 is TestMixedCluster with the Java admin 3.4.2 on a
// 3.x database (its tables, created by ours as spec/schema-3.4.2.sql
// makes them), both admins at the root context path, the executor
// answering as a 3.4.2 executor. The same checks hold: 3.4.2 also takes
// schedule_lock with SELECT … FOR UPDATE, batches its trigger_next_time
// updates inside that transaction and looks two ring slots back.
func TestMixedCluster342(t *testing.T) { mixedCluster(t, gen342) }

func mixedCluster(t *testing.T, g generation) {
	jar := g.require(t)
	url, user, pass := storetest.MySQLURLZone(t, javaadmin.Zone)
	url += "&useUnicode=true&characterEncoding=UTF-8"
	cluster.Exclusive(t)
	phase := 8 * time.Second
	if v, err := strconv.Atoi(os.Getenv(phaseEnv)); err == nil && v > 0 {
		phase = time.Duration(v) * time.Second
	}
	ctx, cancel := context.WithTimeout(context.Background(), 8*time.Minute)
	defer cancel()
	loc, err := time.LoadLocation(javaadmin.Zone)
	if err != nil {
		t.Fatal(err)
	}

	dir := t.TempDir()
	bin, err := cluster.BuildAdmin(ctx, dir)
	if err != nil {
		t.Fatal(err)
	}
	db, err := cluster.OpenDBAs(ctx, url, user, pass, g.create)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(db.Close)
	exec := cluster.StartExecutorAnswering(g.executorOK)
	t.Cleanup(exec.Close)
	mail, err := mailbox.Start()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(mail.Close)
	group, grid, err := db.Seed(ctx, gridJobs, exec.Address())
	if err != nil {
		t.Fatal(err)
	}
	x, err := seedExtra(ctx, db, group, exec.Address())
	if err != nil {
		t.Fatal(err)
	}
	exec.SetMode(x.parent, cluster.CallbackSuccess)
	exec.SetMode(x.retryRun, cluster.RunFail)
	exec.SetMode(x.retryCallback, cluster.CallbackFail)

	m := &mix{t: t, ctx: ctx, gen: g, dir: dir, loc: loc, mail: mail.Args(), jar: jar, bin: bin, url: url, user: user, pass: pass}
	t.Cleanup(m.killAll)
	t.Cleanup(func() {
		if t.Failed() {
			m.dumpLogs()
		}
	})
	ours1 := m.start("ours", 1, oursReady)
	first := time.Now().Truncate(time.Second).Add(startMargin)
	if err := arm(ctx, db, group, x, first); err != nil {
		t.Fatal(err)
	}
	java1 := m.start("java", 1, javaReady)
	exec.SetAdmins([]cluster.Endpoint{ours1.endpoint(), java1.endpoint()})

	// Phase 1: both admins share the schedule; then Java is killed right
	// after it took the schedule lock over.
	phase1 := m.waitOwner(exec, java1, time.Now())
	sleepUntil(ctx, phase1.Add(phase))
	// No result may die with Java: callbacks go elsewhere, and the child
	// triggers of those it took get time to leave its pool.
	exec.SetAdmins([]cluster.Endpoint{ours1.endpoint()})
	sleepUntil(ctx, time.Now().Add(callbackDrain))
	kill1 := m.killHolding(java1, java1, db)

	// Phase 2: Java restarted; both again; then ours is killed the same way.
	java2 := m.start("java", 2, javaReady)
	exec.SetAdmins([]cluster.Endpoint{ours1.endpoint(), java2.endpoint()})
	phase2 := m.waitOwner(exec, java2, time.Now())
	sleepUntil(ctx, phase2.Add(phase))
	exec.SetAdmins([]cluster.Endpoint{java2.endpoint()})
	sleepUntil(ctx, time.Now().Add(callbackDrain))
	kill2 := m.killHolding(ours1, java2, db)

	// Phase 3: Java alone. New failures stop first, so that every failed
	// row has met a fail-monitor pass (every 10 s) before the end.
	sleepUntil(ctx, time.Now().Add(phase/2))
	exec.SetMode(x.retryRun, cluster.Record)
	exec.SetMode(x.retryCallback, cluster.Record)
	failuresEnd := time.Now()
	sleepUntil(ctx, time.Now().Add(max(phase/2, 14*time.Second)))
	exec.SetAdmins(nil)
	sleepUntil(ctx, time.Now().Add(2*time.Second)) // callbacks in flight land
	// The Java admin drops what its trigger pool holds when it stops, and
	// on a busy machine that pool runs seconds behind its ring: the plan
	// ends stopLag before the stop.
	last := time.Now().Truncate(time.Second).Add(-time.Second - stopLag)
	if err := java2.admin.Stop(); err != nil {
		t.Errorf("java admin stop: %v", err)
	}

	// Java's trigger pool runs a second's fires late under this load (10
	// threads): its fires take their planned second from its own ring
	// pushes; ours keep the second our ring fired them in.
	fires := exec.Fires()
	fires = Plan(fires, java1.token, java1.pushes.Pushes())
	fires = Plan(fires, java2.token, java2.pushes.Pushes())
	fires, lookBack := cluster.LookBack(fires, first)
	kill2.sending = exec.SendingSince(ours1.token, kill2.at, maxPoolLag)
	windows := []cluster.Window{kill1.window(), kill2.window()}
	every := append(slices.Clone(grid), x.everySecond...)
	even := first
	if even.Unix()%2 != 0 {
		even = even.Add(time.Second)
	}
	misfires := append(java1.pushes.Misfires(), java2.pushes.Misfires()...)
	oursLog, err := os.ReadFile(ours1.logFile)
	if err != nil {
		t.Fatal(err)
	}
	misfires = append(misfires, cluster.OurMisfires(oursLog)...)
	misfired := cluster.MisfiredSlots(fires, misfires)
	// A planned fire the Java admin pushed into its ring and never sent
	// while it lived was lost inside it: on a busy machine its trigger
	// pool (10 threads, a queue of 1,000) refuses the rest of a second's
	// batch or runs past the stop (the reference README). Ours is held to
	// every fire it pushed.
	javaPushed := map[cluster.Slot]bool{}
	for _, p := range append(java1.pushes.Pushes(), java2.pushes.Pushes()...) {
		javaPushed[cluster.Slot{JobID: p.JobID, Second: p.Second}] = true
	}
	why := map[cluster.Slot]string{} // excused misses, by reason
	excuse := func(sl cluster.Slot) bool {
		switch {
		case misfired(sl):
			why[sl] = "misfire"
		case javaPushed[sl]:
			why[sl] = "java"
		default:
			return false
		}
		return true
	}
	res := cluster.AnalyzeWith(only(fires, every), every, 1, first, last, windows, excuse)
	resEven := cluster.AnalyzeWith(only(fires, x.evenSeconds), x.evenSeconds, 2, even, last, windows, excuse)
	var lostInJava, lostMisfired int
	for _, w := range why {
		if w == "java" {
			lostInJava++
		} else {
			lostMisfired++
		}
	}
	logFires, err := db.LogFires(ctx, group)
	if err != nil {
		t.Fatal(err)
	}
	logFires, _ = cluster.LookBack(cluster.PlanLogs(logFires, fires), first)
	analyzeLogs := cluster.AnalyzeWith
	if res.Overloaded || resEven.Overloaded {
		analyzeLogs = cluster.AnalyzeOverloaded // as the executor's fires were
	}
	logRes := analyzeLogs(only(logFires, every), every, 1, first, last, windows, misfired)
	logEven := analyzeLogs(only(logFires, x.evenSeconds), x.evenSeconds, 2, even, last, windows, misfired)
	t.Logf("mixed run with java %s: first %s, last %s, %d jobs on the plan\n%s", g.name, clock(first), clock(last), len(every)+len(x.evenSeconds),
		table(res, resEven, logRes, logEven, len(logFires)))
	t.Logf("fires per admin and phase: %s", m.turns(fires, []span{
		{"both (1)", first, kill1.at}, {"ours alone", kill1.at, m.readyAt(java2)}, {"both (2)", m.readyAt(java2), kill2.at},
		{"java alone", kill2.at, last.Add(time.Second)}}))
	if res.Overloaded || resEven.Overloaded {
		t.Logf("overloaded run (lateness p99 %s, load average %s): a fire of ours counted for a free planned second up to %d s before its trigger second",
			res.Lateness.P99, cluster.LoadAverage(), cluster.OverloadWindow)
	}
	if n := res.Duplicates + resEven.Duplicates + logRes.Duplicates + logEven.Duplicates; n != 0 {
		t.Errorf("duplicate fires: executor %v %v, xxl_job_log %v %v; want none (scheduler.md §14); load average %s",
			res.DuplicateSlots, resEven.DuplicateSlots, logRes.DuplicateSlots, logEven.DuplicateSlots, cluster.LoadAverage())
	}
	if res.MissesElsewhere+resEven.MissesElsewhere != 0 {
		t.Errorf("fires missing outside the kill windows: %v %v; only a killed admin's ring may be lost; load average %s",
			res.Missed, resEven.Missed, cluster.LoadAverage())
	}
	if lookBack > 0 {
		t.Logf("%d fires came from late ring ticks that also took the second before (look-back, scheduler.md §3.3)", lookBack)
	}
	if len(misfires) > 0 || lostInJava > 0 {
		t.Logf("counted apart: %d planned fires skipped by %d misfires the admins logged (rounds more than 5 s late: an overloaded machine), %d lost inside the Java admin (pushed by it, never sent)",
			lostMisfired, len(misfires), lostInJava)
	}
	plan := planOf(every, x.evenSeconds)
	m.checkJavaKill(kill1, java1.pushes.Pushes(), fires, plan, misfired)
	m.checkOursKill(kill2, java2.pushes.Pushes(), fires, plan, misfired)
	checkCompletion(ctx, t, db, x, exec, mail, failuresEnd, []killOf{kill1, kill2})
	if dir := os.Getenv(dumpEnv); dir != "" {
		if err := dump(dir, fires, map[string][]Push{java1.token: java1.pushes.Pushes(), java2.token: java2.pushes.Pushes()}); err != nil {
			t.Error(err)
		}
		for _, n := range m.nodes {
			if b, err := os.ReadFile(n.logFile); err == nil {
				_ = os.WriteFile(filepath.Join(dir, n.token+".log"), b, 0o644)
			}
		}
	}
}

// dump writes the fires and the Java pushes as tab-separated files.
func dump(dir string, fires []cluster.Fire, pushes map[string][]Push) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	var b strings.Builder
	for _, f := range fires {
		fmt.Fprintf(&b, "%d\t%d\t%s\t%s\t%s\t%d\n", f.JobID, f.LogID, f.At.UTC().Format("15:04:05.000"),
			f.Trigger.UTC().Format("15:04:05.000"), f.Admin, f.Planned%100)
	}
	if err := os.WriteFile(filepath.Join(dir, "fires.tsv"), []byte(b.String()), 0o644); err != nil {
		return err
	}
	for tok, ps := range pushes {
		b.Reset()
		for _, p := range ps {
			fmt.Fprintf(&b, "%d\t%d\t%s\n", p.JobID, p.Second%100, p.At.UTC().Format("15:04:05.000"))
		}
		if err := os.WriteFile(filepath.Join(dir, "pushes-"+tok+".tsv"), []byte(b.String()), 0o644); err != nil {
			return err
		}
	}
	return nil
}

// mix is the admin processes of the test.
type mix struct {
	t               *testing.T
	ctx             context.Context
	gen             generation
	dir             string
	loc             *time.Location
	mail            []string
	jar, bin        string
	url, user, pass string
	mu              sync.Mutex
	nodes           []*node
}

// node is one admin instance; its token names it in every fire.
type node struct {
	kind, token string
	contextPath string
	admin       *javaadmin.Admin
	pushes      *PushLog // Java only
	logFile     string
	ready       time.Time
}

func (n *node) endpoint() cluster.Endpoint {
	return cluster.Endpoint{URL: n.admin.BaseURL + n.contextPath, Token: n.token}
}

func (m *mix) start(kind string, nth int, ready time.Duration) *node {
	m.t.Helper()
	n := &node{kind: kind, token: fmt.Sprintf("%s-%d", kind, nth), contextPath: m.gen.contextPath}
	work := filepath.Join(m.dir, n.token)
	if err := os.MkdirAll(work, 0o755); err != nil {
		m.t.Fatal(err)
	}
	n.logFile = filepath.Join(work, "admin.log")
	f, err := os.Create(n.logFile)
	if err != nil {
		m.t.Fatal(err)
	}
	m.t.Cleanup(func() { f.Close() })
	var target javaadmin.Target = javaadmin.Ours{Bin: m.bin}
	var out io.Writer = f
	if kind == "java" {
		target = javaadmin.Java{Jar: m.jar, DebugLoggers: []string{m.gen.scheduler}}
		n.pushes = NewPushLog(f, m.loc)
		out = n.pushes
	}
	a, err := javaadmin.Start(m.ctx, target, javaadmin.Settings{DatasourceURL: m.url, User: m.user, Password: m.pass,
		AccessToken: n.token, Mail: m.mail, WorkDir: work, ReadyPath: m.gen.readyPath}, out, ready)
	if err != nil {
		m.t.Fatalf("%v\n%s", err, tail(n.logFile, 40))
	}
	n.admin, n.ready = a, time.Now()
	m.mu.Lock()
	m.nodes = append(m.nodes, n)
	m.mu.Unlock()
	return n
}

func (m *mix) readyAt(n *node) time.Time { return n.ready }

// waitOwner waits until n has fired a whole second of the schedule at or
// after from, and returns that second.
func (m *mix) waitOwner(exec *cluster.Executor, n *node, from time.Time) time.Time {
	m.t.Helper()
	deadline := time.Now().Add(handoverLimit)
	for sec := from.Unix(); time.Now().Before(deadline); {
		if sec < time.Now().Unix() {
			if exec.Owner(sec) == n.token {
				return time.Unix(sec, 0)
			}
			sec++
			continue
		}
		sleepUntil(m.ctx, time.Now().Add(100*time.Millisecond))
	}
	m.t.Fatalf("%s fired nothing within %s", n.token, handoverLimit)
	return time.Time{}
}

// killOf is one SIGKILL and what the rows said right after it.
type killOf struct {
	node *node
	at   time.Time
	held int           // of the next four seconds, how many the victim had pushed
	next map[int]int64 // trigger_next_time by job, read after the kill
	// sending is the first second ours was still sending when killed (its
	// trigger pool's backlog, see cluster.Executor.SendingSince).
	sending time.Time
}

// window is where the kill may have lost fires: the victim's ring held
// the seconds read ahead (to lossWindow after the kill); its trigger pool
// held seconds already fired by its ring but not yet sent (Java's queue
// runs up to maxPoolLag behind, ours a moment).
func (k killOf) window() cluster.Window {
	from := k.sending
	if k.node.kind == "java" {
		from = k.at.Truncate(time.Second).Add(-maxPoolLag * time.Second)
	}
	return cluster.Window{From: from, To: k.at.Add(lossWindow)}
}

// killHolding SIGKILLs victim once its ring holds at least three of the
// next four seconds of fires (after half of handoverLimit, at least one),
// and reads every job's next fire time. The Java admin's debug log names
// every second it pushed; a second it did not push was pushed by ours, the
// only other admin. The next four seconds were pushed by the rounds of the
// four seconds before.
func (m *mix) killHolding(victim, java *node, db *cluster.DB) killOf {
	m.t.Helper()
	start := time.Now()
	for time.Since(start) < handoverLimit {
		now := time.Now()
		sec := now.Unix()
		want := 3
		if time.Since(start) > handoverLimit/2 {
			want = 1
		}
		if now.Sub(time.Unix(sec, 0)) >= 100*time.Millisecond {
			byJava := 0
			for s := sec + 1; s <= sec+4; s++ {
				if java.pushes.Pushed(s) > 0 {
					byJava++
				}
			}
			held := byJava
			if victim.kind == "ours" {
				held = 4 - byJava
			}
			if held >= want {
				victim.admin.Kill()
				next, err := nextTimes(m.ctx, db)
				if err != nil {
					m.t.Fatal(err)
				}
				return killOf{node: victim, at: now, held: held, next: next}
			}
		}
		sleepUntil(m.ctx, time.Now().Add(50*time.Millisecond))
	}
	m.t.Fatalf("%s never held any of the next four seconds within %s", victim.token, handoverLimit)
	return killOf{}
}

// plan tells whether a job has a planned fire in a second.
type plan map[int]int64 // job → step in seconds

func planOf(every, even []int) plan {
	p := plan{}
	for _, id := range every {
		p[id] = 1
	}
	for _, id := range even {
		p[id] = 2
	}
	return p
}

// lostAfter lists the planned fires of a kill's window that nobody fired.
func lostAfter(k killOf, fires []cluster.Fire, p plan) map[cluster.Slot]bool {
	w := k.window()
	from, to := w.From.Unix(), w.To.Unix()
	fired := map[cluster.Slot]bool{}
	for _, f := range fires {
		fired[cluster.Slot{JobID: f.JobID, Second: f.Second()}] = true
	}
	lost := map[cluster.Slot]bool{}
	for id, step := range p {
		for s := from; s <= to; s++ {
			if s%step == 0 && !fired[cluster.Slot{JobID: id, Second: s}] {
				lost[cluster.Slot{JobID: id, Second: s}] = true
			}
		}
	}
	return lost
}

// checkJavaKill: every fire lost around Java's kill is one its debug log
// shows it pushed into its ring (it died in the ring or in the trigger
// pool), and it held some.
func (m *mix) checkJavaKill(k killOf, pushes []Push, fires []cluster.Fire, p plan, misfired func(cluster.Slot) bool) {
	t := m.t
	held := map[cluster.Slot]bool{}
	w := k.window()
	for _, ps := range pushes {
		if _, planned := p[ps.JobID]; planned && ps.Second >= w.From.Unix() && ps.At.Before(k.at) {
			held[cluster.Slot{JobID: ps.JobID, Second: ps.Second}] = true
		}
	}
	lost := lostAfter(k, fires, p)
	var notHeld []cluster.Slot
	for s := range lost {
		if !held[s] && !misfired(s) {
			notHeld = append(notHeld, s)
		}
	}
	inRing, inPool := 0, 0
	for s := range lost {
		if s.Second > k.at.Unix() {
			inRing++
		} else {
			inPool++
		}
	}
	t.Logf("java killed at %s holding %d of the next 4 seconds: %d fires lost, all pushed by it: %d for seconds after the kill (its ring), %d for earlier ones (its trigger pool's queue)",
		clock(k.at), k.held, len(lost), inRing, inPool)
	if len(lost) == 0 {
		t.Errorf("the kill of java at %s hit nothing: no fire lost after it", clock(k.at))
	}
	if len(notHeld) > 0 {
		t.Errorf("%d fires lost after java's kill that java never pushed, e.g. %v", len(notHeld), first(notHeld))
	}
}

// checkOursKill: every fire lost after our kill was read ahead before it
// (its job's trigger_next_time had passed it) and not pushed by Java, so it
// sat in our ring; and ours held some.
func (m *mix) checkOursKill(k killOf, javaPushes []Push, fires []cluster.Fire, p plan, misfired func(cluster.Slot) bool) {
	t := m.t
	javaHeld := map[cluster.Slot]bool{}
	for _, ps := range javaPushes {
		javaHeld[cluster.Slot{JobID: ps.JobID, Second: ps.Second}] = true
	}
	lost := lostAfter(k, fires, p)
	var bad []cluster.Slot
	for s := range lost {
		if (javaHeld[s] || s.Second*1000 >= k.next[s.JobID]) && !misfired(s) {
			bad = append(bad, s)
		}
	}
	t.Logf("ours killed at %s holding %d of the next 4 seconds: %d fires lost, %d of them read ahead by it and not pushed by java",
		clock(k.at), k.held, len(lost), len(lost)-len(bad))
	if len(lost) == 0 {
		t.Errorf("the kill of ours at %s hit nothing: no fire lost after it", clock(k.at))
	}
	if len(bad) > 0 {
		t.Errorf("%d fires lost after our kill that ours did not hold (pushed by java, or not yet read ahead), e.g. %v",
			len(bad), first(bad))
	}
}

// checkCompletion: each parent success fired one child; each failed log
// got one alarm mail and, with a retry left, one retry; callbacks and
// failed rows were taken by both admins. Rows left claimed (alarm_status
// -1 or -2) by a killed admin are reported, not counted; so are rows a
// killed admin's trigger flow had inserted and not finished (trigger_code
// and handle_code 0, triggered in the seconds up to the kill): both
// admins insert the row before the /run and write the trigger's result
// after it, and neither generation's monitors ever close such a row (the
// lost monitor takes trigger_code 200 only, scheduler.md §10).
func checkCompletion(ctx context.Context, t *testing.T, db *cluster.DB, x extra, exec *cluster.Executor, mail *mailbox.Server,
	failuresEnd time.Time, kills []killOf) {
	rows, err := logRows(ctx, db, x.group)
	if err != nil {
		t.Fatal(err)
	}
	var parentOK, children, failed, claimed, unfinished, retries, retried int
	mails := mailbox.ByLogID(mail.Messages())
	var twice, none []logRow
	inFlightAtKill := func(r logRow) bool {
		for _, k := range kills {
			from := k.at.Truncate(time.Second).Add(-maxPoolLag * time.Second)
			if r.trigger == 0 && r.hdl == 0 && !r.triggerTime.Before(from) && !r.triggerTime.After(k.at) {
				return true
			}
		}
		return false
	}
	for _, r := range rows {
		switch {
		case r.jobID == x.parent && r.hdl == 200:
			parentOK++
		case r.jobID == x.child:
			children++
		case r.jobID == x.retryRun || r.jobID == x.retryCallback:
			if r.retry == 0 {
				retries++
			}
			if r.trigger == 200 && r.hdl != 500 {
				continue // a run after the failures stopped
			}
			failed++
			switch {
			case r.alarm == -1 || r.alarm == -2:
				claimed++
				continue
			case inFlightAtKill(r):
				unfinished++
				continue
			case r.retry == 1:
				retried++
			}
			switch mails[r.id] {
			case 1:
			case 0:
				none = append(none, r)
			default:
				twice = append(twice, r)
			}
		}
	}
	byAdmin := map[string]int{}
	for _, f := range exec.Fires() {
		if f.JobID == x.child || (f.JobID == x.retryRun || f.JobID == x.retryCallback) {
			byAdmin[strings.SplitN(f.Admin, "-", 2)[0]]++
		}
	}
	t.Logf("completion: %d parent successes, %d child runs; %d failed logs (before %s), %d retried, %d retry rows, %d alarm mails, %d left claimed by a killed admin, %d left unfinished by its trigger flow; callbacks taken %v; child and retry-job fires by admin %v",
		parentOK, children, failed, clock(failuresEnd), retried, retries, len(mail.Messages()), claimed, unfinished, exec.Callbacks(), byAdmin)
	if parentOK == 0 || children != parentOK {
		t.Errorf("%d child runs for %d parent successes; want one each (scheduler.md §7)", children, parentOK)
	}
	if failed == 0 || len(none) > 0 || len(twice) > 0 {
		t.Errorf("alarms: %d failed logs; none for %v, more than one for %v; want one each (§8)", failed, none, twice)
	}
	if retries != retried {
		t.Errorf("%d retry rows for %d failed logs with a retry left; want one each (§8)", retries, retried)
	}
	cb := exec.Callbacks()
	var admins []string
	for tok, n := range cb {
		if n > 0 {
			admins = append(admins, strings.SplitN(tok, "-", 2)[0])
		}
	}
	if !slices.Contains(admins, "java") || !slices.Contains(admins, "ours") {
		t.Errorf("callbacks were taken by %v; the test wants both admins to take some", cb)
	}
}

// span is a named stretch of the run.
type span struct {
	name     string
	from, to time.Time
}

// turns counts fires per admin kind in each span: both must fire while
// both run.
func (m *mix) turns(fires []cluster.Fire, spans []span) string {
	var b strings.Builder
	for _, s := range spans {
		n := map[string]int{}
		for _, f := range fires {
			if f.Trigger.After(s.from) && f.Trigger.Before(s.to) {
				n[strings.SplitN(f.Admin, "-", 2)[0]]++
			}
		}
		fmt.Fprintf(&b, "%s %s…%s java %d ours %d; ", s.name, clock(s.from), clock(s.to), n["java"], n["ours"])
		if strings.HasPrefix(s.name, "both") && (n["java"] == 0 || n["ours"] == 0) {
			m.t.Errorf("%s: the admins did not take turns (java %d, ours %d fires)", s.name, n["java"], n["ours"])
		}
	}
	return b.String()
}

func (m *mix) killAll() {
	m.mu.Lock()
	defer m.mu.Unlock()
	for _, n := range m.nodes {
		n.admin.Kill()
	}
}

func (m *mix) dumpLogs() {
	m.mu.Lock()
	defer m.mu.Unlock()
	for _, n := range m.nodes {
		m.t.Logf("%s output (tail):\n%s", n.token, tail(n.logFile, 30))
	}
}

func sleepUntil(ctx context.Context, at time.Time) {
	t := time.NewTimer(time.Until(at))
	defer t.Stop()
	select {
	case <-t.C:
	case <-ctx.Done():
	}
}

func clock(t time.Time) string { return t.UTC().Format("15:04:05.000") }

func first(s []cluster.Slot) []cluster.Slot {
	slices.SortFunc(s, func(a, b cluster.Slot) int { return int(a.Second-b.Second)*1000000 + a.JobID - b.JobID })
	return s[:min(len(s), 10)]
}

// tail returns the last n lines of a file without the ring-push debug
// lines.
func tail(name string, n int) string {
	b, _ := os.ReadFile(name)
	var keep []string
	for _, l := range strings.Split(string(b), "\n") {
		if !strings.Contains(l, pushMarker) && !strings.Contains(l, "time-ring beat") {
			keep = append(keep, l)
		}
	}
	if len(keep) > n {
		keep = keep[len(keep)-n:]
	}
	return strings.Join(keep, "\n")
}

// only keeps the fires of the given jobs.
func only(fires []cluster.Fire, jobs []int) []cluster.Fire {
	var out []cluster.Fire
	for _, f := range fires {
		if slices.Contains(jobs, f.JobID) {
			out = append(out, f)
		}
	}
	return out
}

func table(every, even, logEvery, logEven cluster.Result, rows int) string {
	var b strings.Builder
	row := func(k string, a, c any) { fmt.Fprintf(&b, "  %-30s %-10v %v\n", k, a, c) }
	row("", "1 s jobs", "2 s jobs")
	row("planned (job × second)", every.Planned, even.Planned)
	row("fired on plan", every.Fired, even.Fired)
	row("fired outside plan", every.Outside, even.Outside)
	row("duplicates (executor)", every.Duplicates, even.Duplicates)
	row("duplicates (xxl_job_log)", logEvery.Duplicates, logEven.Duplicates)
	row("overloaded (late > 1 s)", every.Overloaded, even.Overloaded)
	row("misses in kill windows", every.MissesExcused, even.MissesExcused)
	row("misses misfired / lost in Java", every.MissesMisfired, even.MissesMisfired)
	row("misses elsewhere", every.MissesElsewhere, even.MissesElsewhere)
	row("lateness p50", every.Lateness.P50, even.Lateness.P50)
	row("lateness p99", every.Lateness.P99, even.Lateness.P99)
	row("lateness max", every.Lateness.Max, even.Lateness.Max)
	fmt.Fprintf(&b, "  log rows %d\n", rows)
	return b.String()
}
