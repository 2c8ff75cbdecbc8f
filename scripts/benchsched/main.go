// Command benchsched measures the scheduler of one admin process: N enabled
// FIX_RATE 1 s jobs, all due on the same whole seconds, fire at a fake
// executor (in this process, apart from the admin's) for a warm-up and then
// S measured seconds. It reports per N, as one JSON object, the runs per
// second, misses and duplicates per job and planned second, the lateness
// (receipt − planned second), the CPU of the admin and of MariaDB per
// trigger, the admin's RSS, how fast its health endpoint and executor API
// answer meanwhile, and how many log lines it writes. Results go to
// bench/out/sched-<admin>-<N>.json.
//
//	go run ./scripts/benchsched [-jobs 1000,8000] [-seconds 60] [-warmup 10s] [-admin ours|java|java342] [-schema 2.4|3.4] [-db mysql|sqlite]
//
// MariaDB comes from XXL_TEST_MYSQL_DSN (a go-sql-driver DSN without
// database); each run gets a database of its own, dropped afterwards.
// -admin java runs the real Java admin (-jar, default
// ../shared/reference/xxl-job-admin-2.4.2.jar) instead of ours; -admin
// java342 the 3.4.2 jar (default ../shared/reference/xxl-job-admin-3.4.2.jar)
// on a database created with the 3.4.2 tables (-schema 3.4, implied).
// -schema 3.4 runs ours on such a database too: it then behaves as 3.4.2
// (root context path, batched schedule updates).
// -inprocess runs our admin inside this process (app.Run), so that
// -cpuprofile can profile it; the executor's CPU is then included.
// -ab before=bin/a,after=bin/b -rounds 3 compares admin binaries: they run
// alternately (A B, B A, A B) at each job count, and ab-<N>.md gives each
// one's median and range.
package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"os"
	"os/signal"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/xxl-admin-go/xxl-admin-go/conformance/cluster"
)

// defaultJar and defaultJar342 are the reference Java admins, beside the
// repository.
const (
	defaultJar    = "../shared/reference/xxl-job-admin-2.4.2.jar"
	defaultJar342 = "../shared/reference/xxl-job-admin-3.4.2.jar"
)

func main() {
	if err := run(); err != nil {
		fmt.Fprintln(os.Stderr, "benchsched:", err)
		os.Exit(1)
	}
}

