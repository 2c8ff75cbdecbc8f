package main

import (
	"slices"
	"strings"
	"time"
)

// start is one run started through the job API: its key (the workflow
// run's id, or the sequence number a child tree's root carries in its
// parameter) and when the request was sent.
type start struct {
	Key  string
	Sent time.Time
}

// outcome is what one step's runs did at the executor.
type outcome struct {
	Expected int             // nodes the started runs should have run
	Arrived  int             // of them, /runs received
	Doubled  int             // /runs beyond the first for one run's node
	Lateness []time.Duration // per node: its /run − its parents' last callback (the root: − the start request)
}

// Missing is the nodes that never reached the executor.
func (o outcome) Missing() int { return o.Expected - o.Arrived }

// Late counts the nodes whose /run came more than limit after they were
// due, and the missing ones.
func (o outcome) Late(limit time.Duration) int {
	n := o.Missing()
	for _, d := range o.Lateness {
		if d > limit {
			n++
		}
	}
	return n
}

// paramValue is the value of name=value in a space-separated parameter.
func paramValue(param, name string) string {
	for _, f := range strings.Fields(param) {
		if v, ok := strings.CutPrefix(f, name+"="); ok {
			return v
		}
	}
	return ""
}

// byRun pairs a workflow's events exactly: every node's parameter names
// its run (run=${run.id}), so a node's /run is measured from the last
// callback of its parents in the same run.
func byRun(sh shape, nodeOf map[int]int, starts []start, runs, callbacks []event) outcome {
	type at map[int]time.Time // node → time
	index := func(evs []event, dup *int) map[string]at {
		out := map[string]at{}
		for _, ev := range evs {
			node, ok := nodeOf[ev.JobID]
			if !ok {
				continue
			}
			key := paramValue(ev.Param, "run")
			if out[key] == nil {
				out[key] = at{}
			}
			if _, seen := out[key][node]; seen {
				if dup != nil {
					*dup++
				}
				continue
			}
			out[key][node] = ev.At
		}
		return out
	}
	var o outcome
	runAt := index(runs, &o.Doubled)
	cbAt := index(callbacks, nil)
	for _, s := range starts {
		for n := 1; n <= len(sh); n++ {
			o.Expected++
			got, ok := runAt[s.Key][n]
			if !ok {
				continue
			}
			o.Arrived++
			due, known := s.Sent, true
			for i, p := range sh[n] {
				t, ok := cbAt[s.Key][p]
				known = known && ok
				if i == 0 || t.After(due) {
					due = t
				}
			}
			if known {
				o.Lateness = append(o.Lateness, got.Sub(due))
			}
		}
	}
	return o
}

// inOrder pairs a child-job tree's events as well as they can be paired:
// a child's /run names no parent run (it carries the child job's own
// parameter), so the i-th /run of a child is paired with the i-th
// callback of its parent, in time order — exact while the admin triggers
// children in the order of their parents' callbacks. The root's /run
// carries the start's key (seq=K) and is paired exactly.
func inOrder(sh shape, nodeOf map[int]int, starts []start, runs, callbacks []event) outcome {
	byNode := func(evs []event) map[int][]event {
		out := map[int][]event{}
		for _, ev := range evs {
			if node, ok := nodeOf[ev.JobID]; ok {
				out[node] = append(out[node], ev)
			}
		}
		for _, l := range out {
			slices.SortFunc(l, func(a, b event) int { return a.At.Compare(b.At) })
		}
		return out
	}
	runAt, cbAt := byNode(runs), byNode(callbacks)
	o := outcome{Expected: len(starts) * len(sh)}
	sent := map[string]time.Time{}
	for _, s := range starts {
		sent[s.Key] = s.Sent
	}
	roots := map[string]bool{}
	for _, ev := range runAt[1] {
		key := paramValue(ev.Param, "seq")
		t, ok := sent[key]
		switch {
		case !ok:
		case roots[key]:
			o.Doubled++
		default:
			roots[key] = true
			o.Arrived++
			o.Lateness = append(o.Lateness, ev.At.Sub(t))
		}
	}
	for n := 2; n <= len(sh); n++ {
		got, parent := runAt[n], cbAt[sh[n][0]]
		for i, ev := range got {
			if i >= len(parent) {
				o.Doubled++ // more /runs than parent callbacks
				continue
			}
			o.Arrived++
			o.Lateness = append(o.Lateness, ev.At.Sub(parent[i].At))
		}
	}
	o.Arrived = min(o.Arrived, o.Expected)
	return o
}

// quantile is the nearest-rank q-quantile of ds (sorted in place); 0 for
// none.
func quantile(ds []time.Duration, q float64) time.Duration {
	if len(ds) == 0 {
		return 0
	}
	slices.Sort(ds)
	i := int(q*float64(len(ds))+0.999999) - 1
	return ds[max(0, min(i, len(ds)-1))]
}
