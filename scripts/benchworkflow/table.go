package main

import (
	"fmt"
	"io"
	"strconv"
	"strings"
	"time"
)

// report is one database's results.
type report struct {
	DB        string
	Began     time.Time
	LoadStart string
	// LoadLatency is the load average as the latency part began.
	LoadLatency string
	// IdleCPU is the admin's CPU share while idle (subtracted from each
	// rung's CPU per node).
	IdleCPU float64
	Work    time.Duration
	Late    time.Duration
	Lat     latencies
	Steps   []step
}

func ms(d time.Duration) string {
	if d < 10*time.Millisecond {
		return strconv.FormatFloat(float64(d)/float64(time.Millisecond), 'f', 1, 64)
	}
	return strconv.FormatInt(d.Milliseconds(), 10)
}

func rate(r float64) string { return strconv.FormatFloat(r, 'f', -1, 64) }

// writeReport writes the report's two tables as Markdown.
func writeReport(w io.Writer, r report) {
	fmt.Fprintf(w, "### %s, %s UTC (load average at start %s; work time %s)\n\n", r.DB, r.Began.UTC().Format("2006-01-02 15:04"), r.LoadStart, r.Work)
	fmt.Fprintf(w, "Node-to-node latency, A's callback posted → B's /run received, one run at a time, alternated (load average %s):\n\n", r.LoadLatency)
	fmt.Fprintln(w, "| wiring | samples | lost | p50 ms | p99 ms | max ms |")
	fmt.Fprintln(w, "|---|---:|---:|---:|---:|---:|")
	row := func(name string, ds []time.Duration, lost int) {
		fmt.Fprintf(w, "| %s | %d | %d | %s | %s | %s |\n", name, len(ds), lost, ms(quantile(ds, 0.5)), ms(quantile(ds, 0.99)), ms(quantile(ds, 1)))
	}
	row("workflow edge", r.Lat.workflow, r.Lat.lostWorkflow)
	row("child_jobid", r.Lat.child, r.Lat.lostChild)
	fmt.Fprintf(w, "\nThroughput of the 10-node shape (late: a node's /run more than %s after its parents' last callback, or never):\n\n", r.Late)
	fmt.Fprintln(w, "| runs/s | wiring | runs started | starts refused | nodes run / expected | doubled | late | lateness p50 / p99 / max ms | callbacks refused | admin CPU ms/node | box busy before / load after | on time |")
	fmt.Fprintln(w, "|---:|---|---:|---:|---|---:|---:|---|---:|---:|---|---|")
	best := map[string]float64{}
	for _, s := range r.Steps {
		ok := "yes"
		if !s.ok(r.Late) {
			ok = "**no**"
		} else if s.Rate > best[s.Kind] {
			best[s.Kind] = s.Rate
		}
		ds := s.Out.Lateness
		fmt.Fprintf(w, "| %s | %s | %d | %d | %d / %d | %d | %d | %s / %s / %s | %d | %.2f | %.0f %% / %s | %s |\n", rate(s.Rate), s.Kind, s.Started, s.Refused,
			s.Out.Arrived, s.Out.Expected, s.Out.Doubled, s.Out.Late(r.Late), ms(quantile(ds, 0.5)), ms(quantile(ds, 0.99)), ms(quantile(ds, 1)),
			s.CallbacksRefused, s.CPUPerNode, 100*s.BusyBefore, load1(s.Load), ok)
	}
	fmt.Fprintf(w, "\nAdmin CPU per node is over the rung and its drain, less the admin's idle CPU (%.1f %% of a core) over the same time.\n", 100*r.IdleCPU)
	fmt.Fprintf(w, "\nHighest rate with nothing late: workflow %s runs/s, child jobs %s runs/s.\n", rate(best["workflow"]), rate(best["child jobs"]))
	for _, s := range r.Steps {
		if s.Err != "" {
			fmt.Fprintf(w, "\n%s at %s runs/s, first refusal: %s\n", s.Kind, rate(s.Rate), s.Err)
		}
	}
	fmt.Fprintln(w)
}

// load1 is the one-minute load average of a /proc/loadavg triple.
func load1(l string) string {
	if f := strings.Fields(l); len(f) > 0 {
		return f[0]
	}
	return l
}
