package main

import (
	"testing"
	"time"
)

// t0 is the tests' time origin.
var t0 = time.Date(2026, 11, 29, 2, 0, 0, 0, time.UTC)

func at(ms int) time.Time { return t0.Add(time.Duration(ms) * time.Millisecond) }

// TestByRun pairs a fan-in node with its parents' last callback in the
// same run, counts a node that never came as missing and a second /run
// of one node as doubled.
func TestByRun(t *testing.T) {
	sh := shape{1: nil, 2: {1}, 3: {1}, 4: {2, 3}}
	nodeOf := map[int]int{11: 1, 12: 2, 13: 3, 14: 4}
	starts := []start{{Key: "7", Sent: at(0)}, {Key: "8", Sent: at(0)}}
	runs := []event{
		{JobID: 11, Param: "run=7 node=1", At: at(5)},
		{JobID: 12, Param: "run=7 node=2", At: at(30)},
		{JobID: 13, Param: "run=7 node=3", At: at(40)},
		{JobID: 14, Param: "run=7 node=4", At: at(1200)},
		{JobID: 14, Param: "run=7 node=4", At: at(1300)}, // doubled
		{JobID: 11, Param: "run=8 node=1", At: at(10)},   // the rest of run 8 never came
		{JobID: 99, Param: "run=7 node=1", At: at(10)},   // another plan's job
	}
	callbacks := []event{
		{JobID: 11, Param: "run=7 node=1", At: at(20)},
		{JobID: 12, Param: "run=7 node=2", At: at(50)},
		{JobID: 13, Param: "run=7 node=3", At: at(100)},
		{JobID: 11, Param: "run=8 node=1", At: at(20)},
	}
	o := byRun(sh, nodeOf, starts, runs, callbacks)
	if o.Expected != 8 || o.Arrived != 5 || o.Missing() != 3 || o.Doubled != 1 {
		t.Fatalf("expected/arrived/missing/doubled = %d/%d/%d/%d, want 8/5/3/1", o.Expected, o.Arrived, o.Missing(), o.Doubled)
	}
	// run 7: 5, 10, 20, 1100 (after node 3's callback at 100); run 8: 10
	want := []time.Duration{5, 10, 20, 1100, 10}
	for i, d := range want {
		if o.Lateness[i] != d*time.Millisecond {
			t.Errorf("lateness %d = %s, want %d ms", i, o.Lateness[i], d)
		}
	}
	if got := o.Late(time.Second); got != 4 { // one late, three missing
		t.Errorf("late = %d, want 4", got)
	}
}

// TestInOrder pairs a child's /runs with its parent's callbacks in time
// order and the root with its start by the key it carries.
func TestInOrder(t *testing.T) {
	sh := shape{1: nil, 2: {1}}
	nodeOf := map[int]int{21: 1, 22: 2}
	starts := []start{{Key: "a", Sent: at(0)}, {Key: "b", Sent: at(100)}}
	runs := []event{
		{JobID: 21, Param: "seq=b", At: at(130)},
		{JobID: 21, Param: "seq=a", At: at(10)},
		{JobID: 22, Param: "node=2", At: at(200)},
		{JobID: 22, Param: "node=2", At: at(60)},
	}
	callbacks := []event{
		{JobID: 21, Param: "seq=b", At: at(150)},
		{JobID: 21, Param: "seq=a", At: at(40)},
	}
	o := inOrder(sh, nodeOf, starts, runs, callbacks)
	if o.Expected != 4 || o.Arrived != 4 || o.Doubled != 0 {
		t.Fatalf("expected/arrived/doubled = %d/%d/%d, want 4/4/0", o.Expected, o.Arrived, o.Doubled)
	}
	want := []time.Duration{10, 30, 20, 50}
	for i, d := range want {
		if o.Lateness[i] != d*time.Millisecond {
			t.Errorf("lateness %d = %s, want %d ms", i, o.Lateness[i], d)
		}
	}
}

func TestQuantile(t *testing.T) {
	ds := []time.Duration{5, 1, 4, 2, 3}
	for _, c := range []struct {
		q    float64
		want time.Duration
	}{{0.5, 3}, {0.99, 5}, {1, 5}, {0.2, 1}} {
		if got := quantile(ds, c.q); got != c.want {
			t.Errorf("quantile(%v) = %d, want %d", c.q, got, c.want)
		}
	}
	if quantile(nil, 0.5) != 0 {
		t.Error("quantile of none is not 0")
	}
}

// TestShapes: the child-job tree has the workflow's nodes and one parent
// each; the workflow's fan-in is what it lacks.
func TestShapes(t *testing.T) {
	if len(wfShape) != 10 || len(childShape) != 10 || wfShape.edges() != 12 || childShape.edges() != 9 {
		t.Fatalf("nodes %d/%d, edges %d/%d", len(wfShape), len(childShape), wfShape.edges(), childShape.edges())
	}
	if k := childShape.children(); len(k[1]) != 3 || len(k[8]) != 1 || k[8][0] != 9 {
		t.Errorf("children = %v", k)
	}
}
