package main

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"runtime/pprof"
	"slices"
	"strconv"
	"time"

	"github.com/xxl-admin-go/xxl-admin-go/conformance/cluster"
)

const (
	// startMargin puts the first fire after the admin's first round (its
	// loop sleeps ≥ 4 s to a whole second, scheduler.md §3.1), keeping the
	// FIX_RATE grid on whole seconds.
	startMargin = 8 * time.Second
	// warmUp is left out of the steady part: the first round pre-reads
	// five seconds at once.
	warmUp    = 5 * time.Second
	noiseSpan = 3 * time.Second
	mib       = 1 << 20
)

// report is one JSON line of bench/out/sched-<N>.json.
type report struct {
	Jobs           int      `json:"jobs"`
	Seconds        int      `json:"seconds"`
	DB             string   `json:"db"`
	Mode           string   `json:"mode"` // process or inprocess
	AdminArgs      []string `json:"admin_args,omitempty"`
	SteadySeconds  int      `json:"steady_seconds"`
	TriggersPerSec float64  `json:"triggers_per_s"` // fires received per second over the steady part
	PerSecondMin   int      `json:"per_second_min"`
	PerSecondMax   int      `json:"per_second_max"`
	LatenessMs     struct {
		P50 float64 `json:"p50"`
		P99 float64 `json:"p99"`
		Max float64 `json:"max"`
	} `json:"lateness_ms"` // receipt − planned second, fires paired with their second
	Planned    int `json:"planned"`
	Fired      int `json:"fired_on_plan"`
	Missed     int `json:"missed"`
	Duplicates int `json:"duplicates_or_over_5s_late"`
	LogRows    int `json:"log_rows"`
	LogFailed  int `json:"log_rows_trigger_failed"` // trigger_code != 200 (e.g. pool full)
	// From the admin log: triggers refused by a full pool queue, and those
	// of them whose failed row could not even be queued for writing.
	PoolRejected      int `json:"pool_rejected"`
	RejectNotRecorded int `json:"pool_rejected_not_recorded"`

	CPUSeconds  float64 `json:"admin_cpu_s"`   // steady part
	CPUPercent  float64 `json:"admin_cpu_pct"` // of one core, steady part
	RSSMaxMiB   float64 `json:"rss_max_mib"`   // VmHWM
	RSSFinalMiB float64 `json:"rss_final_mib"` // VmRSS at the end of the steady part

	DBStatementsPerTrigger *float64         `json:"db_statements_per_trigger"` // null on SQLite (n/a)
	DBCounters             map[string]int64 `json:"db_counters_steady,omitempty"`
	DBNoiseQuestionsPerSec float64          `json:"db_noise_questions_per_s"` // other clients, before the run

	LoadAvgStart string `json:"loadavg_start"`
	LoadAvgEnd   string `json:"loadavg_end"`
	CPUs         int    `json:"cpus"`
	Note         string `json:"note,omitempty"`
}

