package cluster

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/xxl-admin-go/xxl-admin-go/internal/testsupport/storetest"
)

const (
	// secondsEnv sets the measured run; 30 s by default to keep CI short.
	// The issue asks for 60 s: XXL_TEST_CLUSTER_SECONDS=60.
	secondsEnv = "XXL_TEST_CLUSTER_SECONDS"
	// dumpEnv names a directory to write fires, log rows and admin logs to.
	dumpEnv  = "XXL_TEST_CLUSTER_DUMP"
	admins   = 3
	jobCount = 300
	// startMargin puts the first fire after every admin's first round: the
	// schedule loop sleeps to a whole second ≥ 4 s after start (scheduler.md
	// §3.1), so fires planned earlier would be late (case B), fire off the
	// grid and restart FIX_RATE from a time with milliseconds. 8 s leaves
	// the admins 2 s to start; the first round then sees the jobs as due
	// within 5 s (case C) and keeps them aligned on whole seconds.
	startMargin = 8 * time.Second
	// lossWindow is how far after a kill fires may be missing: the killed
	// admin's ring held up to five seconds of pre-read fires (PRE_READ_MS,
	// §3.2), plus the second under way. Java loses the same.
	lossWindow = 6 * time.Second
	// maxPoolLag bounds how far before a kill fires may be missing: those
	// its ring had handed to its trigger pool but that were not sent yet
	// (see Executor.SendingSince).
	maxPoolLag = 10
	readyLimit = 30 * time.Second
	stopGrace  = 30 * time.Second
	// handoverLimit bounds the wait for an admin to take the schedule lock
	// over from another: the losers of a round retry every 5 s.
	handoverLimit = 30 * time.Second
)

// TestClusterProcesses runs three admin processes on one MariaDB database
// (subtest mysql) or PostgreSQL database (subtest postgres; each skipped
// when its suite is off) with 300 FIX_RATE 1 s jobs, SIGKILLs at a third and at two thirds of the
// run the admin holding the most queued fires (each restarted at once), and
// checks scheduler.md §14: the schedule lock lets exactly one admin push
// each planned fire, so no job fires twice in a second (counted directly
// per job and trigger second at the executor and in xxl_job_log), the only
// missing fires are those that sat in the killed admin's ring, and each
// kill did lose some (it hit an admin that held fires).
func TestClusterProcesses(t *testing.T) {
	for _, b := range []struct {
		name string
		url  func(testing.TB) (url, user, pass string)
	}{{"mysql", storetest.MySQLURL}, {"postgres", storetest.PostgresURL}} {
		t.Run(b.name, func(t *testing.T) {
			url, user, pass := b.url(t)
			if testing.Short() {
				t.Skip("real-clock test of a minute or so")
			}
			testClusterProcesses(t, url, user, pass)
		})
	}
}