func run() error {
	var o options
	jobs := flag.String("jobs", "1000,2000,4000,8000", "comma-separated job counts, one run each")
	flag.StringVar(&o.admin, "admin", "ours", "ours, java (the 2.4.2 reference jar) or java342 (the 3.4.2 one)")
	flag.StringVar(&o.jar, "jar", "", "the Java admin jar (default: the reference jar of -admin)")
	flag.StringVar(&o.schema, "schema", "2.4", "the database's generation: 2.4 or 3.4 (java342 implies 3.4)")
	flag.IntVar(&o.seconds, "seconds", 60, "measured seconds per run, after the warm-up")
	flag.DurationVar(&o.warmUp, "warmup", 10*time.Second, "fired but not measured, from the first fire")
	flag.StringVar(&o.db, "db", "mysql", "mysql (XXL_TEST_MYSQL_DSN) or sqlite")
	flag.StringVar(&o.out, "out", "bench/out", "directory for sched-<admin>-<N>.json")
	flag.StringVar(&o.tag, "tag", "", "suffix of the output file name (sched-<admin>-<N><tag>.json)")
	flag.StringVar(&o.bin, "bin", "", "our admin binary; built from source when empty")
	extra := flag.String("args", "", "extra admin arguments, space-separated (e.g. --xxl.job.triggerpool.fast.max=1000)")
	flag.BoolVar(&o.inProcess, "inprocess", false, "run our admin in this process (for -cpuprofile)")
	flag.StringVar(&o.cpuProfile, "cpuprofile", "", "with -inprocess: write a CPU profile of the measured part here")
	keep := flag.Bool("keep", false, "keep the admin logs (temporary directory)")
	flag.BoolVar(&o.dump, "dump", false, "with -keep: also write every run received and every log row there")
	ab := flag.String("ab", "", "label=path,label=path…: compare these admin binaries, alternating (see -rounds)")
	rounds := flag.Int("rounds", 3, "with -ab: runs per binary and job count")
	flag.DurationVar(&o.settle, "settle", 2*time.Minute, "with -ab: wait up to this long for a quiet box (≤ 15 % busy over 2 s) before each run")
	flag.Parse()
	o.extra = strings.Fields(*extra)
	switch {
	case o.cpuProfile != "" && !o.inProcess:
		return errors.New("-cpuprofile needs -inprocess")
	case o.db != "mysql" && o.db != "sqlite":
		return fmt.Errorf("-db %q: want mysql or sqlite", o.db)
	case o.admin != "ours" && !o.java():
		return fmt.Errorf("-admin %q: want ours, java or java342", o.admin)
	case o.java() && o.inProcess:
		return errors.New("-inprocess runs our admin only")
	case o.java() && o.db != "mysql":
		return errors.New("the Java admin needs MySQL/MariaDB")
	case o.schema != "2.4" && o.schema != "3.4":
		return fmt.Errorf("-schema %q: want 2.4 or 3.4", o.schema)
	case o.admin == "java342" && o.schema != "3.4" && schemaSet(flag.CommandLine):
		return errors.New("-admin java342 runs on a 3.4 database (-schema 3.4)")
	case o.admin == "java" && o.schema == "3.4":
		return errors.New("-admin java (2.4.2) needs a 2.4 database; use -admin java342")
	case *ab != "" && (o.admin != "ours" || o.inProcess || o.bin != ""):
		return errors.New("-ab runs our admin binaries it names: not with -admin java, -inprocess or -bin")
	case *rounds < 1:
		return errors.New("-rounds: want at least 1")
	}
	if o.admin == "java342" {
		o.schema = "3.4"
	}
	if o.jar == "" {
		o.jar = defaultJar
		if o.admin == "java342" {
			o.jar = defaultJar342
		}
	}
	var bins []binary
	if *ab != "" {
		var err error
		if bins, err = parseAB(*ab); err != nil {
			return err
		}
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	if err := os.MkdirAll(o.out, 0o755); err != nil {
		return err
	}
	tmp, err := os.MkdirTemp("", "benchsched-")
	if err != nil {
		return err
	}
	if *keep {
		fmt.Fprintln(os.Stderr, "benchsched: keeping", tmp)
	} else {
		defer os.RemoveAll(tmp)
	}
	o.tmp = tmp
	if o.java() {
		if o.jar, err = filepath.Abs(o.jar); err != nil {
			return err
		}
		if _, err := os.Stat(o.jar); err != nil {
			return fmt.Errorf("-jar: %w", err)
		}
	} else if o.bin == "" && !o.inProcess && bins == nil {
		if o.bin, err = cluster.BuildAdmin(ctx, tmp); err != nil {
			return err
		}
	}
	if o.bin != "" {
		if o.bin, err = filepath.Abs(o.bin); err != nil {
			return err
		}
	}
	var counts []int
	for _, s := range strings.Split(*jobs, ",") {
		n, err := strconv.Atoi(strings.TrimSpace(s))
		if err != nil || n <= 0 {
			return fmt.Errorf("-jobs: %q is not a positive count", s)
		}
		counts = append(counts, n)
	}
	if bins != nil {
		return runAB(ctx, o, bins, *rounds, counts)
	}
	for _, n := range counts {
		rep, err := measure(ctx, o, n)
		if err != nil {
			return fmt.Errorf("%s, %d jobs: %w", o.label(), n, err)
		}
		b, _ := json.MarshalIndent(rep, "", "  ")
		fmt.Println(string(b))
		if err := writeReport(o.out, o.label(), rep, o.tag); err != nil {
			return err
		}
	}
	return nil
}

// schemaSet tells whether -schema was given on the command line.
func schemaSet(fs *flag.FlagSet) bool {
	set := false
	fs.Visit(func(f *flag.Flag) { set = set || f.Name == "schema" })
	return set
}
