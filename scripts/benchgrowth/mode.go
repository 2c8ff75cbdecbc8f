package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"
)

// modeOptions are the flags of the modes beside the console table:
// -mode idle (the idle database's CPU) and -mode lateness (trigger
// lateness while retention deletes).
type modeOptions struct {
	mode string
	idle idleOptions
	late latenessOptions
}

func modeFlags() *modeOptions {
	o := &modeOptions{}
	flag.StringVar(&o.mode, "mode", "", "idle | lateness: measure the idle database's CPU or the trigger lateness under deletion instead of the console (2.4 tables; -jar adds the Java admin)")
	flag.StringVar(&o.idle.full, "idle-full", "", "idle: reuse this database as the full one")
	flag.StringVar(&o.idle.empty, "idle-empty", "", "idle: reuse this database as the empty one")
	flag.StringVar(&o.idle.mysqldPid, "mysqld-pid", "", "idle: the MariaDB server's pid or pid file (a server nothing else uses)")
	flag.DurationVar(&o.idle.warmup, "warmup", time.Minute, "idle: wait after the admin is up before measuring")
	flag.DurationVar(&o.idle.window, "window", 2*time.Minute, "idle: each measured window")
	flag.IntVar(&o.idle.rounds, "rounds", 3, "idle, lateness: rounds, each measuring every case once (alternating)")
	flag.IntVar(&o.late.rate, "rate", 2000, "lateness: jobs fired per second")
	flag.IntVar(&o.late.expired, "expired", 5_000_000, "lateness: expired log rows retention deletes")
	flag.DurationVar(&o.late.duration, "duration", 2*time.Minute, "lateness: measured time of each run (shorter than the deletion)")
	flag.DurationVar(&o.late.warmup, "late-warmup", 30*time.Second, "lateness: wait after the admin is up before measuring")
	flag.StringVar(&o.late.reuse, "late-db", "", "lateness: reuse this database (built when empty)")
	return o
}

func runMode(ctx context.Context, srv server, mo *modeOptions, rows int, keep bool, jar string, ours multiFlag, out, work string) error {
	var cands []candidate
	for _, o := range ours {
		label, path, _ := strings.Cut(o, "=")
		abs, _ := filepath.Abs(path)
		cands = append(cands, candidate{label: label, path: abs})
	}
	if jar != "" {
		if _, err := exec.LookPath("java"); err == nil {
			cands = append(cands, candidate{label: "Java 2.4.2", java: true, path: jar})
		}
	}
	var table strings.Builder
	var err error
	switch mo.mode {
	case "idle":
		mo.idle.rows, mo.idle.keep = rows, keep
		err = runIdle(ctx, &table, srv, cands, mo.idle, work)
	case "lateness":
		mo.late.keep, mo.late.rounds = keep, mo.idle.rounds
		err = runLateness(ctx, &table, srv, cands[0], mo.late, work)
	default:
		err = fmt.Errorf("-mode %q: idle or lateness", mo.mode)
	}
	if err != nil {
		return err
	}
	fmt.Print(table.String())
	if err := os.MkdirAll(filepath.Dir(out), 0o755); err != nil {
		return err
	}
	return os.WriteFile(strings.TrimSuffix(out, ".md")+"-"+mo.mode+".md", []byte(table.String()), 0o644)
}
