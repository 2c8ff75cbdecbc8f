package main

import (
	"context"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/xxl-admin-go/xxl-admin-go/compat/schema"
	"github.com/xxl-admin-go/xxl-admin-go/core/workflow"
	"github.com/xxl-admin-go/xxl-admin-go/internal/testsupport/testfactory"
)

// parallelMax bounds a workflow's runs at once (PolicyParallel): high
// enough that the policy never skips a start of the ladder.
const parallelMax = 100000

// rig is what the harness seeded: per measured shape, the jobs of its
// nodes (node → job id and back) and, for a workflow, its id.
type rig struct {
	group int
	// chainWF and chainChild are the A → B pair as a workflow edge and as
	// child_jobid; treeWF and treeChild the ladder's ten nodes.
	chainWF, chainChild, treeWF, treeChild plan
}

// plan is one shape wired one way.
type plan struct {
	shape    shape
	jobs     map[int]int // node → job id
	nodeOf   map[int]int // job id → node
	workflow int         // the workflow's id; 0 for child jobs
}

// seedJobs stores the group (its one address the executor) and the jobs
// of the four plans, none scheduled; the child-job plans' jobs carry
// their children in child_jobid.
func seedJobs(ctx context.Context, st *schema.Store, address string) (*rig, error) {
	now := time.Now()
	r := &rig{}
	err := st.WithTx(ctx, func(tx *schema.Store) error {
		var err error
		r.group, err = tx.GroupSave(ctx, schema.Group{AppName: "xxl-wfbench", Title: "wfbench", AddressType: 1,
			AddressList: schema.Ptr(address), UpdateTime: &now})
		if err != nil {
			return fmt.Errorf("save group: %w", err)
		}
		save := func(name string, sh shape, child bool) (plan, error) {
			p := plan{shape: sh, jobs: map[int]int{}, nodeOf: map[int]int{}}
			kids := sh.children()
			// Children first, so that a parent's child_jobid names jobs
			// that exist.
			for n := len(sh); n >= 1; n-- {
				o := testfactory.JobOpts{Group: r.group, Author: "wfbench", Handler: "h", At: now,
					Desc: fmt.Sprintf("%s node %d", name, n), Param: schema.Ptr(fmt.Sprintf("node=%d", n))}
				if child {
					ids := make([]string, len(kids[n]))
					for i, k := range kids[n] {
						ids[i] = strconv.Itoa(p.jobs[k])
					}
					o.ChildJobIDs = strings.Join(ids, ",")
				}
				id, err := tx.JobSave(ctx, testfactory.JobRow(o))
				if err != nil {
					return p, fmt.Errorf("save job %s node %d: %w", name, n, err)
				}
				p.jobs[n], p.nodeOf[id] = id, n
			}
			return p, nil
		}
		chain := shape{1: nil, 2: {1}}
		if r.chainWF, err = save("chain workflow", chain, false); err != nil {
			return err
		}
		if r.chainChild, err = save("chain child", chain, true); err != nil {
			return err
		}
		if r.treeWF, err = save("tree workflow", wfShape, false); err != nil {
			return err
		}
		r.treeChild, err = save("tree child", childShape, true)
		return err
	})
	if err != nil {
		return nil, fmt.Errorf("seed jobs: %w", err)
	}
	return r, nil
}

// seedWorkflows stores the two workflow plans as workflows (no schedule,
// PARALLEL); each node's parameter names its run. The admin must have
// started: it creates the workflow tables.
func seedWorkflows(ctx context.Context, st *schema.Store, r *rig) error {
	for _, p := range []*plan{&r.chainWF, &r.treeWF} {
		var g workflow.Graph
		for n := 1; n <= len(p.shape); n++ {
			param := fmt.Sprintf("run=${run.id} node=%d", n)
			g.Nodes = append(g.Nodes, workflow.Node{ID: n, JobID: p.jobs[n], Rule: workflow.AllSuccess, Param: &param})
			for _, parent := range p.shape[n] {
				g.Edges = append(g.Edges, workflow.Edge{From: parent, To: n})
			}
		}
		id, err := workflow.Save(ctx, st, workflow.Workflow{JobGroup: r.group, Name: fmt.Sprintf("wfbench %d nodes", len(p.shape)),
			Author: "wfbench", Graph: g, Schedule: workflow.Schedule{Type: "NONE", Misfire: "DO_NOTHING"},
			Concurrency: workflow.Concurrency{Policy: workflow.PolicyParallel, Max: parallelMax}}, time.Now(), time.Local)
		if err != nil {
			return fmt.Errorf("save workflow of %d nodes: %w", len(p.shape), err)
		}
		p.workflow = id
	}
	return nil
}