func measure(ctx context.Context, o options, n int) (*report, error) {
	rep := &report{Jobs: n, Seconds: o.seconds, DB: o.db, Mode: "process", AdminArgs: o.extra, CPUs: runtime.NumCPU()}
	if o.inProcess {
		rep.Mode = "inprocess"
		rep.Note = "CPU, RSS include the fake executor and the harness"
	}
	dir := filepath.Join(o.tmp, strconv.Itoa(n))
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, err
	}
	if o.bin == "" && !o.inProcess {
		bin, err := cluster.BuildAdmin(ctx, o.tmp)
		if err != nil {
			return nil, err
		}
		o.bin = bin
	}
	d, err := newDatabase(ctx, o.db, dir)
	if err != nil {
		return nil, err
	}
	defer d.drop()
	db, err := cluster.OpenDB(ctx, d.url, d.user, d.pass)
	if err != nil {
		return nil, err
	}
	defer db.Close()
	exec := cluster.StartExecutor()
	defer exec.Close()
	group, ids, err := db.Seed(ctx, n, exec.Address())
	if err != nil {
		return nil, err
	}

	// Other clients of the server, measured while nothing of ours runs.
	q0, err := d.status(ctx)
	if err != nil {
		return nil, err
	}
	if !sleepUntil(ctx, time.Now().Add(noiseSpan)) {
		return nil, ctx.Err()
	}
	q1, err := d.status(ctx)
	if err != nil {
		return nil, err
	}
	rep.DBNoiseQuestionsPerSec = float64(q1["Questions"]-q0["Questions"]) / noiseSpan.Seconds()

	rep.LoadAvgStart = loadAvg()
	first := time.Now().Truncate(time.Second).Add(startMargin)
	if err := db.Arm(ctx, group, first); err != nil {
		return nil, err
	}
	args := append(cluster.AdminArgs(d.url, d.user, d.pass, "bench-token"), o.extra...)
	logPath := filepath.Join(dir, "admin.log")
	adm, err := startAdmin(o, args, logPath)
	if err != nil {
		return nil, err
	}
	stopped := false
	defer func() {
		if !stopped {
			_ = adm.stop()
		}
	}()
	fmt.Fprintf(os.Stderr, "benchsched: %d jobs, admin pid %d, first fire %s, log %s\n",
		n, adm.pid(), first.UTC().Format("15:04:05"), logPath)

	from := first.Add(warmUp)
	last := first.Add(time.Duration(o.seconds-1) * time.Second)
	if !sleepUntil(ctx, from) {
		return nil, ctx.Err()
	}
	s0, err := d.status(ctx)
	if err != nil {
		return nil, err
	}
	c0 := exec.Count()
	cpu0, err := cpuTime(adm.pid())
	if err != nil {
		return nil, err
	}
	var prof *os.File
	if o.cpuProfile != "" {
		if prof, err = os.Create(o.cpuProfile); err != nil {
			return nil, err
		}
		if err := pprof.StartCPUProfile(prof); err != nil {
			return nil, err
		}
	}
	end := last.Add(time.Second)
	if prof != nil {
		// Where the workers wait, halfway through: the CPU profile only
		// shows what runs.
		if !sleepUntil(ctx, from.Add(end.Sub(from)/2)) {
			return nil, ctx.Err()
		}
		if err := writeGoroutines(o.cpuProfile + ".goroutines.txt"); err != nil {
			return nil, err
		}
	}
	if !sleepUntil(ctx, end) {
		return nil, ctx.Err()
	}
	if prof != nil {
		pprof.StopCPUProfile()
		prof.Close()
	}
	s1, err := d.status(ctx)
	if err != nil {
		return nil, err
	}
	c1 := exec.Count()
	cpu1, err := cpuTime(adm.pid())
	if err != nil {
		return nil, err
	}
	rss, hwm, err := memory(adm.pid())
	if err != nil {
		return nil, err
	}
	rep.LoadAvgEnd = loadAvg()
	stopped = true
	if err := adm.stop(); err != nil {
		fmt.Fprintf(os.Stderr, "benchsched: stop: %v\n", err)
	}

	span := end.Sub(from)
	rep.SteadySeconds = int(span.Seconds())
	rep.CPUSeconds = (cpu1 - cpu0).Seconds()
	rep.CPUPercent = 100 * rep.CPUSeconds / span.Seconds()
	rep.RSSMaxMiB, rep.RSSFinalMiB = float64(hwm)/mib, float64(rss)/mib
	if d.server != nil {
		rep.DBCounters = delta(s0, s1)
		own := float64(rep.DBCounters["Questions"]) - rep.DBNoiseQuestionsPerSec*span.Seconds()
		if fired := c1 - c0; fired > 0 {
			per := own / float64(fired)
			rep.DBStatementsPerTrigger = &per
		}
	}

	fires := exec.Fires()
	per := cluster.PerSecond(fires, from, last)
	total := 0
	for _, c := range per {
		total += c
	}
	if len(per) > 0 {
		rep.TriggersPerSec = float64(total) / float64(len(per))
		rep.PerSecondMin, rep.PerSecondMax = slices.Min(per), slices.Max(per)
	}
	res := cluster.Analyze(fires, ids, first, last, nil)
	rep.Planned, rep.Fired, rep.Missed, rep.Duplicates = res.Planned, res.Fired, res.MissesElsewhere, res.Duplicates
	rep.LatenessMs.P50 = ms(res.Lateness.P50)
	rep.LatenessMs.P99 = ms(res.Lateness.P99)
	rep.LatenessMs.Max = ms(res.Lateness.Max)
	rep.LogRows, rep.LogFailed, err = logCounts(ctx, db, group)
	if err != nil {
		return nil, err
	}
	rep.PoolRejected, rep.RejectNotRecorded = countLines(logPath, "trigger rejected: pool full"),
		countLines(logPath, "rejected trigger not recorded")
	return rep, nil
}

func logCounts(ctx context.Context, db *cluster.DB, group int) (rows, failed int, err error) {
	err = db.SQL.QueryRowContext(ctx, "SELECT COUNT(*), COALESCE(SUM(CASE WHEN trigger_code <> 200 THEN 1 ELSE 0 END), 0)"+
		" FROM xxl_job_log WHERE job_group = ?", group).Scan(&rows, &failed)
	if err != nil {
		return 0, 0, fmt.Errorf("count log rows: %w", err)
	}
	return rows, failed, nil
}

func ms(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }

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

// writeGoroutines writes this process's goroutine stacks, grouped.
func writeGoroutines(path string) error {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	defer f.Close()
	return pprof.Lookup("goroutine").WriteTo(f, 1)
}

// countLines counts the lines of a file containing s.
func countLines(path, s string) int {
	b, err := os.ReadFile(path)
	if err != nil {
		return -1
	}
	return bytes.Count(b, []byte(s))
}
