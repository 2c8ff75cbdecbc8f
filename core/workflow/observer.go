package workflow

import "time"

// Observer sees what runs do (metrics); Config.Observe nil means none.
type Observer interface {
	// RunEnded: a run this admin moved ended in state (SUCCEEDED, FAILED
	// or STOPPED), or a start its concurrency policy skipped ("SKIPPED").
	RunEnded(state RunState)
	// NodeLateness: a node's trigger got its log row, just before its
	// /run, lateness after the step that decided it.
	NodeLateness(lateness time.Duration)
	// RunsInFlight: the runs running at the end of a pass (every admin's
	// pass sees the whole database).
	RunsInFlight(n int)
}

// RunSkipped is what Observer.RunEnded is told of a start the concurrency
// policy refused; no run has that state.
const RunSkipped RunState = "SKIPPED"

type noObserver struct{}

func (noObserver) RunEnded(RunState)          {}
func (noObserver) NodeLateness(time.Duration) {}
func (noObserver) RunsInFlight(int)           {}
