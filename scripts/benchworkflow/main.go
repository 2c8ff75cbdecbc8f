// Command benchworkflow measures workflows against plain child jobs on
// one admin process (issue 28): our binary with workflows on, a fake
// executor in this process that records when each /run arrives and calls
// every run back as a success after a fixed work time.
//
//   - Node-to-node latency: a chain A → B wired as a workflow edge and as
//     child_jobid, one run at a time, the two alternated; a sample is from
//     the moment the executor posts A's callback to the moment B's /run
//     arrives.
//   - Throughput: runs of a 10-node fan-out/fan-in workflow (wfShape)
//     started through the job API at rising rates, and the same ten jobs
//     as a child-job tree (childShape: child_jobid cannot express the
//     fan-in), alternated at each rate; a rate is on time when every node
//     ran and none came more than -late after its parents' last callback.
//
// Tables in Markdown on stdout and in bench/out/workflow.md.
//
//	go run ./scripts/benchworkflow [-bin bin/xxl-admin-go] [-db mysql,postgres,sqlite] [-n 500] [-rates 1,2,5,10,20,50] [-seconds 20]
package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/xxl-admin-go/xxl-admin-go/conformance/cluster"
	"github.com/xxl-admin-go/xxl-admin-go/internal/testsupport/procstat"
)

// options are the command line's settings.
type options struct {
	bin       string
	dbs       []string
	n, warm   int
	gap, work time.Duration
	retry     time.Duration
	rates     []float64
	seconds   int
	late      time.Duration
	drain     time.Duration
	settle    time.Duration
	all       bool
	out, tmp  string
}

func main() {
	if err := run(); err != nil {
		fmt.Fprintln(os.Stderr, "benchworkflow:", err)
		os.Exit(1)
	}
}

