package durable

import (
	"bytes"
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/xxl-admin-go/xxl-admin-go/internal/testsupport/fakeexec"
)

// Figures are what a run (or several, added up) measured. A child is
// decided when its parent's success is stored (each parent decides two);
// a retry when its failed log carries the retry marker. "Fired once" is
// from the executor's ledger (runs started per log id) and from
// xxl_job_log (rows per job); lost and doubled likewise.
type Figures struct {
	Runs, Kills int
	// ChildrenDecided and RetriesDecided are the decisions; FiredOnce how
	// many of them the executor ran exactly once, Lost and Doubled the
	// rest (Doubled also counts a log id run twice). The Log… figures are
	// the same from xxl_job_log's rows.
	ChildrenDecided, RetriesDecided   int
	FiredOnce, Lost, Doubled          int
	LogFiredOnce, LogLost, LogDoubled int
	// Unrecorded counts child and retry rows left without a trigger
	// result; Undecided failed logs a killed admin's fail monitor left
	// claimed (taken back after 10 minutes, then retried: not decided yet).
	Unrecorded, Undecided int
	// MarkerLost counts failed originals a fail monitor handled (their
	// retry decided) whose trigger_msg no longer carries the retry marker.
	MarkerLost int
	// Unsettled counts the rows of every job of the run (parents too)
	// left without any result — trigger_code 0 and handle_code 0, a
	// trigger whose admin died between its log row and its result — once
	// the admins' settlers have seen to them.
	Unsettled int
	// TakenOver counts the pending triggers admins took over from a
	// killed one, by "stage/outcome"; Settled the rows without a result
	// admins settled, by outcome (from the admins' logs).
	TakenOver, Settled map[string]int
	// Wf is the workflow load's figures (zero when it had none).
	Wf WfFigures
	// Examples show the first families whose children or retries were
	// lost or doubled: the rows of the family's child jobs.
	Examples []string
}

// Add adds another run's figures.
func (f *Figures) Add(o Figures) {
	f.Runs += o.Runs
	f.Kills += o.Kills
	f.ChildrenDecided += o.ChildrenDecided
	f.RetriesDecided += o.RetriesDecided
	f.FiredOnce += o.FiredOnce
	f.Lost += o.Lost
	f.Doubled += o.Doubled
	f.LogFiredOnce += o.LogFiredOnce
	f.LogLost += o.LogLost
	f.LogDoubled += o.LogDoubled
	f.Unrecorded += o.Unrecorded
	f.Undecided += o.Undecided
	f.MarkerLost += o.MarkerLost
	f.Unsettled += o.Unsettled
	f.Wf.Add(o.Wf)
	for _, e := range o.Examples {
		if len(f.Examples) < maxExamples {
			f.Examples = append(f.Examples, e)
		}
	}
	if f.TakenOver == nil {
		f.TakenOver = map[string]int{}
	}
	for k, v := range o.TakenOver {
		f.TakenOver[k] += v
	}
	if f.Settled == nil {
		f.Settled = map[string]int{}
	}
	for k, v := range o.Settled {
		f.Settled[k] += v
	}
}

// Decided is all decisions.
func (f Figures) Decided() int { return f.ChildrenDecided + f.RetriesDecided }

// Table is the figures as the report prints them.
func (f Figures) Table() string {
	var b strings.Builder
	line := func(k string, v any) { fmt.Fprintf(&b, "  %-44s %v\n", k, v) }
	line("runs", f.Runs)
	line("admins SIGKILLed", f.Kills)
	line("children decided", f.ChildrenDecided)
	line("retries decided", f.RetriesDecided)
	line("fired once (executor ledger)", f.FiredOnce)
	line("lost (executor ledger)", f.Lost)
	line("doubled (executor ledger)", f.Doubled)
	line("fired once (xxl_job_log)", f.LogFiredOnce)
	line("lost (xxl_job_log)", f.LogLost)
	line("doubled (xxl_job_log)", f.LogDoubled)
	line("child/retry rows without a result", f.Unrecorded)
	line("failed logs left claimed (not decided yet)", f.Undecided)
	if f.MarkerLost > 0 {
		line("retries decided, marker text overwritten", f.MarkerLost)
	}
	line("rows left without a result (every job)", f.Unsettled)
	if f.Wf.Runs > 0 {
		f.Wf.table(line)
	}
	for _, k := range slices.Sorted(maps.Keys(f.TakenOver)) {
		line("taken over at "+k, f.TakenOver[k])
	}
	for _, k := range slices.Sorted(maps.Keys(f.Settled)) {
		line("settled: "+k, f.Settled[k])
	}
	return b.String()
}

