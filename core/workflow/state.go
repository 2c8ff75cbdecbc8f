package workflow

// NodeState is where a node of a run stands; it is stored in
// xxl_job_workflow_node_run.state.
type NodeState string

// The node states. Waiting and Triggered are open; the others are final.
const (
	// NodeWaiting: its rule has not decided yet.
	NodeWaiting NodeState = "WAITING"
	// NodeTriggered: its trigger is decided (a pending row exists or its
	// log row was written) and its outcome is not known.
	NodeTriggered NodeState = "TRIGGERED"
	NodeSucceeded NodeState = "SUCCEEDED"
	NodeFailed    NodeState = "FAILED"
	// NodeSkipped: its rule ruled it out (or an operator skipped it).
	NodeSkipped NodeState = "SKIPPED"
	// NodeStopped: its run was stopped before it ended.
	NodeStopped NodeState = "STOPPED"
)

// Final reports whether the state is an outcome.
func (s NodeState) Final() bool { return s != NodeWaiting && s != NodeTriggered }

// RunState is where a run stands (xxl_job_workflow_run.state).
type RunState string

// The run states. Queued and Running are open; the others are final.
const (
	// RunQueued: started under PolicyQueue while others were going.
	RunQueued    RunState = "QUEUED"
	RunRunning   RunState = "RUNNING"
	RunSucceeded RunState = "SUCCEEDED"
	RunFailed    RunState = "FAILED"
	RunStopped   RunState = "STOPPED"
)

// Final reports whether the run has ended.
func (s RunState) Final() bool { return s != RunQueued && s != RunRunning }

// Outcome is the state a run ends in once every node is final: FAILED
// when a node failed, SUCCEEDED otherwise (skipped nodes included). A
// node that failed stays a failure of its run even when a one_failed or
// all_done node after it handled it: the run page shows what went wrong,
// and a failed run is what alarms are for.
func Outcome(nodes []NodeState) (RunState, bool) {
	out := RunSucceeded
	for _, s := range nodes {
		switch {
		case !s.Final():
			return "", false
		case s == NodeFailed:
			out = RunFailed
		}
	}
	return out, true
}