func testClusterProcesses(t *testing.T, url, user, pass string) {
	Exclusive(t)
	run := 30 * time.Second
	if v, err := strconv.Atoi(os.Getenv(secondsEnv)); err == nil && v > 0 {
		run = time.Duration(v) * time.Second
	}
	ctx, cancel := context.WithTimeout(context.Background(), run+5*time.Minute)
	defer cancel()

	dir := t.TempDir()
	bin, err := BuildAdmin(ctx, dir)
	if err != nil {
		t.Fatal(err)
	}
	db, err := OpenDB(ctx, url, user, pass)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(db.Close)
	exec := StartExecutor()
	t.Cleanup(exec.Close)
	group, jobs, err := db.Seed(ctx, jobCount, exec.Address())
	if err != nil {
		t.Fatal(err)
	}
	first := time.Now().Truncate(time.Second).Add(startMargin)
	if err := db.Arm(ctx, group, first); err != nil {
		t.Fatal(err)
	}

	c := &fleet{t: t, bin: bin, url: url, user: user, pass: pass, dir: dir, index: map[string]int{}}
	t.Cleanup(c.killAll)
	for i := range admins {
		c.start(i)
	}

	// At a third and at two thirds of the run, kill the admin holding the
	// most queued fires (the one that just took the schedule lock over,
	// see WaitHandover) and restart it at once; every kill excuses the
	// fires due in the following lossWindow, and at least one must have lost some (below).
	var excused []Window
	var kills []kill
	for _, frac := range []int{1, 2} {
		at := first.Add(run * time.Duration(frac) / 3)
		if !sleepUntil(ctx, at) {
			t.Fatal("timed out")
		}
		// Search after the previous kill, among the admins alive now.
		from := at
		if n := len(kills); n > 0 && !kills[n-1].at.Add(time.Second).Before(from) {
			from = kills[n-1].at.Add(time.Second)
		}
		hctx, hcancel := context.WithTimeout(ctx, handoverLimit)
		token, sec, err := exec.WaitHandover(hctx, from, c.live()...)
		hcancel()
		if err != nil {
			t.Fatalf("kill at %s: %v", at.Format("15:04:05"), err)
		}
		victim := c.indexOf(token)
		killed := time.Now()
		c.kill(victim)
		kills = append(kills, kill{admin: victim, token: token, handover: sec, at: killed})
		c.start(victim)
	}
	end := first.Add(run)
	if !sleepUntil(ctx, end) {
		t.Fatal("timed out")
	}
	// Fires due before the stop signal are planned; the ring drain at stop
	// fires some later ones, which count as outside the plan.
	last := time.Now().Truncate(time.Second).Add(-time.Second)
	c.terminateAll()

	for i := range kills {
		kills[i].from = exec.SendingSince(kills[i].token, kills[i].at, maxPoolLag)
		excused = append(excused, Window{From: kills[i].from, To: kills[i].at.Add(lossWindow)})
	}
	fires, lookBack := LookBack(exec.Fires(), first)
	var misfires []Misfire
	for _, n := range c.logs {
		b, _ := os.ReadFile(n)
		misfires = append(misfires, OurMisfires(b)...)
	}
	misfired := MisfiredSlots(fires, misfires)
	res := AnalyzeWith(fires, jobs, 1, first, last, excused, misfired)
	sameSecond, logRows, err := db.LogDuplicates(ctx, group)
	if err != nil {
		t.Fatal(err)
	}
	logFires, err := db.LogFires(ctx, group)
	if err != nil {
		t.Fatal(err)
	}
	logFires, _ = LookBack(PlanLogs(logFires, fires), first)
	logRes := AnalyzeWith(logFires, jobs, 1, first, last, excused, misfired)
	if res.Overloaded {
		logRes = AnalyzeOverloaded(logFires, jobs, 1, first, last, excused, misfired)
	}
	if out := os.Getenv(dumpEnv); out != "" {
		if err := db.Dump(ctx, out, group, exec.Fires()); err != nil {
			t.Error(err)
		}
		for _, n := range c.logs {
			_ = os.WriteFile(filepath.Join(out, filepath.Base(n)), []byte(tail(n)), 0o644)
		}
	}
	t.Logf("cluster run %s, %d admins, %d jobs, kills at %s, %d fires a second late (look-back), %d misfires logged\n%s", run,
		admins, jobCount, windowsText(excused), lookBack, len(misfires), table(res, logRes, sameSecond, logRows))
	if res.Overloaded {
		t.Logf("overloaded run (lateness p99 %s, load average %s): a fire counted for a free planned second up to %d s before its trigger second",
			res.Lateness.P99, LoadAverage(), OverloadWindow)
	}
	if res.Duplicates != 0 || logRes.Duplicates != 0 {
		t.Errorf("duplicate fires: %d at the executor (%v), %d in xxl_job_log (%v); want none (scheduler.md §14); load average %s",
			res.Duplicates, res.DuplicateSlots, logRes.Duplicates, logRes.DuplicateSlots, LoadAverage())
	}
	if res.MissesElsewhere != 0 {
		t.Errorf("%d fires missing outside the kill windows, e.g. %v; only a killed admin's ring may be lost; load average %s",
			res.MissesElsewhere, res.Missed, LoadAverage())
	}
	if res.Fired == 0 {
		t.Error("nothing fired")
	}
	// A kill proves something only if it lost fires it held. WaitHandover
	// picks the admin that should hold the next seconds, but an admin
	// restarted by the previous kill can wake for a round and take them
	// (a PostgreSQL run in CI: the victim owned 2 seconds, the restarted
	// admin held the next 4), so one kill that hit nothing is logged and
	// the run must have at least one that hit.
	hit := 0
	for _, k := range kills {
		lost, held := k.effect(fires, jobs, c.tokensOf(k.token))
		t.Logf("kill of admin %d (%s) at %s, %.0f ms after it took over second %s: %d fires lost; the others held %v",
			k.admin, k.token, k.at.UTC().Format("15:04:05.000"), float64(k.at.Sub(time.Unix(k.handover, 0)).Milliseconds()),
			time.Unix(k.handover, 0).UTC().Format("15:04:05"), lost, held)
		if lost > 0 {
			hit++
		} else {
			t.Logf("the kill of admin %d at %s hit nothing: no fire was lost in the %s after it", k.admin,
				k.at.UTC().Format("15:04:05"), lossWindow)
		}
	}
	if hit == 0 {
		t.Errorf("none of the %d kills hit anything: no fire was lost in the %s after any", len(kills), lossWindow)
	}
}

// kill is one SIGKILL of the run.
type kill struct {
	admin    int
	token    string
	handover int64 // the second the victim had just taken over
	at       time.Time
	from     time.Time // the first second it was still sending
}

