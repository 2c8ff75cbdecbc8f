package workflow

import (
	"errors"
	"strings"
	"testing"
)

// groupOf knows jobs 1..999 in group 1 and 1000 in group 2.
func groupOf(id int) (int, bool) {
	switch {
	case id >= 1 && id < 1000:
		return 1, true
	case id == 1000:
		return 2, true
	}
	return 0, false
}

func chain(n int) Graph {
	var g Graph
	for i := 1; i <= n; i++ {
		g.Nodes = append(g.Nodes, Node{ID: i, JobID: i})
		if i > 1 {
			g.Edges = append(g.Edges, Edge{From: i - 1, To: i})
		}
	}
	return g
}

func TestValidate(t *testing.T) {
	ok := Workflow{Name: "etl", JobGroup: 1, Graph: Graph{
		Nodes: []Node{{ID: 1, JobID: 1}, {ID: 2, JobID: 2, Rule: AllDone}, {ID: 3, JobID: 1, Label: "load"}},
		Edges: []Edge{{1, 3}, {2, 3}},
	}}
	with := func(f func(w *Workflow)) Workflow {
		w := ok
		w.Graph.Nodes = append([]Node(nil), ok.Graph.Nodes...)
		w.Graph.Edges = append([]Edge(nil), ok.Graph.Edges...)
		f(&w)
		return w
	}
	tests := []struct {
		name string
		w    Workflow
		want []string // substrings of the error; none: valid
	}{
		{"fan-in", ok, nil},
		{"cron in a zone", with(func(w *Workflow) {
			w.Schedule = Schedule{Type: "CRON", Conf: "0 0 2 * * ?", TimeZone: "Europe/Berlin", Misfire: "FIRE_ONCE_NOW"}
			w.Concurrency = Concurrency{Policy: PolicyParallel, Max: 3}
			w.Params = "day=today"
		}), nil},
		{"no name", with(func(w *Workflow) { w.Name = " " }), []string{"the name is empty"}},
		{"no nodes", with(func(w *Workflow) { w.Graph = Graph{} }), []string{"at least one node"}},
		{"cycle named", with(func(w *Workflow) {
			w.Graph.Edges = append(w.Graph.Edges, Edge{3, 2})
		}), []string{`cycle: 3 "load" (job 1) → 2 (job 2) → 3 "load" (job 1)`}},
		{"self edge", with(func(w *Workflow) { w.Graph.Edges = append(w.Graph.Edges, Edge{1, 1}) }), []string{"cannot follow itself"}},
		{"unknown job", with(func(w *Workflow) { w.Graph.Nodes[0].JobID = 5000 }), []string{"job 5000 does not exist"}},
		{"other group", with(func(w *Workflow) { w.Graph.Nodes[1].JobID = 1000 }), []string{"belongs to executor group 2"}},
		{"duplicate id", with(func(w *Workflow) { w.Graph.Nodes[2].ID = 1 }), []string{"node id 1 is used twice"}},
		{"edge to nowhere", with(func(w *Workflow) { w.Graph.Edges[0].To = 9 }), []string{"no node 9"}},
		{"edge twice", with(func(w *Workflow) { w.Graph.Edges = append(w.Graph.Edges, Edge{1, 3}) }), []string{"given twice"}},
		{"bad rule", with(func(w *Workflow) { w.Graph.Nodes[0].Rule = "any" }), []string{`unknown trigger rule "any"`}},
		{"bad cron", with(func(w *Workflow) { w.Schedule = Schedule{Type: "CRON", Conf: "nope"} }), []string{`CRON "nope"`}},
		{"bad rate", with(func(w *Workflow) { w.Schedule = Schedule{Type: "FIX_RATE", Conf: "0"} }), []string{"FIX_RATE"}},
		{"bad zone", with(func(w *Workflow) { w.Schedule = Schedule{Type: "CRON", Conf: "0 * * * * ?", TimeZone: "Mars/Base"} }), []string{"Mars/Base"}},
		{"bad policy", with(func(w *Workflow) { w.Concurrency = Concurrency{Policy: PolicyParallel} }), []string{"at least 1 run"}},
		{"bad params", with(func(w *Workflow) { w.Params = "x" }), []string{"run parameter 1"}},
		{"all at once", with(func(w *Workflow) { w.Name = ""; w.Graph.Nodes[0].JobID = 0 }), []string{"name is empty", "job 0 does not exist"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := Validate(tt.w, groupOf)
			if len(tt.want) == 0 {
				if err != nil {
					t.Fatalf("Validate = %v, want nil", err)
				}
				return
			}
			if !errors.Is(err, ErrInvalid) {
				t.Fatalf("Validate = %v, want ErrInvalid", err)
			}
			for _, w := range tt.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("error %q lacks %q", err, w)
				}
			}
		})
	}
}

// TestValidateLarge: a chain of 500 nodes (the deepest graph of that
// size) and a 500-node cycle are judged without recursion; the cycle is
// named in full.
func TestValidateLarge(t *testing.T) {
	g := chain(500)
	if err := Validate(Workflow{Name: "long", JobGroup: 1, Graph: g}, groupOf); err != nil {
		t.Fatal(err)
	}
	g.Edges = append(g.Edges, Edge{From: 500, To: 1})
	err := Validate(Workflow{Name: "loop", JobGroup: 1, Graph: g}, groupOf)
	if err == nil || !strings.Contains(err.Error(), "cycle: 1 (job 1) → 2 (job 2)") || !strings.Contains(err.Error(), "500 (job 500) → 1 (job 1)") {
		t.Fatalf("Validate = %v", err)
	}
}

func BenchmarkValidate500(b *testing.B) {
	g := chain(500)
	for i := 3; i <= 500; i++ { // and a fan-in from every node two back
		g.Edges = append(g.Edges, Edge{From: i - 2, To: i})
	}
	w := Workflow{Name: "bench", JobGroup: 1, Graph: g}
	for b.Loop() {
		if err := Validate(w, groupOf); err != nil {
			b.Fatal(err)
		}
	}
}
