package cron

// alignDay moves the calendar to the next day matching the day-of-month or
// day-of-week rule (exactly one is in use, the other is '?').
func (e *Expression) alignDay(c *calendar, afterMs int64) (step, error) {
	domSpecified := !e.sets[fieldDayOfMonth].has(noSpec)
	dowSpecified := !e.sets[fieldDayOfWeek].has(noSpec)
	switch {
	case domSpecified && !dowSpecified:
		return e.alignDayOfMonth(c, afterMs)
	case dowSpecified && !domSpecified:
		switch {
		case e.lastDayOfWeek:
			return e.alignLastWeekday(c)
		case e.nthDayOfWeek != 0:
			return e.alignNthWeekday(c)
		default:
			return e.alignWeekday(c)
		}
	}
	// Unreachable after a successful parse; Java throws here.
	return stepNone, parseErrorf("Support for specifying both a day-of-week AND a day-of-month parameter is not implemented.")
}

func (e *Expression) alignDayOfMonth(c *calendar, afterMs int64) (step, error) {
	day, month := c.getDay(), c.getMonth()+1
	monthBefore := month
	matched := -1
	set := &e.sets[fieldDayOfMonth]
	switch {
	case e.lastDayOfMonth && !e.nearestWeekday:
		matched = day
		day = daysInMonth(month, c.getYear()) - e.lastDayOffset
		if matched > day {
			month++
			if month > 12 {
				month = 1
				monthBefore = -1 // force the move below
				c.addYear(1)
			}
			day = 1
		}
	case e.lastDayOfMonth:
		matched = day
		target := daysInMonth(month, c.getYear()) - e.lastDayOffset
		var passed bool
		day, passed = e.nearestWeekdayOf(c, target, month, afterMs)
		if passed {
			day = 1
			month++
		}
	case e.nearestWeekday:
		matched = day
		first, err := set.first()
		if err != nil {
			return stepNone, err
		}
		var passed bool
		day, passed = e.nearestWeekdayOf(c, first, month, afterMs)
		if passed {
			day = first
			month++
		}
	default:
		if v, ok := set.ceil(day); ok {
			matched, day = day, v
			if day > daysInMonth(month, c.getYear()) {
				first, err := set.first()
				if err != nil {
					return stepNone, err
				}
				day = first
				month++
			}
		} else {
			first, err := set.first()
			if err != nil {
				return stepNone, err
			}
			day = first
			month++
		}
	}
	if day != matched || month != monthBefore {
		c.startOfDay()
		c.setDay(day)
		c.setMonth(month - 1) // lenient: month 13 rolls into next year
		return stepRestart, nil
	}
	c.setDay(day)
	return stepNext, nil
}

// nearestWeekdayOf resolves "dayW" in the calendar's current month: the
// weekday nearest to day without leaving the month. passed reports that
// this month's candidate, at the calendar's time of day, is already before
// the search start. Day values outside the month are normalised leniently,
// as Java does.
func (e *Expression) nearestWeekdayOf(c *calendar, day, month int, afterMs int64) (int, bool) {
	year := c.getYear()
	probe := newCalendar(c.loc, c.instant())
	probe.startOfDay()
	probe.setDay(day)
	probe.setMonth(month - 1)
	probe.setYear(year)
	lastDay := daysInMonth(month, year)
	switch dow := probe.getWeekday(); {
	case dow == 7 && day == 1:
		day += 2
	case dow == 7:
		day--
	case dow == 1 && day == lastDay:
		day -= 2
	case dow == 1:
		day++
	}
	probe.setSecond(c.getSecond())
	probe.setMinute(c.getMinute())
	probe.setHour(c.getHour())
	probe.setDay(day)
	probe.setMonth(month - 1)
	// Java compares against a calendar carrying the wall clock's current
	// milliseconds, which makes same-second results depend on timing; the
	// whole-second comparison here is the outcome for a millisecond-free
	// start (README of the vectors).
	return day, probe.instant() < floorDiv(afterMs, 1000)
}

// alignLastWeekday handles "nL": the last given weekday of the month.
func (e *Expression) alignLastWeekday(c *calendar) (step, error) {
	want, err := e.sets[fieldDayOfWeek].first()
	if err != nil {
		return stepNone, err
	}
	day, month := c.getDay(), c.getMonth()+1
	add := daysUntil(c.getWeekday(), want)
	lastDay := daysInMonth(month, c.getYear())
	if day+add > lastDay {
		c.startOfDay()
		c.setDay(1)
		c.setMonth(month) // next month
		return stepRestart, nil
	}
	for day+add+7 <= lastDay {
		add += 7
	}
	if add > 0 {
		c.startOfDay()
		c.setDay(day + add)
		c.setMonth(month - 1)
		return stepRestart, nil
	}
	c.setDay(day)
	return stepNext, nil
}

// alignNthWeekday handles "n#k": the k-th given weekday of the month.
func (e *Expression) alignNthWeekday(c *calendar) (step, error) {
	want, err := e.sets[fieldDayOfWeek].first()
	if err != nil {
		return stepNone, err
	}
	day, month := c.getDay(), c.getMonth()+1
	add := daysUntil(c.getWeekday(), want)
	shifted := add > 0
	day += add
	week := day / 7
	if day%7 > 0 {
		week++
	}
	add = (e.nthDayOfWeek - week) * 7
	day += add
	if add < 0 || day > daysInMonth(month, c.getYear()) {
		c.startOfDay()
		c.setDay(1)
		c.setMonth(month) // next month
		return stepRestart, nil
	}
	if add > 0 || shifted {
		c.startOfDay()
		c.setDay(day)
		c.setMonth(month - 1)
		return stepRestart, nil
	}
	c.setDay(day)
	return stepNext, nil
}

// alignWeekday handles plain day-of-week lists and ranges.
func (e *Expression) alignWeekday(c *calendar) (step, error) {
	set := &e.sets[fieldDayOfWeek]
	current := c.getWeekday()
	want, err := set.first()
	if err != nil {
		return stepNone, err
	}
	if v, ok := set.ceil(current); ok {
		want = v
	}
	day, month := c.getDay(), c.getMonth()+1
	add := daysUntil(current, want)
	if day+add > daysInMonth(month, c.getYear()) {
		c.startOfDay()
		c.setDay(1)
		c.setMonth(month) // next month
		return stepRestart, nil
	}
	if add > 0 {
		c.startOfDay()
		c.setDay(day + add)
		c.setMonth(month - 1)
		return stepRestart, nil
	}
	c.setDay(day)
	return stepNext, nil
}

// daysUntil counts days from weekday current forward to weekday want
// (both 1..7 normally; odd stored values give odd counts, as in Java).
func daysUntil(current, want int) int {
	switch {
	case current < want:
		return want - current
	case current > want:
		return want + 7 - current
	}
	return 0
}