// effect counts the planned fires around the kill (from the first second
// the victim was still sending to lossWindow after it) that nobody fired:
// what the victim's ring and trigger pool held. held is what each other admin instance fired in
// those seconds.
func (k kill) effect(fires []Fire, jobs []int, others []string) (lost int, held map[string]int) {
	from, to := k.from.Unix(), k.at.Add(lossWindow).Unix()
	fired := map[Slot]bool{}
	held = map[string]int{}
	for _, f := range fires {
		if s := f.Second(); s >= from && s <= to {
			fired[Slot{JobID: f.JobID, Second: s}] = true
			if slices.Contains(others, f.Admin) {
				held[f.Admin]++
			}
		}
	}
	for _, id := range jobs {
		for s := from; s <= to; s++ {
			if !fired[Slot{JobID: id, Second: s}] {
				lost++
			}
		}
	}
	return lost, held
}

// fleet is the admin processes of the test. Every start gets an access
// token of its own, so each fire names the admin instance that sent it.
type fleet struct {
	t                    *testing.T
	bin                  string
	url, user, pass, dir string

	mu      sync.Mutex
	admins  [admins]*Admin
	starts  int
	logs    []string
	index   map[string]int // token → admin slot
	current [admins]string // the token of each slot's running admin
}

func (c *fleet) start(i int) {
	c.t.Helper()
	c.mu.Lock()
	c.starts++
	token := fmt.Sprintf("admin%d-%d", i, c.starts)
	c.index[token] = i
	c.current[i] = token
	name := filepath.Join(c.dir, token+".log")
	c.logs = append(c.logs, name)
	args := AdminArgs(c.url, c.user, c.pass, token)
	c.mu.Unlock()
	out, err := os.Create(name)
	if err != nil {
		c.t.Fatal(err)
	}
	c.t.Cleanup(func() { out.Close() })
	a, err := StartAdmin(c.bin, args, out, readyLimit)
	if err != nil {
		c.t.Fatalf("%v\n%s", err, tail(name))
	}
	c.mu.Lock()
	c.admins[i] = a
	c.mu.Unlock()
}

// live lists the tokens of the admins running now.
func (c *fleet) live() []string {
	c.mu.Lock()
	defer c.mu.Unlock()
	var out []string
	for tok, i := range c.index {
		if c.current[i] == tok {
			out = append(out, tok)
		}
	}
	return out
}

// indexOf is the admin slot a token was given to.
func (c *fleet) indexOf(token string) int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.index[token]
}

// tokensOf lists every token but the given one: the other instances.
func (c *fleet) tokensOf(not string) []string {
	c.mu.Lock()
	defer c.mu.Unlock()
	var out []string
	for tok := range c.index {
		if tok != not {
			out = append(out, tok)
		}
	}
	return out
}

func (c *fleet) kill(i int) {
	c.mu.Lock()
	a := c.admins[i]
	c.admins[i] = nil
	c.current[i] = ""
	c.mu.Unlock()
	if a != nil {
		a.Kill()
	}
}

// terminateAll stops every admin with SIGTERM at the same time, so that
// none of them picks up rounds the others gave up while stopping.
func (c *fleet) terminateAll() {
	c.mu.Lock()
	all := c.admins
	c.admins = [admins]*Admin{}
	c.mu.Unlock()
	var wg sync.WaitGroup
	for i, a := range all {
		if a == nil {
			continue
		}
		wg.Go(func() {
			if err := a.Terminate(stopGrace); err != nil {
				c.t.Errorf("admin %d: %v", i, err)
			}
		})
	}
	wg.Wait()
}

func (c *fleet) killAll() {
	c.mu.Lock()
	all := c.admins
	c.admins = [admins]*Admin{}
	c.mu.Unlock()
	for _, a := range all {
		if a != nil {
			a.Kill()
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

func tail(name string) string {
	b, _ := os.ReadFile(name)
	if len(b) > 400000 {
		b = b[len(b)-400000:]
	}
	return string(b)
}

func windowsText(ws []Window) string {
	var s []string
	for _, w := range ws {
		s = append(s, w.From.UTC().Format("15:04:05")+"…"+w.To.UTC().Format("15:04:05"))
	}
	return strings.Join(s, ", ")
}

func table(r, logs Result, sameSecond, logRows int) string {
	var b strings.Builder
	row := func(k string, v any) { fmt.Fprintf(&b, "  %-28s %v\n", k, v) }
	row("planned (job × second)", r.Planned)
	row("fired on plan", r.Fired)
	row("fired outside plan", r.Outside)
	row("fired off the plan's seconds", r.Unpaired)
	row("duplicates (executor)", r.Duplicates)
	row("duplicates (xxl_job_log)", logs.Duplicates)
	row("overloaded (late > 1 s)", r.Overloaded)
	row("log rows", logRows)
	row("log rows sharing a second", sameSecond)
	row("misses in kill windows", r.MissesExcused)
	row("misses logged as misfires", r.MissesMisfired)
	row("misses elsewhere", r.MissesElsewhere)
	row("lateness p50", r.Lateness.P50)
	row("lateness p99", r.Lateness.P99)
	row("lateness max", r.Lateness.Max)
	return b.String()
}
