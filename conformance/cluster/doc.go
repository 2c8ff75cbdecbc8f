// Package cluster drives whole admin processes against a fake executor and
// a shared database, for the process-level cluster test beside it and for
// the scheduler benchmark (scripts/benchsched): it seeds FIX_RATE jobs on
// an aligned grid, records every /run the executor receives, starts, kills
// and stops admin binaries, and counts fires per job and planned second
// (scheduler.md §3 and §14).
package cluster
