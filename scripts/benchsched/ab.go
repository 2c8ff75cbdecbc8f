package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/xxl-admin-go/xxl-admin-go/internal/testsupport/procstat"
)

// binary is one admin binary of an A/B comparison (-ab label=path,…).
type binary struct{ label, path string }

// parseAB reads -ab: two or more label=path pairs, labels distinct.
func parseAB(v string) ([]binary, error) {
	var out []binary
	for _, part := range strings.Split(v, ",") {
		label, path, ok := strings.Cut(strings.TrimSpace(part), "=")
		if !ok || label == "" || path == "" {
			return nil, fmt.Errorf("-ab: %q is not label=path", part)
		}
		if slices.ContainsFunc(out, func(b binary) bool { return b.label == label }) {
			return nil, fmt.Errorf("-ab: label %q twice", label)
		}
		abs, err := filepath.Abs(path)
		if err != nil {
			return nil, err
		}
		if _, err := os.Stat(abs); err != nil {
			return nil, fmt.Errorf("-ab: %w", err)
		}
		out = append(out, binary{label: label, path: abs})
	}
	if len(out) < 2 {
		return nil, fmt.Errorf("-ab: want two or more label=path pairs, got %d", len(out))
	}
	return out, nil
}

// runAB measures the binaries alternately, rounds times at each job count:
// A B, then B A, then A B … (the order turns every round, so a trend in the
// box's load over the run favours neither), and writes every run's report
// and a table of the medians and ranges per binary to ab-<N>.md. On a
// shared box the load of other work moves every number; alternating puts
// both binaries under the same load, and the table gives the spread of the
// repeats beside each median.
func runAB(ctx context.Context, o options, bins []binary, rounds int, counts []int) error {
	for _, n := range counts {
		reps := map[string][]*report{}
		for r := 1; r <= rounds; r++ {
			order := slices.Clone(bins)
			if r%2 == 0 {
				slices.Reverse(order)
			}
			for _, b := range order {
				ro := o
				ro.bin, ro.tag = b.path, "-"+b.label+"-r"+strconv.Itoa(r)
				busy, waited, err := settle(ctx, o.settle)
				if err != nil {
					return err
				}
				fmt.Fprintf(os.Stderr, "benchsched: A/B %s, %d jobs, round %d of %d (box %.0f%% busy after %s of settling)\n",
					b.label, n, r, rounds, 100*busy, waited.Round(time.Second))
				rep, err := measure(ctx, ro, n)
				if err != nil {
					return fmt.Errorf("%s, %d jobs, round %d: %w", b.label, n, r, err)
				}
				rep.Label, rep.BusyBefore = b.label, 100*busy
				if err := writeReport(o.out, ro.label(), rep, ro.tag); err != nil {
					return err
				}
				reps[b.label] = append(reps[b.label], rep)
			}
		}
		md := abTable(bins, reps, n, rounds)
		path := filepath.Join(o.out, "ab-"+strconv.Itoa(n)+".md")
		if err := os.WriteFile(path, md, 0o644); err != nil {
			return err
		}
		fmt.Fprintln(os.Stderr, "benchsched: wrote", path)
		os.Stdout.Write(md)
	}
	return nil
}

// writeReport writes one run's report as sched-<admin>-<N><tag>.json.
func writeReport(dir, label string, rep *report, tag string) error {
	b, err := json.MarshalIndent(rep, "", "  ")
	if err != nil {
		return err
	}
	name := fmt.Sprintf("sched-%s-%d%s.json", label, rep.Jobs, tag)
	return os.WriteFile(filepath.Join(dir, name), append(b, '\n'), 0o644)
}

