package cron

import "time"

// calendar reproduces the parts of a lenient java.util.GregorianCalendar
// that the evaluator relies on. Setting a field only records it; the next
// read normalises all fields (day 32 becomes the 1st of the next month,
// day 0 the last of the previous one) and resolves the wall-clock reading
// to an instant with resolveWall. Re-resolving happens even when the value
// set is unchanged, which is what moves a time in the first pass of a
// repeated hour into the second pass.
type calendar struct {
	loc *time.Location

	year, month, day  int // month is 0-based like Calendar.MONTH
	hour, minute, sec int
	weekday           int // 1 = Sunday ... 7 = Saturday
	unix              int64
	dirty             bool
}

func newCalendar(loc *time.Location, unix int64) *calendar {
	c := &calendar{loc: loc}
	c.setInstant(unix)
	return c
}

// setInstant loads the fields from an instant (Calendar.setTime).
func (c *calendar) setInstant(unix int64) {
	t := time.Unix(unix, 0).In(c.loc)
	y, m, d := t.Date()
	c.year, c.month, c.day = y, int(m)-1, d
	c.hour, c.minute, c.sec = t.Clock()
	c.weekday = int(t.Weekday()) + 1
	c.unix = unix
	c.dirty = false
}

// sync recomputes the instant from pending field changes.
func (c *calendar) sync() {
	if !c.dirty {
		return
	}
	wall := time.Date(c.year, time.Month(c.month+1), c.day, c.hour, c.minute, c.sec, 0, time.UTC).Unix()
	c.setInstant(resolveWall(c.loc, wall))
}

func (c *calendar) instant() int64 { c.sync(); return c.unix }

func (c *calendar) getYear() int    { c.sync(); return c.year }
func (c *calendar) getMonth() int   { c.sync(); return c.month }
func (c *calendar) getDay() int     { c.sync(); return c.day }
func (c *calendar) getHour() int    { c.sync(); return c.hour }
func (c *calendar) getMinute() int  { c.sync(); return c.minute }
func (c *calendar) getSecond() int  { c.sync(); return c.sec }
func (c *calendar) getWeekday() int { c.sync(); return c.weekday }

func (c *calendar) setYear(v int)   { c.year, c.dirty = v, true }
func (c *calendar) setMonth(v int)  { c.month, c.dirty = v, true }
func (c *calendar) setDay(v int)    { c.day, c.dirty = v, true }
func (c *calendar) setHour(v int)   { c.hour, c.dirty = v, true }
func (c *calendar) setMinute(v int) { c.minute, c.dirty = v, true }
func (c *calendar) setSecond(v int) { c.sec, c.dirty = v, true }

// startOfDay sets hour, minute and second to zero (a frequent triple).
func (c *calendar) startOfDay() {
	c.setSecond(0)
	c.setMinute(0)
	c.setHour(0)
}

// addYear is Calendar.add(YEAR, n): normalise, shift the year, and pin the
// day to the month's length (Feb 29 -> Feb 28).
func (c *calendar) addYear(n int) {
	c.sync()
	c.year += n
	if last := daysInMonth(c.month+1, c.year); c.day > last {
		c.day = last
	}
	c.dirty = true
}

// setHourDST is the Java setCalendarHour: when the hour does not exist on
// that day (spring-forward gap) it asks for the following hour instead.
func (c *calendar) setHourDST(hour int) {
	c.setHour(hour)
	if c.getHour() != hour && hour != 24 {
		c.setHour(hour + 1)
	}
}

// resolveWall turns a local wall-clock reading (seconds, counted as if the
// zone were UTC) into an instant the way GregorianCalendar does for IANA
// zones: it takes the offset in force after the latest transition whose
// local time, measured in its new offset, is at or before the reading. A
// reading inside a spring-forward gap thus uses the old offset (02:30 in New
// York becomes 03:30 EDT) and one inside a fall-back overlap the new offset
// (the second, standard-time pass). Go's time.Date makes other choices.
func resolveWall(loc *time.Location, wall int64) int64 {
	const span = 30 * 3600 // wider than any UTC offset
	// Fast path: one offset in force well around the reading, so no
	// transition can be involved.
	probe := time.Unix(wall, 0).In(loc)
	start, end := probe.ZoneBounds()
	if (start.IsZero() || start.Unix() <= wall-span) && (end.IsZero() || end.Unix() > wall+span) {
		_, off := probe.Zone()
		return wall - int64(off)
	}
	t := wall - span
	_, off := time.Unix(t, 0).In(loc).Zone()
	// The walk crosses at most a handful of periods; the cap only guards
	// against a zone table that never advances.
	for range 64 {
		_, end := time.Unix(t, 0).In(loc).ZoneBounds()
		if end.IsZero() {
			break // no further transitions
		}
		e := end.Unix()
		if e <= t {
			// Go reports a zero-length period at the turn of some years in
			// the rule-based range past the zone table (seen for New York at
			// the end of 2040); step over it.
			e = t + 1
		}
		if e > wall+span {
			break
		}
		_, nextOff := time.Unix(e, 0).In(loc).Zone()
		if e+int64(nextOff) > wall {
			break
		}
		off, t = nextOff, e
	}
	return wall - int64(off)
}

func isLeapYear(y int) bool { return (y%4 == 0 && y%100 != 0) || y%400 == 0 }

// daysInMonth takes a 1-based month; the evaluator only passes 1..12.
func daysInMonth(month, year int) int {
	switch month {
	case 2:
		if isLeapYear(year) {
			return 29
		}
		return 28
	case 4, 6, 9, 11:
		return 30
	}
	return 31
}
