package schedule

import "time"

// wakeAfter is the Java pacing "sleep period - now%1000": the whole-second
// boundary at or after now+period-1s, so sleeps end on a second edge.
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
