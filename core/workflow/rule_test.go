package workflow

import "testing"

func TestRuleDecide(t *testing.T) {
	const (
		W = NodeWaiting
		T = NodeTriggered
		S = NodeSucceeded
		F = NodeFailed
		K = NodeSkipped
		X = NodeStopped
	)
	tests := []struct {
		rule    Rule
		parents []NodeState
		want    Decision
	}{
		{AllSuccess, nil, Run},
		{"", []NodeState{S, S}, Run},
		{AllSuccess, []NodeState{S, T}, Wait},
		{AllSuccess, []NodeState{F, T}, Skip},
		{AllSuccess, []NodeState{K, S}, Skip},
		{AllDone, []NodeState{F, S, K}, Run},
		{AllDone, []NodeState{F, W}, Wait},
		{OneFailed, []NodeState{T, F}, Run},
		{OneFailed, []NodeState{X, S}, Run},
		{OneFailed, []NodeState{S, T}, Wait},
		{OneFailed, []NodeState{S, K}, Skip},
		{NoneFailed, []NodeState{S, K}, Run},
		{NoneFailed, []NodeState{S, T}, Wait},
		{NoneFailed, []NodeState{T, F}, Skip},
	}
	for _, tt := range tests {
		if got := tt.rule.Decide(tt.parents); got != tt.want {
			t.Errorf("%q.Decide(%v) = %v, want %v", tt.rule, tt.parents, got, tt.want)
		}
	}
}

func TestOutcome(t *testing.T) {
	tests := []struct {
		nodes []NodeState
		want  RunState
		done  bool
	}{
		{[]NodeState{NodeSucceeded, NodeSkipped}, RunSucceeded, true},
		{[]NodeState{NodeSucceeded, NodeFailed, NodeSucceeded}, RunFailed, true},
		{[]NodeState{NodeFailed, NodeTriggered}, "", false},
		{[]NodeState{NodeWaiting}, "", false},
	}
	for _, tt := range tests {
		got, done := Outcome(tt.nodes)
		if got != tt.want || done != tt.done {
			t.Errorf("Outcome(%v) = %v, %v; want %v, %v", tt.nodes, got, done, tt.want, tt.done)
		}
	}
}
