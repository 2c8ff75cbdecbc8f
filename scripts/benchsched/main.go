// Command benchsched measures the scheduler of one admin process: N enabled
// FIX_RATE 1 s jobs fire at an in-process fake executor for S seconds, and
// it reports per N, as one JSON object, the sustained triggers per second,
// the lateness (receipt − planned second), the admin's CPU and RSS, and the
// database statements per trigger. Results go to bench/out/sched-<N>.json.
//
//	go run ./scripts/benchsched [-jobs 1000,5000,10000] [-seconds 60] [-db mysql|sqlite]
//
// MariaDB comes from XXL_TEST_MYSQL_DSN (a go-sql-driver DSN without
// database); each N gets a database of its own, dropped afterwards.
// -inprocess runs the admin inside this process instead (app.Run), so that
// -cpuprofile can profile it; the executor's CPU is then included.
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
)

func main() {
	if err := run(); err != nil {
		fmt.Fprintln(os.Stderr, "benchsched:", err)
		os.Exit(1)
	}
}

func run() error {
	var o options
	jobs := flag.String("jobs", "1000,5000,10000", "comma-separated job counts, one run each")
	flag.IntVar(&o.seconds, "seconds", 60, "measured run per job count")
	flag.StringVar(&o.db, "db", "mysql", "mysql (XXL_TEST_MYSQL_DSN) or sqlite")
	flag.StringVar(&o.out, "out", "bench/out", "directory for sched-<N>.json")
	flag.StringVar(&o.bin, "bin", "", "admin binary; built from source when empty")
	extra := flag.String("args", "", "extra admin arguments, space-separated (e.g. --xxl.job.triggerpool.fast.max=1000)")
	flag.BoolVar(&o.inProcess, "inprocess", false, "run the admin in this process (for -cpuprofile)")
	flag.StringVar(&o.cpuProfile, "cpuprofile", "", "with -inprocess: write a CPU profile of the steady part here")
	keep := flag.Bool("keep", false, "keep the admin logs (temporary directory)")
	flag.Parse()
	o.extra = strings.Fields(*extra)
	if o.cpuProfile != "" && !o.inProcess {
		return errors.New("-cpuprofile needs -inprocess")
	}
	if o.db != "mysql" && o.db != "sqlite" {
		return fmt.Errorf("-db %q: want mysql or sqlite", o.db)
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
	for _, s := range strings.Split(*jobs, ",") {
		n, err := strconv.Atoi(strings.TrimSpace(s))
		if err != nil || n <= 0 {
			return fmt.Errorf("-jobs: %q is not a positive count", s)
		}
		rep, err := measure(ctx, o, n)
		if err != nil {
			return fmt.Errorf("%d jobs: %w", n, err)
		}
		b, _ := json.MarshalIndent(rep, "", "  ")
		fmt.Println(string(b))
		if err := os.WriteFile(filepath.Join(o.out, fmt.Sprintf("sched-%d.json", n)), append(b, '\n'), 0o644); err != nil {
			return err
		}
	}
	return nil
}
