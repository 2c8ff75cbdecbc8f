package report

import "time"

// dayRange is one calendar day of loc, i days before now's day: its local
// midnight and the last instant of its last second. DATETIME columns hold
// whole seconds, so a "to" of 23:59:59.999999999 (written as 23:59:59) makes
// BETWEEN include every log of that second (scheduler.md §11, §13).
func dayRange(now time.Time, loc *time.Location, i int) (from, to time.Time) {
	y, m, d := now.In(loc).Date()
	from = time.Date(y, m, d-i, 0, 0, 0, 0, loc)
	fy, fm, fd := from.Date()
	to = time.Date(fy, fm, fd, 23, 59, 59, int(time.Second-time.Nanosecond), loc)
	return from, to
}

// clearBefore is local midnight of the day n days before now's day: logs
// triggered at or before it are deleted (scheduler.md §11).
func clearBefore(now time.Time, loc *time.Location, n int) time.Time {
	y, m, d := now.In(loc).Date()
	return time.Date(y, m, d-n, 0, 0, 0, 0, loc)
}
