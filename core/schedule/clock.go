package schedule

import "time"

// wakeAfter is the Java pacing "sleep period - now%1000": the whole-second
// boundary at or after now+period-1s, so sleeps end on a second edge.
//
// Rounds half a second into the second were measured (docs/benchmarks.md,
// "phase": p50 −20 % at 8,000 jobs, the round's reads and writes no longer
// competing with the second's /run calls) and given up: Java admins wake on
// the whole second and claim every fire of the next 5 s, so beside them a
// round half a second later finds nothing left and ours never fires in a
// mixed cluster while a Java admin runs (conformance/mixed).
func wakeAfter(now time.Time, period time.Duration) time.Time {
	ms := now.UnixMilli()
	return time.UnixMilli(ms + period.Milliseconds() - floorMod(ms, 1000))
}

func floorMod(a, b int64) int64 {
	m := a % b
	if m < 0 {
		m += b
	}
	return m
}
