package workflow

import "fmt"

// Rule is a node's trigger rule: which outcomes of its parents run it.
// The names and meanings are Airflow's.
type Rule string

// The trigger rules.
const (
	// AllSuccess runs the node when every parent succeeded; a parent
	// that failed or was skipped skips it (the default).
	AllSuccess Rule = "all_success"
	// AllDone runs it when every parent is final, whatever the outcomes.
	AllDone Rule = "all_done"
	// OneFailed runs it as soon as a parent failed; it is skipped when
	// every parent ended without failing.
	OneFailed Rule = "one_failed"
	// NoneFailed runs it when every parent succeeded or was skipped; a
	// parent that failed skips it.
	NoneFailed Rule = "none_failed"
)

// Rules lists the trigger rules, for validation and the console.
var Rules = []Rule{AllSuccess, AllDone, OneFailed, NoneFailed}

// orDefault is the rule, AllSuccess when unset.
func (r Rule) orDefault() Rule {
	if r == "" {
		return AllSuccess
	}
	return r
}

// valid reports whether r is one of Rules (or unset).
func (r Rule) valid() bool {
	for _, k := range Rules {
		if r.orDefault() == k {
			return true
		}
	}
	return false
}

// Decision is what a rule says about a waiting node.
type Decision int

// The decisions.
const (
	Wait Decision = iota // not yet decidable
	Run
	Skip
)

func (d Decision) String() string {
	return [...]string{"wait", "run", "skip"}[d]
}

// Decide applies the rule to the parents' states. A node without
// parents runs. A parent stopped counts as failed (a stopped run triggers
// nothing anyway).
func (r Rule) Decide(parents []NodeState) Decision {
	if len(parents) == 0 {
		return Run
	}
	var done, succeeded, failed int
	for _, s := range parents {
		if !s.Final() {
			continue
		}
		done++
		switch s {
		case NodeSucceeded:
			succeeded++
		case NodeFailed, NodeStopped:
			failed++
		}
	}
	all := done == len(parents)
	switch r.orDefault() {
	case AllSuccess:
		if done > succeeded {
			return Skip
		}
		if all {
			return Run
		}
	case AllDone:
		if all {
			return Run
		}
	case OneFailed:
		if failed > 0 {
			return Run
		}
		if all {
			return Skip
		}
	case NoneFailed:
		if failed > 0 {
			return Skip
		}
		if all {
			return Run
		}
	default:
		panic(fmt.Sprintf("workflow: unknown trigger rule %q", r))
	}
	return Wait
}