func run() error {
	var o options
	dbs := flag.String("db", "mysql", "comma-separated: mysql (XXL_TEST_MYSQL_DSN), postgres (XXL_TEST_POSTGRES_DSN), sqlite")
	rates := flag.String("rates", "1,2,5,10,20,50", "comma-separated start rates, runs per second")
	flag.StringVar(&o.bin, "bin", "", "our admin binary; built from source when empty")
	flag.IntVar(&o.n, "n", 500, "latency samples per wiring")
	flag.IntVar(&o.warm, "warm", 20, "latency samples per wiring run first and not kept")
	flag.DurationVar(&o.gap, "gap", 50*time.Millisecond, "pause between latency samples")
	flag.DurationVar(&o.retry, "callback-retry", 30*time.Second, "how long the executor waits to post a callback the admin did not accept again (Java's: 30 s)")
	flag.DurationVar(&o.work, "work", 10*time.Millisecond, "each run's work time at the executor")
	flag.IntVar(&o.seconds, "seconds", 20, "seconds of starts per rate")
	flag.DurationVar(&o.late, "late", time.Second, "a node is late when its /run comes more than this after it was due")
	flag.DurationVar(&o.drain, "drain", 15*time.Second, "after a rate's last start, wait up to this for every node")
	flag.DurationVar(&o.settle, "settle", time.Minute, "before each rate, wait up to this long for a quiet box (≤ 30 % busy over 2 s)")
	flag.BoolVar(&o.all, "all", false, "go on up the rates after a wiring was late at one")
	flag.StringVar(&o.out, "out", "bench/out", "directory for workflow.md")
	keep := flag.Bool("keep", false, "keep the admin's log (temporary directory)")
	flag.Parse()
	o.dbs = strings.Split(*dbs, ",")
	for _, s := range strings.Split(*rates, ",") {
		r, err := strconv.ParseFloat(strings.TrimSpace(s), 64)
		if err != nil || r <= 0 {
			return fmt.Errorf("-rates: %q is not a positive rate", s)
		}
		o.rates = append(o.rates, r)
	}
	if o.n < 1 || o.seconds < 1 || o.work < 0 {
		return fmt.Errorf("-n and -seconds must be positive, -work not negative")
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	tmp, err := os.MkdirTemp("", "benchworkflow-")
	if err != nil {
		return err
	}
	if *keep {
		fmt.Fprintln(os.Stderr, "benchworkflow: keeping", tmp)
	} else {
		defer os.RemoveAll(tmp)
	}
	o.tmp = tmp
	if o.bin == "" {
		if o.bin, err = cluster.BuildAdmin(ctx, tmp); err != nil {
			return err
		}
	}
	if o.bin, err = filepath.Abs(o.bin); err != nil {
		return err
	}
	if err := os.MkdirAll(o.out, 0o755); err != nil {
		return err
	}
	f, err := os.Create(filepath.Join(o.out, "workflow.md"))
	if err != nil {
		return err
	}
	defer f.Close()
	w := io.MultiWriter(os.Stdout, f)
	fmt.Fprintf(w, "## Workflows against child jobs (%s, %d CPUs)\n\n", cpuModel(), runtime.NumCPU())
	for _, kind := range o.dbs {
		r, err := measure(ctx, o, strings.TrimSpace(kind))
		if err != nil {
			return fmt.Errorf("%s: %w", kind, err)
		}
		writeReport(w, r)
	}
	return nil
}

// cpuModel is /proc/cpuinfo's first model name.
func cpuModel() string {
	b, _ := os.ReadFile("/proc/cpuinfo")
	for _, l := range strings.Split(string(b), "\n") {
		if k, v, ok := strings.Cut(l, ":"); ok && strings.TrimSpace(k) == "model name" {
			return strings.TrimSpace(v)
		}
	}
	return "unknown CPU"
}

// measure runs both parts on one database kind.
func measure(ctx context.Context, o options, kind string) (report, error) {
	r := report{DB: kind, Began: time.Now(), LoadStart: procstat.LoadAvg(), Work: o.work, Late: o.late}
	dir := filepath.Join(o.tmp, kind)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return r, err
	}
	db, err := newDatabase(ctx, kind, dir)
	if err != nil {
		return r, err
	}
	defer db.drop()
	cdb, err := cluster.OpenDB(ctx, db.url, db.user, db.pass)
	if err != nil {
		return r, err
	}
	defer cdb.Close()
	e, err := startExecutor(o.work, o.retry)
	if err != nil {
		return r, err
	}
	defer e.close()
	rg, err := seedJobs(ctx, cdb.Store, e.address())
	if err != nil {
		return r, err
	}
	const accessToken, apiToken = "wfbench-access", "wfbench-openapi-token-0123456789"
	out, err := os.Create(filepath.Join(dir, "admin.log"))
	if err != nil {
		return r, err
	}
	defer out.Close()
	args := append(cluster.AdminArgs(db.url, db.user, db.pass, accessToken),
		"--xxl.job.workflows.enabled=true", "--xxl.job.openapi.token="+apiToken)
	adm, err := cluster.StartAdmin(o.bin, args, out, time.Minute)
	if err != nil {
		return r, err
	}
	defer func() { _ = adm.Terminate(30 * time.Second) }()
	base := "http://127.0.0.1:" + strconv.Itoa(adm.Port) + "/xxl-job-admin"
	e.setAdmin(base, accessToken)
	if err := seedWorkflows(ctx, cdb.Store, rg); err != nil {
		return r, err
	}
	api := newJobAPI(base, apiToken)
	if _, err := settle(ctx, o.settle); err != nil {
		return r, err
	}
	r.LoadLatency = procstat.LoadAvg()
	fmt.Fprintf(os.Stderr, "benchworkflow: %s: latency, %d samples per wiring\n", kind, o.n)
	if r.Lat, err = measureLatency(ctx, e, api, rg, o.n, o.warm, o.gap); err != nil {
		return r, err
	}
	if r.IdleCPU, err = idleCPU(ctx, adm.PID(), 10*time.Second); err != nil {
		return r, err
	}
	failed := map[string]bool{}
	for i, rt := range o.rates {
		plans := []plan{rg.treeWF, rg.treeChild}
		if i%2 == 1 {
			plans[0], plans[1] = plans[1], plans[0]
		}
		for _, p := range plans {
			name := "workflow"
			if p.workflow == 0 {
				name = "child jobs"
			}
			if failed[name] && !o.all {
				continue
			}
			// A late rung can leave callbacks to be posted again: they
			// are let through first, so that the next rung does not pay
			// for them.
			actx, cancel := context.WithTimeout(ctx, o.settle)
			e.waitAccepted(actx)
			cancel()
			busy, err := settle(ctx, o.settle)
			if err != nil {
				return r, err
			}
			s, err := runStep(ctx, e, api, p, fmt.Sprintf("r%d", i), rt, o.seconds, o.drain, adm.PID(), r.IdleCPU)
			if err != nil {
				return r, err
			}
			fmt.Fprintf(os.Stderr, "benchworkflow: %s: %s at %s runs/s: %d started, %d/%d nodes, %d late, p99 %s, load %s\n",
				kind, name, rate(rt), s.Started, s.Out.Arrived, s.Out.Expected, s.Out.Late(o.late), ms(quantile(s.Out.Lateness, 0.99)), s.Load)
			s.BusyBefore = busy
			r.Steps = append(r.Steps, s)
			failed[name] = failed[name] || !s.ok(o.late)
		}
	}
	return r, nil
}
