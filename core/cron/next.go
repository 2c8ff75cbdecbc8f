package cron

import "time"

const (
	// lastSearchYear is the Java class's own guard against endless searches.
	lastSearchYear = 2999
	// maxSteps bounds the search loop. The Java loop has inputs on which it
	// never ends (for example day-of-month "0W"); legitimate searches need
	// about 16,000 steps at most (month by month up to year 2999).
	maxSteps = 50_000
)

// searchLimitError reports a search that made no progress within maxSteps.
type searchLimitError struct{}

func (searchLimitError) Error() string { return "cron: search step limit exceeded" }

// step tells the search loop how to go on after aligning one field.
type step int

const (
	stepNext    step = iota // field matches; go on to the next field
	stepRestart             // calendar moved; start over from seconds
	stepNone                // no fire time exists
)

// Next returns the first fire time strictly after after, evaluated in loc
// (nil means time.Local). Milliseconds of after are dropped, so a start of
// 12:00:00.500 can fire at 12:00:01. ok is false when the schedule has no
// further fire time (year limit reached, impossible dates) or when the Java
// class would have failed while searching.
func (e *Expression) Next(after time.Time, loc *time.Location) (time.Time, bool) {
	t, ok, err := e.next(after, loc)
	return t, ok && err == nil
}

// next is Next with the evaluation failures of the Java class reported as
// errors (they surface as exceptions in the admin, scheduler.md §3.2).
func (e *Expression) next(after time.Time, loc *time.Location) (time.Time, bool, error) {
	if loc == nil {
		loc = time.Local
	}
	// The Java code moves one second ahead with the milliseconds kept for
	// later comparisons, then clears them on the calendar.
	afterMs := after.UnixMilli() + 1000
	c := newCalendar(loc, floorDiv(afterMs, 1000))
	c.dirty = true // Calendar.set(MILLISECOND, 0) re-resolves the wall time
	for range maxSteps {
		if c.getYear() > lastSearchYear {
			return time.Time{}, false, nil
		}
		s, err := e.alignTime(c)
		if err == nil && s == stepNext {
			s, err = e.alignDay(c, afterMs)
		}
		if err == nil && s == stepNext {
			s, err = e.alignMonthYear(c)
		}
		switch {
		case err != nil:
			return time.Time{}, false, err
		case s == stepNone:
			return time.Time{}, false, nil
		case s == stepNext:
			return time.Unix(c.instant(), 0).In(loc), true, nil
		}
	}
	return time.Time{}, false, searchLimitError{}
}

// alignTime moves the calendar to the next matching second, minute and
// hour of the current day.
func (e *Expression) alignTime(c *calendar) (step, error) {
	sec, minute := c.getSecond(), c.getMinute()
	if v, ok := e.sets[fieldSecond].ceil(sec); ok {
		sec = v
	} else {
		first, err := e.sets[fieldSecond].first()
		if err != nil {
			return stepNone, err
		}
		sec = first
		c.setMinute(minute + 1)
	}
	c.setSecond(sec)

	minute, hour := c.getMinute(), c.getHour()
	matched := -1
	if v, ok := e.sets[fieldMinute].ceil(minute); ok {
		matched, minute = minute, v
	} else {
		first, err := e.sets[fieldMinute].first()
		if err != nil {
			return stepNone, err
		}
		minute = first
		hour++
	}
	if minute != matched {
		c.setSecond(0)
		c.setMinute(minute)
		c.setHourDST(hour)
		return stepRestart, nil
	}
	c.setMinute(minute)

	hour, day := c.getHour(), c.getDay()
	matched = -1
	if v, ok := e.sets[fieldHour].ceil(hour); ok {
		matched, hour = hour, v
	} else {
		first, err := e.sets[fieldHour].first()
		if err != nil {
			return stepNone, err
		}
		hour = first
		day++
	}
	if hour != matched {
		c.setSecond(0)
		c.setMinute(0)
		c.setDay(day)
		c.setHourDST(hour)
		return stepRestart, nil
	}
	c.setHour(hour)
	return stepNext, nil
}

// alignMonthYear checks month and year once the day is settled.
func (e *Expression) alignMonthYear(c *calendar) (step, error) {
	month, year := c.getMonth()+1, c.getYear()
	if year > e.maxYear {
		return stepNone, nil
	}
	matched := -1
	if v, ok := e.sets[fieldMonth].ceil(month); ok {
		matched, month = month, v
	} else {
		first, err := e.sets[fieldMonth].first()
		if err != nil {
			return stepNone, err
		}
		month = first
		year++
	}
	if month != matched {
		c.startOfDay()
		c.setDay(1)
		c.setMonth(month - 1)
		c.setYear(year)
		return stepRestart, nil
	}
	c.setMonth(month - 1)

	year = c.getYear()
	v, ok := e.sets[fieldYear].ceil(year)
	if !ok {
		return stepNone, nil // ran out of years
	}
	if v != year {
		c.startOfDay()
		c.setDay(1)
		c.setMonth(0)
		c.setYear(v)
		return stepRestart, nil
	}
	c.setYear(v)
	return stepNext, nil
}

func floorDiv(a, b int64) int64 {
	q := a / b
	if (a%b != 0) && ((a < 0) != (b < 0)) {
		q--
	}
	return q
}
