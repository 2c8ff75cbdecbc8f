// Package workflow runs workflows: named DAGs over existing jobs, whose
// nodes run when their parents' outcomes satisfy their trigger rules
// (docs/workflows.md).
//
// The model (Workflow, Node, Edge, Rule, Schedule, Concurrency) is
// validated before it is stored: a cycle is refused naming it, a node
// whose job is unknown or of another group is refused. A run copies the
// workflow's graph, so editing a workflow never changes a run under way.
//
// The Engine moves runs along. Every step is a compare-and-set on a
// node run's state, taken in one transaction with the run's row locked and
// with the pending-trigger row (schema.PendingTable) of each node it
// decides to trigger, so that a node of a run is triggered once however
// many admins of ours work on it and whichever of them dies: what was
// decided is a durable row any admin's sweeper sends. Node triggers go
// through the trigger door like every trigger, each one an ordinary
// xxl_job_log row. The engine learns a node's outcome from the callback
// (thread.FinishHook, in the callback's own transaction) and, as a
// backstop, from a periodic pass over the runs in flight that also sees
// triggers that failed before any executor ran them.
package workflow
