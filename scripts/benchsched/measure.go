package main

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"runtime/pprof"
	"slices"
	"strconv"
	"time"

	"github.com/xxl-admin-go/xxl-admin-go/compat/schema"
	"github.com/xxl-admin-go/xxl-admin-go/conformance/cluster"
	"github.com/xxl-admin-go/xxl-admin-go/internal/testsupport/procstat"
)

const (
	// startMargin puts the first fire far enough after arming that the
	// admin's next round (its loop sleeps up to 5 s when idle, scheduler.md
	// §3.1) reads it in time, keeping the FIX_RATE grid on whole seconds.
	startMargin = 8 * time.Second
	noiseSpan   = 3 * time.Second
	mib         = 1 << 20
	benchToken  = "bench-token"
)

// report is bench/out/sched-<admin>-<N>.json.
type report struct {
	Admin          string   `json:"admin"`  // ours, java or java342
	Schema         string   `json:"schema"` // the database's generation: 2.4 or 3.4
	Jobs           int      `json:"jobs"`
	Seconds        int      `json:"seconds"`        // measured, after the warm-up
	WarmUpSeconds  int      `json:"warmup_seconds"` // fired but not measured
	DB             string   `json:"db"`
	Mode           string   `json:"mode"` // process or inprocess
	AdminArgs      []string `json:"admin_args,omitempty"`
	TriggersPerSec float64  `json:"triggers_per_s"` // runs received per second, measured part
	PerSecondMin   int      `json:"per_second_min"`
	PerSecondMax   int      `json:"per_second_max"`
	LatenessMs     struct {
		P50 float64 `json:"p50"`
		P99 float64 `json:"p99"`
		Max float64 `json:"max"`
	} `json:"lateness_ms"` // receipt − planned second, measured part
	Planned int `json:"planned"` // job × second slots of the measured part
	Fired   int `json:"fired_on_plan"`
	// Missed counts planned seconds of the measured part with no run;
	// Duplicates counts runs beyond one per job and planned second, over
	// the whole run (a run pairs with a planned second at most 5 s before
	// it, scheduler.md §3.2).
	Missed        int     `json:"missed"`
	MissedWarmUp  int     `json:"missed_in_warmup"`
	Duplicates    int     `json:"duplicates"`
	LogRows       int     `json:"log_rows"`
	LogFailed     int     `json:"log_rows_trigger_failed"` // trigger_code not 0 or 200 (e.g. pool full)
	LogOpen       int     `json:"log_rows_trigger_code_0"` // never finished, counted after the admin stopped
	LogLines      int     `json:"admin_log_lines"`         // measured part
	LogBytes      int64   `json:"admin_log_bytes"`
	LogLinesPerS  float64 `json:"admin_log_lines_per_s"`
	PoolRejected  int     `json:"pool_rejected_lines"` // log lines naming full pools
	MisfireLines  int     `json:"summary_lines"`       // our summary lines ("triggers not run as planned")
	CPUSeconds    float64 `json:"admin_cpu_s"`         // measured part
	CPUPercent    float64 `json:"admin_cpu_pct"`       // of one core
	CPUPerTrigger float64 `json:"admin_cpu_ms_per_trigger"`
	DBCPUSeconds  float64 `json:"mariadb_cpu_s"` // the server process, every client included
	DBCPUPerTrig  float64 `json:"mariadb_cpu_ms_per_trigger"`
	RSSMaxMiB     float64 `json:"rss_max_mib"`   // VmHWM
	RSSFinalMiB   float64 `json:"rss_final_mib"` // VmRSS at the end of the measured part

	Health latency `json:"health_latency"` // GET <ctx>/actuator/health every 100 ms
	API    latency `json:"api_latency"`    // POST <ctx>/api/registry every 100 ms

	DBStatementsPerTrigger *float64         `json:"db_statements_per_trigger"` // null on SQLite (n/a)
	DBCounters             map[string]int64 `json:"db_counters_steady,omitempty"`
	DBNoiseQuestionsPerSec float64          `json:"db_noise_questions_per_s"` // other clients, before the run

	// OtherCPUPercent is the box's busy CPU time over the measured part
	// that was not the admin's, MariaDB's or this harness's (the fake
	// executor's included), in % of one core: other work on a shared box.
	OtherCPUPercent float64 `json:"other_cpu_pct"`
	// Label names the binary of an A/B comparison (-ab); BusyBefore is
	// the box's busy share (%) over the 2 s before the run (its settling).
	Label      string  `json:"label,omitempty"`
	BusyBefore float64 `json:"busy_before_pct,omitempty"`

	LoadAvgStart string `json:"loadavg_start"` // before the admin started
	LoadAvgEnd   string `json:"loadavg_end"`
	CPUs         int    `json:"cpus"`
	Started      string `json:"started"`
	Note         string `json:"note,omitempty"`
}

