package durable

import (
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"slices"
	"time"

	"github.com/xxl-admin-go/xxl-admin-go/compat/i18n"
	"github.com/xxl-admin-go/xxl-admin-go/compat/schema"
	"github.com/xxl-admin-go/xxl-admin-go/conformance/cluster"
	"github.com/xxl-admin-go/xxl-admin-go/internal/testsupport/fakeexec"
)

// Setup is one run's shape.
type Setup struct {
	Bin string
	// URLs are the admins' datasources, one per admin slot (the same URL
	// for a one-server cluster, a node's each on Galera).
	URLs       []string
	User, Pass string
	Generation schema.Generation
	Families   int
	Load       time.Duration // how long the parents fire
	Kills      int           // SIGKILLs during Load, at random moments
	// Workflows is how many workflows of wfShape start every second
	// beside the families (0: none; the admins run with workflows on
	// either way when it is not 0).
	Workflows int
	Lease     string // xxl.job.durable-triggers.lease
	// SettleAfter is xxl.job.durable-triggers.settle-after: short, so that
	// the rows killed admins left without a result are settled within the
	// run; "" keeps the admins' default and does not wait for them.
	SettleAfter string
	Extra       []string // more admin arguments
	Dir         string   // admin logs
	Logf        func(format string, args ...any)
}

// startMargin puts the parents' first fire after every admin's first
// schedule round (which comes 4–5 s after its start).
const startMargin = 8 * time.Second

// settleLimit bounds the wait for everything decided to be seen through
// once the parents stop: the longest takeover (a row being sent: lease +
// executor call limit, 13 s here), the settlers' grace and pass (about
// 20 s), the fail monitor's 10 s pass, a margin.
const settleLimit = 2 * time.Minute

// Run runs the load, kills admins at random moments (each restarted at
// once), stops the parents, waits until every decided child and retry is
// seen through, and counts.
func Run(ctx context.Context, db *cluster.DB, su Setup) (Figures, error) {
	exec := fakeexec.Start(fakeexec.Config{})
	defer exec.Close()
	load, err := Seed(ctx, db.Store, su.Families, exec.Address())
	if err != nil {
		return Figures{}, err
	}
	// The parents all fire at the start of each second; runs that take up
	// to 300 ms and children's /run answered within 400 ms spread their
	// children over the second, so that a kill at any moment finds some
	// decided, some being prepared, some in /run.
	// With workflows, a result finished while the only admin (SQLite) is
	// down waits for its restart, as a Java executor's does: dropped, it
	// would leave its log running and its workflow node waiting for ever.
	// Without them the load is what CI ran before workflows joined it.
	exec.Configure(fakeexec.Config{
		KeepCallbacks: su.Workflows > 0,
		Result: func(job int) int {
			if k := load.Kind(job); k == "F" || k == "X" {
				return 500
			}
			return 200
		},
		// A workflow node's run is shorter, so that a run of 10 nodes
		// (4 deep) ends in one to three seconds.
		RunTime: func(job int) time.Duration {
			if k := load.Kind(job); k == "W" || k == "X" {
				return time.Duration(rand.IntN(150)) * time.Millisecond
			}
			return time.Duration(rand.IntN(300)) * time.Millisecond
		},
		Delay: func(job int) time.Duration {
			if load.Kind(job) == "P" {
				return 0
			}
			return time.Duration(rand.IntN(400)) * time.Millisecond
		},
	})
	args := []string{"--xxl.job.durable-triggers.lease=" + su.Lease}
	if su.SettleAfter != "" {
		args = append(args, "--xxl.job.durable-triggers.settle-after="+su.SettleAfter)
	}
	if su.Workflows > 0 {
		args = append(args, "--xxl.job.workflows.enabled=true")
	}
	f := newFleet(su.Bin, su.URLs, su.User, su.Pass, su.Dir, exec, append(args, su.Extra...)...)
	defer f.killAll()
	for i := range su.URLs {
		if err := f.start(i); err != nil {
			return Figures{}, err
		}
	}
	// The workflow tables exist once an admin with workflows on started.
	var wfs *Workflows
	if su.Workflows > 0 {
		if wfs, err = SeedWorkflows(ctx, db.Store, load, su.Workflows); err != nil {
			return Figures{}, err
		}
	}
	first := time.Now().Truncate(time.Second).Add(startMargin)
	if err := load.Arm(ctx, db, first); err != nil {
		return Figures{}, err
	}
	if wfs != nil {
		if err := wfs.Arm(ctx, db, first); err != nil {
			return Figures{}, err
		}
	}
	end := first.Add(su.Load)
	for _, at := range killTimes(first, end, su.Kills) {
		if !sleepUntil(ctx, at) {
			return Figures{}, ctx.Err()
		}
		victim := rand.IntN(len(su.URLs))
		f.kill(victim)
		su.Logf("SIGKILLed admin %d at %s", victim, at.Format("15:04:05.000"))
		if err := f.start(victim); err != nil {
			return Figures{}, err
		}
	}
	if !sleepUntil(ctx, end) {
		return Figures{}, ctx.Err()
	}
	if err := load.Stop(ctx, db); err != nil {
		return Figures{}, err
	}
	if wfs != nil {
		if err := wfs.Stop(ctx, db); err != nil {
			return Figures{}, err
		}
	}
	if err := settle(ctx, db, exec, load, wfs, su.SettleAfter != "", su.Logf); err != nil {
		return Figures{}, err
	}
	rows, err := load.rows(ctx, db.SQL)
	if err != nil {
		return Figures{}, err
	}
	texts := i18n.Load("zh_CN")
	if su.Generation == schema.Gen3 {
		texts = i18n.LoadFor(3, "zh_CN")
	}
	fig := count(load, rows, exec.Ledger(), ">>>>>>>>>>>"+texts.Text("jobconf_trigger_type_retry")+"<<<<<<<<<<<")
	fig.Runs, fig.Kills, fig.TakenOver, fig.Settled = 1, su.Kills, map[string]int{}, map[string]int{}
	if wfs != nil {
		read, err := wfs.read(ctx, db.SQL, load.Group)
		if err != nil {
			return Figures{}, err
		}
		fig.Wf = countWorkflows(read, exec.Ledger(), func(job int) bool { _, ok := wfs.jobs[job]; return ok })
	}
	f.killAll()
	for _, name := range f.logFiles() {
		b, _ := os.ReadFile(name)
		takenOver(b, fig.TakenOver)
		settled(b, fig.Settled)
	}
	return fig, nil
}

