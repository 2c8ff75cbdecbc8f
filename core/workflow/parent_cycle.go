package workflow

import (
	"context"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/xxl-admin-go/xxl-admin-go/compat/schema"
)

// parentCycle finds the workflows that would start each other for ever
// through their parents once w is saved: w runs job J (a node's job, or a
// job its child_jobid fires after a node's success, and so on), J is the
// parent of workflow V, V runs the parent of w (or of another workflow on
// the way back). It describes the first cycle through w found, "" when
// none. Only workflows started after a job can be on such a cycle, so only
// those are read; disabled ones count, as enabling one must not make a
// cycle.
func parentCycle(ctx context.Context, s *schema.Store, w Workflow) (string, error) {
	if _, ok := w.Schedule.ParentJob(); !ok {
		return "", nil
	}
	rows, err := s.WorkflowsByType(ctx, ScheduleJob)
	if err != nil {
		return "", err
	}
	all := []Workflow{w}
	for _, r := range rows {
		if r.ID == w.ID && w.ID != 0 {
			continue
		}
		o, err := FromRow(r)
		if err != nil {
			continue
		}
		all = append(all, o)
	}
	// started[j]: the workflows (indexes in all) job j starts.
	started := map[int][]int{}
	for i, o := range all {
		if p, ok := o.Schedule.ParentJob(); ok {
			started[p] = append(started[p], i)
		}
	}
	var nodeJobs []int
	for _, o := range all {
		for _, n := range o.Graph.Nodes {
			nodeJobs = append(nodeJobs, n.JobID)
		}
	}
	children, err := childClosure(ctx, s, nodeJobs)
	if err != nil {
		return "", err
	}
	// Breadth-first from w; via[i] is the step reaching workflow i.
	via := map[int]cycleStep{}
	queue := []int{0}
	for len(queue) > 0 {
		cur := queue[0]
		queue = queue[1:]
		for _, n := range all[cur].Graph.Nodes {
			for _, fired := range children.fired(n.JobID) {
				for _, next := range started[fired] {
					if _, seen := via[next]; seen {
						continue
					}
					via[next] = cycleStep{from: cur, node: n.JobID, job: fired}
					if next == 0 {
						return describeParentCycle(all, via), nil
					}
					queue = append(queue, next)
				}
			}
		}
	}
	return "", nil
}

// cycleStep is how a workflow was reached: workflow from runs job node,
// whose success fires job (node itself, or a child of it down the
// child_jobid chain), the reached workflow's parent.
type cycleStep struct{ from, node, job int }

// childGraph is the child_jobid of the jobs a cycle may pass through.
type childGraph map[int][]int

// childClosure reads the child_jobid of jobs and of their children, and
// so on, in a few batched reads (each reads only jobs not read yet).
func childClosure(ctx context.Context, s *schema.Store, jobs []int) (childGraph, error) {
	g := childGraph{}
	read := map[int]bool{}
	for frontier := jobs; len(frontier) > 0; {
		var want []int
		for _, j := range frontier {
			if !read[j] {
				read[j] = true
				want = append(want, j)
			}
		}
		if len(want) == 0 {
			break
		}
		lists, err := s.JobChildLists(ctx, want)
		if err != nil {
			return nil, err
		}
		frontier = nil
		for id, list := range lists {
			for _, item := range strings.Split(list, ",") {
				if c, err := strconv.Atoi(strings.TrimSpace(item)); err == nil && c > 0 {
					g[id] = append(g[id], c)
					frontier = append(frontier, c)
				}
			}
		}
	}
	return g, nil
}

// fired is job and every job its success fires through child_jobid, job
// first.
func (g childGraph) fired(job int) []int {
	out := []int{job}
	seen := map[int]bool{job: true}
	for i := 0; i < len(out); i++ {
		for _, c := range g[out[i]] {
			if !seen[c] {
				seen[c] = true
				out = append(out, c)
			}
		}
	}
	return out
}

// describeParentCycle names the cycle back to all[0] that via records.
func describeParentCycle(all []Workflow, via map[int]cycleStep) string {
	name := func(i int) string {
		if i == 0 {
			return "this workflow"
		}
		return fmt.Sprintf("workflow %d %q", all[i].ID, all[i].Name)
	}
	var parts []string
	for cur := 0; ; {
		st := via[cur]
		parts = append(parts, fmt.Sprintf("job %d starts %s", st.job, name(cur)))
		if st.node != st.job {
			parts = append(parts, fmt.Sprintf("job %d fires job %d through child_jobid", st.node, st.job))
		}
		parts = append(parts, fmt.Sprintf("%s runs job %d", name(st.from), st.node))
		cur = st.from
		if cur == 0 {
			break
		}
	}
	slices.Reverse(parts)
	return strings.Join(parts, ", ")
}
