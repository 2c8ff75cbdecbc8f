package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"sort"
	"strings"
	"time"

	"github.com/xxl-admin-go/xxl-admin-go/compat/schema"
)

// idleOptions shape -mode idle.
type idleOptions struct {
	rows           int
	full, empty    string // databases to reuse (built when empty)
	mysqldPid      string
	warmup, window time.Duration
	rounds         int
	keep           bool
}

// runIdle measures what an idle admin (50 jobs, none firing) costs
// MariaDB (issue 27 goal 2): the mysqld process's CPU (utime + stime from
// /proc) over a window after a warm-up, with rows log rows and with an
// empty xxl_job_log, for each candidate, the runs alternating empty/full
// within each round. The server must be one nothing else uses.
func runIdle(ctx context.Context, w io.Writer, srv server, cands []candidate, o idleOptions, work string) error {
	pid, err := pidOf(o.mysqldPid)
	if err != nil {
		return err
	}
	if _, err := cpuTicks(pid); err != nil {
		return fmt.Errorf("mysqld pid %d: %w", pid, err)
	}
	dbs := map[string]string{"full": o.full, "empty": o.empty}
	for _, k := range []string{"empty", "full"} {
		if dbs[k] != "" {
			continue
		}
		rows := 0
		if k == "full" {
			rows = o.rows
		}
		name := fmt.Sprintf("xxl_growth_idle_%s_%d", k, time.Now().Unix())
		began := time.Now()
		if _, err := buildData(ctx, srv, name, schema.Gen2, rows); err != nil {
			return err
		}
		fmt.Fprintf(os.Stderr, "benchgrowth: %s (%d rows) built in %s\n", name, rows, time.Since(began).Round(time.Second))
		dbs[k] = name
		if !o.keep {
			defer func() { _, _ = srv.db.Exec("DROP DATABASE IF EXISTS " + name) }()
		}
	}
	var full int
	_ = srv.db.QueryRowContext(ctx, "SELECT COUNT(*) FROM "+dbs["full"]+".xxl_job_log").Scan(&full)
	type key struct{ cand, set string }
	res := map[key][]float64{}
	admin := map[key][]float64{}
	var loads []string
	for r := 0; r < o.rounds; r++ {
		sets := []string{"empty", "full"}
		if r%2 == 1 {
			sets = []string{"full", "empty"}
		}
		for _, c := range cands {
			for _, set := range sets {
				a, err := startAdmin(ctx, srv, dbs[set], schema.Gen2, c, work)
				if err != nil {
					return err
				}
				select {
				case <-ctx.Done():
				case <-time.After(o.warmup):
				}
				m0, _ := cpuTicks(pid)
				a0, _ := cpuTicks(a.pid)
				began := time.Now()
				select {
				case <-ctx.Done():
				case <-time.After(o.window):
				}
				m1, _ := cpuTicks(pid)
				a1, _ := cpuTicks(a.pid)
				secs := time.Since(began).Seconds()
				a.stop()
				if ctx.Err() != nil {
					return ctx.Err()
				}
				k := key{c.label, set}
				pm := 100 * float64(m1-m0) / ticksPerSecond / secs
				pa := 100 * float64(a1-a0) / ticksPerSecond / secs
				res[k] = append(res[k], pm)
				admin[k] = append(admin[k], pa)
				load := loadAverage()
				loads = append(loads, load)
				fmt.Fprintf(os.Stderr, "benchgrowth: idle round %d %s on %s: mysqld %.1f %% of a core, admin %.1f %% (load %s)\n",
					r+1, c.label, set, pm, pa, load)
			}
		}
	}
	fmt.Fprintf(w, "\nIdle (50 jobs, none firing), MariaDB's CPU (mysqld utime+stime) over %s after a %s warm-up, %d rounds alternating the tables; %% of one core, each run and the median; %s.\n\n",
		o.window, o.warmup, o.rounds, time.Now().UTC().Format("2006-01-02 15:04 UTC"))
	fmt.Fprintf(w, "| admin | mysqld, empty xxl_job_log | mysqld, %d rows | difference (pp) | the admin's own CPU, empty / full |\n|---|---|---|---|---|\n", full)
	for _, c := range cands {
		e, f := res[key{c.label, "empty"}], res[key{c.label, "full"}]
		fmt.Fprintf(w, "| %s | %s | %s | %+.1f | %.1f / %.1f %% |\n", c.label, pcts(e), pcts(f), median(f)-median(e),
			median(admin[key{c.label, "empty"}]), median(admin[key{c.label, "full"}]))
	}
	fmt.Fprintf(w, "\nLoad average at the end of each run: %s.\n", strings.Join(loads, "; "))
	return nil
}

func median(v []float64) float64 {
	if len(v) == 0 {
		return 0
	}
	s := append([]float64(nil), v...)
	sort.Float64s(s)
	return s[len(s)/2]
}

func pcts(v []float64) string {
	parts := make([]string, len(v))
	for i, x := range v {
		parts[i] = fmt.Sprintf("%.1f", x)
	}
	return fmt.Sprintf("%s (median %.1f %%)", strings.Join(parts, ", "), median(v))
}