// abTable renders, per binary, the median and the range (min–max) of the
// repeats of each measure, and every run in the order it ran.
func abTable(bins []binary, reps map[string][]*report, n, rounds int) []byte {
	var b bytes.Buffer
	fmt.Fprintf(&b, "# benchsched A/B, %d jobs, %d rounds, %s\n\n", n, rounds, time.Now().UTC().Format("2006-01-02 15:04 MST"))
	b.WriteString("Median [min–max] of the rounds; the binaries alternated (A B, B A, …).\n\n")
	b.WriteString("| binary | runs/s | missed | dup | lateness p50 ms | lateness p99 ms | admin CPU ms/trigger | MariaDB CPU ms/trigger | other CPU % |\n")
	b.WriteString("|---|---:|---:|---:|---|---|---|---|---|\n")
	for _, bin := range bins {
		rs := reps[bin.label]
		col := func(f func(*report) float64, format string) string {
			v := make([]float64, len(rs))
			for i, r := range rs {
				v[i] = f(r)
			}
			return spread(v, format)
		}
		fmt.Fprintf(&b, "| %s | %s | %s | %s | %s | %s | %s | %s | %s |\n", bin.label,
			col(func(r *report) float64 { return r.TriggersPerSec }, "%.0f"),
			col(func(r *report) float64 { return float64(r.Missed) }, "%.0f"),
			col(func(r *report) float64 { return float64(r.Duplicates) }, "%.0f"),
			col(func(r *report) float64 { return r.LatenessMs.P50 }, "%.0f"),
			col(func(r *report) float64 { return r.LatenessMs.P99 }, "%.0f"),
			col(func(r *report) float64 { return r.CPUPerTrigger }, "%.4f"),
			col(func(r *report) float64 { return r.DBCPUPerTrig }, "%.4f"),
			col(func(r *report) float64 { return r.OtherCPUPercent }, "%.0f"))
	}
	b.WriteString("\nEvery run, in order:\n\n| round | binary | busy before % | p50 / p99 ms | admin CPU ms/trigger | MariaDB CPU ms/trigger | other CPU % |\n|---:|---|---:|---|---:|---:|---:|\n")
	for r := range rounds {
		order := slices.Clone(bins)
		if (r+1)%2 == 0 {
			slices.Reverse(order)
		}
		for _, bin := range order {
			if r >= len(reps[bin.label]) {
				continue
			}
			rep := reps[bin.label][r]
			fmt.Fprintf(&b, "| %d | %s | %.0f | %.0f / %.0f | %.4f | %.4f | %.0f |\n", r+1, bin.label, rep.BusyBefore,
				rep.LatenessMs.P50, rep.LatenessMs.P99, rep.CPUPerTrigger, rep.DBCPUPerTrig, rep.OtherCPUPercent)
		}
	}
	b.WriteString("\nbusy before %: the share of the box's CPU busy over the 2 s before the run began (each run first waits, up to -settle, for at most 15 %).\n")
	b.WriteString("other CPU %: the box's busy CPU time during the measured seconds that was neither the admin's, MariaDB's nor the harness's (executor included), in % of one core: other work on a shared machine.\n")
	return b.Bytes()
}

// Settling: on a shared box each run of an A/B comparison starts once the
// box is quiet — at most quietBusy of its CPU busy over quietWindow — or
// after limit, so that other work lands in the runs less often.
const (
	quietBusy   = 0.15
	quietWindow = 2 * time.Second
)

// settle waits for a quiet box, at most limit (0: not at all), and returns
// the busy share of the last window and how long it waited.
func settle(ctx context.Context, limit time.Duration) (busy float64, waited time.Duration, err error) {
	start := time.Now()
	for {
		idle0, total0, err := procstat.SystemCPU()
		if err != nil {
			return 0, 0, err
		}
		if !sleepUntil(ctx, time.Now().Add(quietWindow)) {
			return 0, 0, ctx.Err()
		}
		idle1, total1, err := procstat.SystemCPU()
		if err != nil {
			return 0, 0, err
		}
		if total1 > total0 {
			busy = 1 - float64(idle1-idle0)/float64(total1-total0)
		}
		if busy <= quietBusy || time.Since(start) >= limit {
			return busy, time.Since(start), nil
		}
	}
}

// spread is "median [min–max]" of v.
func spread(v []float64, format string) string {
	if len(v) == 0 {
		return "–"
	}
	s := slices.Clone(v)
	slices.Sort(s)
	med := s[len(s)/2]
	if len(s)%2 == 0 {
		med = (s[len(s)/2-1] + s[len(s)/2]) / 2
	}
	if len(s) == 1 {
		return fmt.Sprintf(format, med)
	}
	return fmt.Sprintf(format+" ["+format+"–"+format+"]", med, s[0], s[len(s)-1])
}