// count pairs the decisions with the runs: per family, the parent's
// stored successes decide one run of each child; each failing child's
// marked original decides one retry.
func count(l *Load, rows []row, ledger map[int64]fakeexec.Entry, marker string) Figures {
	type tally struct{ okParents, child, orig, retry, marked, execChild, execOrig, execRetry int }
	per := map[int]*tally{} // by parent
	famOf := map[int]int{}  // job → parent
	for _, f := range l.Families {
		per[f.Parent] = &tally{}
		famOf[f.Parent], famOf[f.Child], famOf[f.Failing] = f.Parent, f.Parent, f.Parent
	}
	var fig Figures
	byID := map[int64]row{}
	rowsOf := map[int][]row{} // by parent: the child jobs' rows
	for _, r := range rows {
		byID[r.id] = r
		if k := l.Kind(r.job); k == "C" || k == "F" {
			rowsOf[famOf[r.job]] = append(rowsOf[famOf[r.job]], r)
		}
		if r.triggerCode == 0 && r.handleCode == 0 {
			fig.Unsettled++
		}
		t := per[famOf[r.job]]
		if t == nil {
			continue
		}
		switch l.Kind(r.job) {
		case "P":
			if r.handleCode == 200 {
				t.okParents++
			}
			continue
		case "C":
			t.child++
		case "F":
			if r.retryCount == 1 {
				t.orig++
				switch {
				case strings.Contains(r.triggerMsg, marker):
					t.marked++
				case r.alarmStatus > 0:
					// Handled by a fail monitor, which decides the
					// retry before it moves alarm_status on, but the
					// marker is not in trigger_msg: a later write of
					// the trigger info replaced it (seen under a load
					// average of 40).
					t.marked++
					fig.MarkerLost++
				case r.alarmStatus < 0:
					fig.Undecided++
				}
			} else {
				t.retry++
			}
		}
		if r.triggerCode == 0 {
			fig.Unrecorded++
		}
	}
	for id, e := range ledger {
		kind := l.Kind(e.JobID)
		if (kind != "C" && kind != "F") || e.Started == 0 {
			continue
		}
		if e.Started > 1 {
			fig.Doubled += e.Started - 1
		}
		t := per[famOf[e.JobID]]
		switch r, ok := byID[id]; {
		case kind == "C":
			t.execChild++
		case ok && r.retryCount == 1:
			t.execOrig++
		case ok:
			t.execRetry++
		default:
			fig.Doubled++ // a run of no log row of the run
		}
	}
	add := func(want, got int, once, lost, doubled *int) {
		*once += min(want, got)
		*lost += max(want-got, 0)
		*doubled += max(got-want, 0)
	}
	for parent, t := range per {
		before := fig.Lost + fig.Doubled + fig.LogLost + fig.LogDoubled
		fig.ChildrenDecided += 2 * t.okParents
		fig.RetriesDecided += t.marked
		add(t.okParents, t.execChild, &fig.FiredOnce, &fig.Lost, &fig.Doubled)
		add(t.okParents, t.execOrig, &fig.FiredOnce, &fig.Lost, &fig.Doubled)
		add(t.marked, t.execRetry, &fig.FiredOnce, &fig.Lost, &fig.Doubled)
		add(t.okParents, t.child, &fig.LogFiredOnce, &fig.LogLost, &fig.LogDoubled)
		add(t.okParents, t.orig, &fig.LogFiredOnce, &fig.LogLost, &fig.LogDoubled)
		add(t.marked, t.retry, &fig.LogFiredOnce, &fig.LogLost, &fig.LogDoubled)
		if fig.Lost+fig.Doubled+fig.LogLost+fig.LogDoubled != before && len(fig.Examples) < maxExamples {
			var b strings.Builder
			fmt.Fprintf(&b, "family of parent job %d (%+v):", parent, *t)
			for _, r := range rowsOf[parent] {
				fmt.Fprintf(&b, " [log %d job %d %s retry %d trigger %d handle %d started %d]", r.id, r.job, l.Kind(r.job),
					r.retryCount, r.triggerCode, r.handleCode, ledger[r.id].Started)
			}
			fig.Examples = append(fig.Examples, b.String())
		}
	}
	return fig
}

// takenOver counts the sweepers' takeovers in an admin's JSON log by
// "stage/outcome".
func takenOver(log []byte, into map[string]int) {
	for _, l := range bytes.Split(log, []byte("\n")) {
		if !bytes.Contains(l, []byte(`"took over a pending trigger`)) {
			continue
		}
		var m struct {
			Stage   int    `json:"stage"`
			Outcome string `json:"outcome"`
		}
		if json.Unmarshal(l, &m) == nil && m.Outcome != "" {
			into[[]string{"decided", "logged", "sending"}[min(max(m.Stage, 0), 2)]+"/"+m.Outcome]++
		}
	}
}

// settled counts the settlers' settlements in an admin's JSON log by
// outcome.
func settled(log []byte, into map[string]int) {
	for _, l := range bytes.Split(log, []byte("\n")) {
		if !bytes.Contains(l, []byte(`"settled a log row`)) {
			continue
		}
		var m struct {
			Outcome string `json:"outcome"`
		}
		if json.Unmarshal(l, &m) == nil && m.Outcome != "" {
			into[m.Outcome]++
		}
	}
}
