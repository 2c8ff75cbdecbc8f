package workflow

import (
	"context"
	"testing"
	"time"

	"github.com/xxl-admin-go/xxl-admin-go/compat/schema"
	"github.com/xxl-admin-go/xxl-admin-go/internal/testsupport/storetest"
	"github.com/xxl-admin-go/xxl-admin-go/internal/testsupport/testfactory"
)

// benchRun runs workflow runs of g to their ends, one after another, on
// one admin of ours (the production trigger pools as its door) with a
// fake executor on loopback and the embedded SQLite store.
func benchRun(b *testing.B, r *rig, g Graph) {
	wf := r.workflow(g, Concurrency{Policy: PolicyParallel, Max: 1000}, "")
	ctx := context.Background()
	for b.Loop() {
		id, err := r.admins[0].engine.StartRun(ctx, wf, StartRequest{TriggerType: "API"})
		if err != nil {
			b.Fatal(err)
		}
		if run := r.await(id); RunState(run.State) != RunSucceeded {
			b.Fatalf("run %d: %s", id, run.State)
		}
	}
}

// BenchmarkRun10 is a 10-node run (a root, a fan-out of eight, a fan-in):
// its start and three node-to-node steps of callback, decision, trigger
// and /run, eight of them at once in the middle.
func BenchmarkRun10(b *testing.B) {
	r := newRig(b, storetest.SQLite(b), 1)
	r.usePools()
	g := Graph{Nodes: []Node{{ID: 1, JobID: r.job(0)}, {ID: 10, JobID: r.job(0)}}}
	for i := 2; i <= 9; i++ {
		g.Nodes = append(g.Nodes, Node{ID: i, JobID: r.job(0)})
		g.Edges = append(g.Edges, Edge{From: 1, To: i}, Edge{From: i, To: 10})
	}
	benchRun(b, r, g)
}

// BenchmarkRun500 is a 500-node run (a root, a fan-out of 498 nodes over
// ten jobs, a fan-in): each of its 499 callbacks reads the run's 500 node
// runs and its graph.
func BenchmarkRun500(b *testing.B) {
	r := newRig(b, storetest.SQLite(b), 1)
	r.usePools()
	var jobs []int
	for range 10 {
		jobs = append(jobs, r.job(0))
	}
	g := Graph{Nodes: []Node{{ID: 1, JobID: jobs[0]}, {ID: 500, JobID: jobs[0]}}}
	for i := 2; i < 500; i++ {
		g.Nodes = append(g.Nodes, Node{ID: i, JobID: jobs[i%10]})
		g.Edges = append(g.Edges, Edge{From: 1, To: i}, Edge{From: i, To: 500})
	}
	benchRun(b, r, g)
}

// BenchmarkParentPass is one pass over a workflow started after a job
// whose parent has one execution running since before 50,000 logs of
// other jobs (the mark is held there): "cursor" is the pass as it runs,
// "from mark" reads every log since the mark each time, as a pass without
// its cursor would (a restarted admin's first pass).
func BenchmarkParentPass(b *testing.B) {
	s := storetest.SQLite(b)
	r := newRig(b, s, 1)
	ctx := context.Background()
	parent, node, other := r.job(0), r.job(0), r.job(0)
	wf := r.childWorkflow(parent, node, Concurrency{Policy: PolicyParallel, Max: 10})
	testfactory.Log(b, s, testfactory.LogOpts{Group: r.group.ID, Job: parent, TriggerCode: 200})
	at := time.Now()
	err := s.WithTx(ctx, func(tx *schema.Store) error {
		for range 50_000 {
			if _, err := tx.LogSave(ctx, schema.JobLog{JobGroup: r.group.ID, JobID: other, TriggerTime: &at}); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		b.Fatal(err)
	}
	e := r.admins[0].engine
	for _, mode := range []string{"cursor", "from mark"} {
		b.Run(mode, func(b *testing.B) {
			if err := e.passParents(ctx); err != nil {
				b.Fatal(err)
			}
			if c := e.cursors[wf]; c != nil {
				c.topAt = time.Time{} // a minute on: the next pass skips what it read
			}
			for b.Loop() {
				if mode == "from mark" {
					clear(e.cursors)
				}
				if err := e.passParents(ctx); err != nil {
					b.Fatal(err)
				}
			}
			if runs := r.runsOf(wf); len(runs) != 0 {
				b.Fatalf("runs %+v", runs)
			}
		})
	}
}