// killTimes are n random moments between from and to, at least 2 s apart
// and 2 s from either end (an admin's restart takes about a second).
func killTimes(from, to time.Time, n int) []time.Time {
	span := to.Sub(from) - 4*time.Second
	for {
		var out []time.Time
		for range n {
			out = append(out, from.Add(2*time.Second+time.Duration(rand.Int64N(int64(span)))))
		}
		slices.SortFunc(out, func(a, b time.Time) int { return a.Compare(b) })
		ok := true
		for i := 1; i < len(out); i++ {
			ok = ok && out[i].Sub(out[i-1]) >= 2*time.Second
		}
		if ok || span < time.Duration(n)*2*time.Second {
			return out
		}
	}
}

// settle waits until nothing decided is left to see through: no pending
// row, no failed log waiting for the fail monitor, no run queued, running
// or waiting for its callback, with rows (when the admins settle them)
// none left without a result, and none of that changing for 3 s (a retry
// is decided a moment after its failed log is claimed).
func settle(ctx context.Context, db *cluster.DB, exec *fakeexec.Executor, load *Load, wfs *Workflows, rows bool, logf func(string, ...any)) error {
	start := time.Now()
	defer func() { logf("settled in %s", time.Since(start).Round(time.Second)) }()
	ctx, cancel := context.WithTimeout(ctx, settleLimit)
	defer cancel()
	// The parents' last fires leave the admins' rings and pools within
	// 5 s of the stop.
	if !sleepUntil(ctx, time.Now().Add(6*time.Second)) {
		return ctx.Err()
	}
	var last string
	stable := 0
	for {
		idle := func() bool {
			c, cancel := context.WithTimeout(ctx, 10*time.Millisecond)
			defer cancel()
			return exec.WaitIdle(c)
		}()
		pending, err := pendingCount(ctx, db.SQL)
		if err != nil {
			return err
		}
		var waiting, total, open int
		err = db.SQL.QueryRowContext(ctx, fmt.Sprintf("SELECT COUNT(*), COALESCE(SUM(CASE WHEN alarm_status = 0 AND "+
			"NOT ((trigger_code IN (0, 200) AND handle_code = 0) OR handle_code = 200) THEN 1 ELSE 0 END), 0), "+
			"COALESCE(SUM(CASE WHEN trigger_code = 0 AND handle_code = 0 THEN 1 ELSE 0 END), 0) "+
			"FROM xxl_job_log WHERE job_group = %d", load.Group)).Scan(&total, &waiting, &open)
		if err != nil {
			return fmt.Errorf("settle: %w", err)
		}
		if !rows {
			open = 0
		}
		wfOpen := 0
		if wfs != nil {
			if wfOpen, err = wfs.openRuns(ctx, db.SQL); err != nil {
				return err
			}
		}
		state := fmt.Sprintf("pending %d, failed logs waiting %d, rows %d (without a result %d), runs %d, executor idle %v, workflow runs open %d",
			pending, waiting, total, open, len(exec.Ledger()), idle, wfOpen)
		if pending == 0 && waiting == 0 && open == 0 && wfOpen == 0 && idle && state == last {
			stable++
		} else {
			stable = 0
		}
		if stable >= 3 {
			return nil
		}
		if last != state && time.Since(start) > 20*time.Second {
			logf("settling: %s", state)
		}
		last = state
		if !sleepUntil(ctx, time.Now().Add(time.Second)) {
			dump := ""
			if wfs != nil && wfOpen > 0 {
				dump = wfs.dumpOpen(context.WithoutCancel(ctx), db.SQL, exec.Ledger())
			}
			return fmt.Errorf("not settled after %s: %s%s", settleLimit, state, dump)
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
