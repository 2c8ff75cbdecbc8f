// Package cluster drives whole admin processes against a fake executor and
// a shared database, for the process-level cluster test beside it, the
// mixed Java-and-ours cluster (conformance/mixed) and the scheduler
// benchmark (scripts/benchsched): it seeds FIX_RATE jobs on an aligned
// grid, records every /run the executor receives (and who sent it, by
// access token) and answers it per job (callbacks, failed runs), starts,
// kills and stops admin binaries, finds the admin holding the most queued
// fires, and counts fires per job and planned second (scheduler.md §3 and
// §14): duplicates directly, misses against kill windows and misfires.
package cluster