func measure(ctx context.Context, o options, n int) (*report, error) {
	rep := &report{Admin: o.admin, Schema: o.schema, Jobs: n, Seconds: o.seconds, WarmUpSeconds: int(o.warmUp.Seconds()), DB: o.db,
		Mode: "process", AdminArgs: o.extra, CPUs: runtime.NumCPU(), Started: time.Now().UTC().Format(time.RFC3339)}
	if o.inProcess {
		rep.Mode = "inprocess"
		rep.Note = "CPU, RSS include the fake executor and the harness"
	}
	dir := filepath.Join(o.tmp, o.label()+"-"+strconv.Itoa(n)+o.tag)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, err
	}
	d, err := newDatabase(ctx, o.db, dir)
	if err != nil {
		return nil, err
	}
	defer d.drop()
	gen := schema.Gen2
	if o.gen3() {
		gen = schema.Gen3
	}
	db, err := cluster.OpenDBAs(ctx, d.url, d.user, d.pass, gen)
	if err != nil {
		return nil, err
	}
	defer db.Close()
	exec, err := startExecutor()
	if err != nil {
		return nil, err
	}
	defer exec.Close()
	group, ids, err := db.Seed(ctx, n, exec.address())
	if err != nil {
		return nil, err
	}
	if err := disarm(ctx, db.SQL, group); err != nil {
		return nil, err
	}
	dbPID := d.serverPID(ctx)

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

	rep.LoadAvgStart = procstat.LoadAvg()
	args := append(cluster.AdminArgs(d.url, d.user, d.pass, benchToken), o.extra...)
	logPath := filepath.Join(dir, "admin.log")
	adm, err := startAdmin(ctx, o, args, dir, logPath)
	if err != nil {
		return nil, err
	}
	stopped := false
	defer func() {
		if !stopped {
			_ = adm.stop()
		}
	}()
	first := time.Now().Truncate(time.Second).Add(startMargin)
	if err := arm(ctx, db.SQL, group, first); err != nil {
		return nil, err
	}
	fmt.Fprintf(os.Stderr, "benchsched: %s, %d jobs, admin pid %d, first fire %s, log %s\n",
		o.label(), n, adm.pid(), first.UTC().Format("15:04:05"), logPath)

	from := first.Add(o.warmUp)
	last := from.Add(time.Duration(o.seconds-1) * time.Second)
	end := last.Add(time.Second)
	if !sleepUntil(ctx, from) {
		return nil, ctx.Err()
	}
	probe := newProber(adm.base(), benchToken)
	pctx, stopProbe := context.WithCancel(ctx)
	defer stopProbe()
	probeDone := make(chan struct{})
	go func() {
		defer close(probeDone)
		probe.run(pctx)
	}()
	s0, err := d.status(ctx)
	if err != nil {
		return nil, err
	}
	c0 := exec.Count()
	cpu0, err := procstat.CPUTime(adm.pid())
	if err != nil {
		return nil, err
	}
	db0, _ := procstat.CPUTime(dbPID)
	self0, _ := procstat.CPUTime(os.Getpid())
	idle0, total0, _ := procstat.SystemCPU()
	log0 := markLog(logPath)
	var prof *os.File
	if o.cpuProfile != "" {
		if prof, err = os.Create(o.cpuProfile); err != nil {
			return nil, err
		}
		if err := pprof.StartCPUProfile(prof); err != nil {
			return nil, err
		}
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
		// What was allocated since the start, for finding the garbage the
		// collector's share of the CPU profile comes from.
		if err := writeProfile("allocs", o.cpuProfile+".allocs"); err != nil {
			return nil, err
		}
	}
	stopProbe()
	<-probeDone
	s1, err := d.status(ctx)
	if err != nil {
		return nil, err
	}
	c1 := exec.Count()
	cpu1, err := procstat.CPUTime(adm.pid())
	if err != nil {
		return nil, err
	}
	db1, _ := procstat.CPUTime(dbPID)
	self1, _ := procstat.CPUTime(os.Getpid())
	idle1, total1, _ := procstat.SystemCPU()
	log1 := markLog(logPath)
	rss, hwm, err := procstat.Memory(adm.pid())
	if err != nil {
		return nil, err
	}
	rep.LoadAvgEnd = procstat.LoadAvg()
	stopped = true
	if err := adm.stop(); err != nil {
		fmt.Fprintf(os.Stderr, "benchsched: stop: %v\n", err)
	}

	span := end.Sub(from)
	fired := c1 - c0
	rep.CPUSeconds = (cpu1 - cpu0).Seconds()
	rep.CPUPercent = 100 * rep.CPUSeconds / span.Seconds()
	if dbPID != 0 {
		rep.DBCPUSeconds = (db1 - db0).Seconds()
	}
	if fired > 0 {
		rep.CPUPerTrigger = 1000 * rep.CPUSeconds / float64(fired)
		rep.DBCPUPerTrig = 1000 * rep.DBCPUSeconds / float64(fired)
	}
	rep.RSSMaxMiB, rep.RSSFinalMiB = float64(hwm)/mib, float64(rss)/mib
	ours := (cpu1 - cpu0) + (db1 - db0)
	if !o.inProcess {
		ours += self1 - self0
	}
	rep.OtherCPUPercent = otherCPU(idle1-idle0, total1-total0, ours, span)
	rep.Health, rep.API = probe.results()
	rep.LogLines, rep.LogBytes = linesBetween(logPath, log0, log1)
	rep.LogLinesPerS = float64(rep.LogLines) / span.Seconds()
	if d.server != nil {
		rep.DBCounters = delta(s0, s1)
		own := float64(rep.DBCounters["Questions"]) - rep.DBNoiseQuestionsPerSec*span.Seconds()
		if fired > 0 {
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
	// Misses and duplicates over the whole run, misses of the warm-up
	// apart; lateness and counts of the measured part from its fires only.
	// A fire's second is its trigger time's (the executor reads logDateTime):
	// a fire sent late carries the second it was sent in, so duplicates are
	// fires no planned second within lateWindow before theirs is left for.
	whole := cluster.AnalyzeLate(slices.Clone(fires), ids, 1, first, last, []cluster.Window{{From: first, To: from.Add(-time.Second)}}, lateWindow)
	rep.Missed, rep.MissedWarmUp, rep.Duplicates = whole.MissesElsewhere, whole.MissesExcused, whole.Duplicates
	if o.dump {
		if err := db.Dump(ctx, dir, group, fires); err != nil {
			return nil, err
		}
		fmt.Fprintf(os.Stderr, "benchsched: fires and log rows in %s; first duplicates %v; first misses %v\n",
			dir, whole.DuplicateSlots, whole.Missed)
	}
	steady := cluster.Analyze(slices.DeleteFunc(fires, func(f cluster.Fire) bool { return f.At.Before(from) }), ids, from, last, nil)
	rep.Planned, rep.Fired = steady.Planned, steady.Fired
	rep.LatenessMs.P50 = ms(steady.Lateness.P50)
	rep.LatenessMs.P99 = ms(steady.Lateness.P99)
	rep.LatenessMs.Max = ms(steady.Lateness.Max)
	rep.LogRows, rep.LogFailed, rep.LogOpen, err = logCounts(ctx, db, group)
	if err != nil {
		return nil, err
	}
	rep.PoolRejected = countLines(logPath, "pool is full") + countLines(logPath, "RejectedExecution")
	rep.MisfireLines = countLines(logPath, "triggers not run as planned")
	return rep, nil
}

// otherCPU is the busy share of the box's CPU time (idle and total in
// jiffies of all CPUs) not spent by ours, in % of one core over span.
func otherCPU(idle, total uint64, ours, span time.Duration) float64 {
	if total == 0 || span <= 0 {
		return 0
	}
	cores := float64(runtime.NumCPU())
	busy := (1 - float64(idle)/float64(total)) * cores * span.Seconds()
	return max(0, 100*(busy-ours.Seconds())/span.Seconds())
}

func logCounts(ctx context.Context, db *cluster.DB, group int) (rows, failed, open int, err error) {
	err = db.SQL.QueryRowContext(ctx, "SELECT COUNT(*), COALESCE(SUM(CASE WHEN trigger_code NOT IN (0, 200) THEN 1 ELSE 0 END), 0),"+
		" COALESCE(SUM(CASE WHEN trigger_code = 0 THEN 1 ELSE 0 END), 0) FROM xxl_job_log WHERE job_group = ?", group).Scan(&rows, &failed, &open)
	if err != nil {
		return 0, 0, 0, fmt.Errorf("count log rows: %w", err)
	}
	return rows, failed, open, nil
}

// lateWindow is the misfire threshold (scheduler.md §3.2): neither admin
// sends a planned fire more than 5 s late without calling it a misfire.
const lateWindow = 5

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

// writeProfile writes one of this process's runtime profiles.
func writeProfile(name, path string) error {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	defer f.Close()
	return pprof.Lookup(name).WriteTo(f, 0)
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
