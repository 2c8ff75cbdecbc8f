package workflow

import (
	"context"
	"testing"

	"github.com/xxl-admin-go/xxl-admin-go/internal/testsupport/storetest"
)

// BenchmarkRun10 runs a 10-node workflow (a root, a fan-out of eight, a
// fan-in) to its end, one run after another, on one admin of ours with a
// fake executor on loopback and the embedded SQLite store: the time per
// run is nine node-to-node steps (callback, decision, trigger, /run) and
// the run's start.
func BenchmarkRun10(b *testing.B) {
	s := storetest.SQLite(b)
	r := newRig(b, s, 1)
	var g Graph
	g.Nodes = append(g.Nodes, Node{ID: 1, JobID: r.job(0)})
	for i := 2; i <= 9; i++ {
		g.Nodes = append(g.Nodes, Node{ID: i, JobID: r.job(0)})
		g.Edges = append(g.Edges, Edge{From: 1, To: i}, Edge{From: i, To: 10})
	}
	g.Nodes = append(g.Nodes, Node{ID: 10, JobID: r.job(0)})
	wf := r.workflow(g, Concurrency{Policy: PolicyParallel, Max: 1000}, "")
	ctx := context.Background()
	for b.Loop() {
		id, err := r.admins[0].engine.StartRun(ctx, wf, StartRequest{TriggerType: "API"})
		if err != nil {
			b.Fatal(err)
		}
		if run := r.idle(id); RunState(run.State) != RunSucceeded {
			b.Fatalf("run %d: %s", id, run.State)
		}
	}
}
