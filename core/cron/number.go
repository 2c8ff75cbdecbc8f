package cron

import "fmt"

// parseNumber handles items starting with a digit: "n", "nL", "nW", "n#k",
// "a-b", "a-b/n" and "a/n". Characters after a recognised form are
// ignored, as in Java ("5X" is 5).
func (e *Expression) parseNumber(s []uint16, f field) error {
	val := int(s[0] - '0')
	i := 1
	if i >= len(s) {
		return e.addRange(val, -1, -1, f)
	}
	if isASCIIDigit(s[i]) {
		var err error
		if val, i, err = readNumber(val, s, i); err != nil {
			return err
		}
	}
	if i >= len(s) {
		return e.addRange(val, -1, -1, f)
	}
	switch s[i] {
	case 'L':
		if f != fieldDayOfWeek {
			return parseErrorf(fmt.Sprintf("'L' option is not valid here. (pos=%d)", i))
		}
		if val < 1 || val > 7 {
			return parseErrorf("Day-of-Week values must be between 1 and 7")
		}
		e.lastDayOfWeek = true
		e.sets[f].add(val)
		return nil
	case 'W':
		if f != fieldDayOfMonth {
			return parseErrorf(fmt.Sprintf("'W' option is not valid here. (pos=%d)", i))
		}
		e.nearestWeekday = true
		if val > 31 {
			return parseErrorf("The 'W' option does not make sense with values larger than 31 (max number of days in a month)")
		}
		e.sets[f].add(val) // no lower bound: "0W" is accepted
		return nil
	case '#':
		if f != fieldDayOfWeek {
			return parseErrorf(fmt.Sprintf("'#' option is not valid here. (pos=%d)", i))
		}
		if err := e.setNth(s[i+1:]); err != nil {
			return err
		}
		e.sets[f].add(val) // unchecked: "9#2" is accepted
		return nil
	case '-':
		return e.parseRange(s, i+1, val, f)
	case '/':
		return e.parseStep(s, i+1, val, f)
	}
	return e.addRange(val, -1, 0, f)
}

// parseRange continues "a-" at s[i]: the end value and an optional "/n".
// Unlike "a/n", the step of a range is not range-checked.
func (e *Expression) parseRange(s []uint16, i, val int, f field) error {
	v, err := charValue(s, i)
	if err != nil {
		return err
	}
	end := v
	i++
	if i >= len(s) {
		return e.addRange(val, end, 1, f)
	}
	if isASCIIDigit(s[i]) {
		if end, i, err = readNumber(v, s, i); err != nil {
			return err
		}
	}
	if i >= len(s) || s[i] != '/' {
		return e.addRange(val, end, 1, f)
	}
	i++
	step, err := charValue(s, i)
	if err != nil {
		return err
	}
	i++
	if i < len(s) && isASCIIDigit(s[i]) {
		if step, _, err = readNumber(step, s, i); err != nil {
			return err
		}
	}
	return e.addRange(val, end, step, f)
}

// parseStep continues "a/" at s[i].
func (e *Expression) parseStep(s []uint16, i, val int, f field) error {
	if i >= len(s) {
		return parseErrorf("'/' must be followed by an integer.")
	}
	step, err := charValue(s, i)
	if err != nil {
		return err
	}
	i++
	if i < len(s) {
		if !isASCIIDigit(s[i]) {
			return parseErrorf("Unexpected character '" + string16(s[i:i+1]) + "' after '/'")
		}
		if step, _, err = readNumber(step, s, i); err != nil {
			return err
		}
	}
	if err := checkIncrement(step, f); err != nil {
		return err
	}
	return e.addRange(val, -1, step, f)
}

// addRange is the Java addToSet: range-check, then store a single value
// (incr 0 or -1) or expand start..end by incr, wrapping ranges whose end is
// below their start (22-2, NOV-FEB).
func (e *Expression) addRange(val, end, incr int, f field) error {
	if err := checkValueRange(val, end, f); err != nil {
		return err
	}
	set := &e.sets[f]
	if (incr == 0 || incr == -1) && val != allSpec {
		if val != -1 {
			set.add(val)
		} else {
			set.add(noSpec)
		}
		return nil
	}
	start, stop := val, end
	if val == allSpec && incr <= 0 {
		incr = 1
		set.add(allSpec) // marker next to the expanded values
	}
	lo, hi, wrap := fieldBounds(f, e.maxYear)
	if stop == -1 {
		stop = hi
	}
	if start == -1 || start == allSpec {
		start = lo
	}
	if stop < start {
		if f == fieldYear {
			return &javaRuntimeError{class: "java.lang.IllegalArgumentException", msg: "Start year must be less than stop year"}
		}
		stop += wrap
	}
	if f == fieldYear && stop > e.maxYear {
		// Years past the limit can never fire (the evaluator stops there),
		// so they are not materialised; this also bounds huge ranges.
		stop = e.maxYear
	}
	for i := start; i <= stop; i += incr {
		if f == fieldYear {
			set.add(i)
			continue
		}
		v := i % wrap
		if v == 0 && (f == fieldMonth || f == fieldDayOfWeek || f == fieldDayOfMonth) {
			v = wrap // 1-based fields keep their maximum instead of 0
		}
		set.add(v)
	}
	return nil
}

// fieldBounds gives a field's default start and stop and its wrap modulus.
func fieldBounds(f field, maxYear int) (lo, hi, wrap int) {
	switch f {
	case fieldSecond, fieldMinute:
		return 0, 59, 60
	case fieldHour:
		return 0, 23, 24
	case fieldDayOfMonth:
		return 1, 31, 31
	case fieldMonth:
		return 1, 12, 12
	case fieldDayOfWeek:
		return 1, 7, 7
	default:
		return 1970, maxYear, 0
	}
}

// checkValueRange rejects out-of-range values; the markers 98/99 pass where
// the Java class lets them.
func checkValueRange(val, end int, f field) error {
	var bad bool
	var msg string
	switch f {
	case fieldSecond, fieldMinute:
		bad, msg = (val < 0 || val > 59 || end > 59) && val != allSpec, "Minute and Second values must be between 0 and 59"
	case fieldHour:
		bad, msg = (val < 0 || val > 23 || end > 23) && val != allSpec, "Hour values must be between 0 and 23"
	case fieldDayOfMonth:
		bad, msg = (val < 1 || val > 31 || end > 31) && val != allSpec && val != noSpec, "Day of month values must be between 1 and 31"
	case fieldMonth:
		bad, msg = (val < 1 || val > 12 || end > 12) && val != allSpec, "Month values must be between 1 and 12"
	case fieldDayOfWeek:
		bad, msg = (val == 0 || val > 7 || end > 7) && val != allSpec && val != noSpec, "Day-of-Week values must be between 1 and 7"
	}
	if bad {
		return parseErrorf(msg)
	}
	return nil
}
