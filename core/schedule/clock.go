package schedule

import "time"

// roundPhase is how far into a second the schedule loop wakes. Java wakes
// on the whole second (scheduler.md §3.1), the moment a second's /run calls
// leave: at thousands of jobs a second the round's reads and writes of
// every job then competed with them for the CPU and MariaDB. Mid-second
// they fall after the /run calls and before the ring's next tick. The
// round reads 5 s ahead (preReadMs), so a fire planned more than a second
// ahead goes out at its second wherever in the second the round ran; a
// job due sooner (just saved, or found late) is read up to roundPhase
// earlier than by Java.
const roundPhase = 500 * time.Millisecond

// wakeAfter is the Java pacing "sleep period - now%1000" moved roundPhase
// into the second: the first instant roundPhase past a whole second at or
// after now+period-1s. A round taking up to a second is followed a second
// after it began, as in Java; the first round, 5 s after the start in
// Java, comes 4 to 5 s after it.
func wakeAfter(now time.Time, period time.Duration) time.Time {
	phase := roundPhase.Milliseconds()
	ms := now.UnixMilli() - phase
	return time.UnixMilli(ms + period.Milliseconds() - floorMod(ms, 1000) + phase)
}

func floorMod(a, b int64) int64 {
	m := a % b
	if m < 0 {
		m += b
	}
	return m
}
