package main

import (
	"fmt"
	"io"
	"strconv"
	"time"
)

// report is one database's results.
type report struct {
	DB        string
	Began     time.Time
	LoadStart string
	Work      time.Duration
	Late      time.Duration
	Lat       latencies
	Steps     []step
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
	fmt.Fprintf(w, "Node-to-node latency, A's callback posted → B's /run received, one run at a time, alternated:\n\n")
	fmt.Fprintln(w, "| wiring | samples | lost | p50 ms | p99 ms | max ms |")
	fmt.Fprintln(w, "|---|---:|---:|---:|---:|---:|")
	row := func(name string, ds []time.Duration, lost int) {
		fmt.Fprintf(w, "| %s | %d | %d | %s | %s | %s |\n", name, len(ds), lost, ms(quantile(ds, 0.5)), ms(quantile(ds, 0.99)), ms(quantile(ds, 1)))
	}
	row("workflow edge", r.Lat.workflow, r.Lat.lostWorkflow)
	row("child_jobid", r.Lat.child, r.Lat.lostChild)
	fmt.Fprintf(w, "\nThroughput of the 10-node shape (late: a node's /run more than %s after its parents' last callback, or never):\n\n", r.Late)
	fmt.Fprintln(w, "| runs/s | wiring | runs started | refused | nodes run / expected | doubled | late | lateness p50 / p99 / max ms | admin CPU ms/node | load after | on time |")
	fmt.Fprintln(w, "|---:|---|---:|---:|---|---:|---:|---|---:|---|---|")
	best := map[string]float64{}
	for _, s := range r.Steps {
		ok := "yes"
		if !s.ok(r.Late) {
			ok = "**no**"
		} else if s.Rate > best[s.Kind] {
			best[s.Kind] = s.Rate
		}
		ds := s.Out.Lateness
		fmt.Fprintf(w, "| %s | %s | %d | %d | %d / %d | %d | %d | %s / %s / %s | %.2f | %s | %s |\n", rate(s.Rate), s.Kind, s.Started, s.Refused,
			s.Out.Arrived, s.Out.Expected, s.Out.Doubled, s.Out.Late(r.Late), ms(quantile(ds, 0.5)), ms(quantile(ds, 0.99)), ms(quantile(ds, 1)),
			s.CPUPerNode, s.Load, ok)
	}
	fmt.Fprintf(w, "\nHighest rate with nothing late: workflow %s runs/s, child jobs %s runs/s.\n", rate(best["workflow"]), rate(best["child jobs"]))
	for _, s := range r.Steps {
		if s.Err != "" {
			fmt.Fprintf(w, "\n%s at %s runs/s, first refusal: %s\n", s.Kind, rate(s.Rate), s.Err)
		}
	}
	fmt.Fprintln(w)
}
