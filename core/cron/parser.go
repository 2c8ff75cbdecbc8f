package cron

import "fmt"

// build parses e.text into the value sets, reproducing which texts the Java
// class accepts and the messages it gives for those it rejects.
func (e *Expression) build() error {
	fields := splitFields(text16(e.text))
	if len(fields) > int(fieldCount) {
		fields = fields[:fieldCount] // tokens after the year are ignored
	}
	for i, tok := range fields {
		f := field(i)
		if err := checkFieldShape(tok, f); err != nil {
			return err
		}
		for _, item := range splitList(tok) {
			if err := e.parseItem(item, f); err != nil {
				return err
			}
		}
	}
	if len(fields) <= int(fieldDayOfWeek) {
		return parseErrorf("Unexpected end of expression.")
	}
	if len(fields) <= int(fieldYear) {
		if err := e.parseItem(text16("*"), fieldYear); err != nil {
			return err
		}
	}
	domSpecified := !e.sets[fieldDayOfMonth].has(noSpec)
	dowSpecified := !e.sets[fieldDayOfWeek].has(noSpec)
	if domSpecified == dowSpecified {
		return parseErrorf("Support for specifying both a day-of-week AND a day-of-month parameter is not implemented.")
	}
	return nil
}

// checkFieldShape holds the whole-field restrictions checked before the
// items are parsed.
func checkFieldShape(tok []uint16, f field) error {
	hasListedL := contains16(tok, 'L') && len(tok) > 1 && contains16(tok, ',')
	switch {
	case f == fieldDayOfMonth && hasListedL:
		return parseErrorf("Support for specifying 'L' and 'LW' with other days of the month is not implemented")
	case f == fieldDayOfWeek && hasListedL:
		return parseErrorf("Support for specifying 'L' with other days of the week is not implemented")
	case f == fieldDayOfWeek && count16(tok, '#') > 1:
		return parseErrorf("Support for specifying multiple \"nth\" days is not implemented.")
	}
	return nil
}

// parseItem handles one comma-separated item of a field.
func (e *Expression) parseItem(s []uint16, f field) error {
	if len(s) == 0 {
		return nil
	}
	c := s[0]
	switch {
	case c >= 'A' && c <= 'Z' && !equals16(s, "L") && !equals16(s, "LW") && !isLastOffsetForm(s):
		return e.parseName(s, f)
	case c == '?':
		return e.parseNoSpec(s, f)
	case c == '*' || c == '/':
		return e.parseAll(s, f)
	case c == 'L':
		return e.parseLast(s, f)
	case isASCIIDigit(c):
		return e.parseNumber(s, f)
	default:
		return parseErrorf("Unexpected character: " + string16(s[:1]))
	}
}

// parseName handles month and day names (only the first three letters
// count) with an optional "-NAME", "#k" or "L" suffix.
func (e *Expression) parseName(s []uint16, f field) error {
	sub, err := substring(s, 0, 3)
	if err != nil {
		return err
	}
	var start, end = -1, -1
	switch f {
	case fieldMonth:
		if start = monthNumber(sub); start < 0 {
			return parseErrorf("Invalid Month value: '" + string16(sub) + "'")
		}
		if len(s) > 3 && s[3] == '-' {
			if sub, err = substring(s, 4, 7); err != nil {
				return err
			}
			if end = monthNumber(sub); end < 0 {
				return parseErrorf("Invalid Month value: '" + string16(sub) + "'")
			}
		}
	case fieldDayOfWeek:
		if start = dayNumber(sub); start < 0 {
			return parseErrorf("Invalid Day-of-Week value: '" + string16(sub) + "'")
		}
		if len(s) > 3 {
			switch s[3] {
			case '-':
				if sub, err = substring(s, 4, 7); err != nil {
					return err
				}
				if end = dayNumber(sub); end < 0 {
					return parseErrorf("Invalid Day-of-Week value: '" + string16(sub) + "'")
				}
			case '#':
				if err := e.setNth(s[4:]); err != nil {
					return err
				}
			case 'L':
				e.lastDayOfWeek = true
			}
		}
	default:
		return parseErrorf("Illegal characters for this position: '" + string16(sub) + "'")
	}
	incr := 0
	if end != -1 {
		incr = 1
	}
	return e.addRange(start, end, incr, f)
}

// setNth parses the k of "n#k".
func (e *Expression) setNth(s []uint16) error {
	n, err := parseJavaInt(s)
	if err != nil || n < 1 || n > 5 {
		return parseErrorf("A numeric value between 1 and 5 must follow the '#' option")
	}
	e.nthDayOfWeek = n
	return nil
}

func (e *Expression) parseNoSpec(s []uint16, f field) error {
	// The Java check only looks two chars ahead, so "?x" passes and "?xy"
	// fails.
	if len(s) > 2 && s[1] != ' ' && s[2] != '\t' {
		return parseErrorf("Illegal character after '?': " + string16(s[1:2]))
	}
	if f != fieldDayOfWeek && f != fieldDayOfMonth {
		return parseErrorf("'?' can only be specified for Day-of-Month or Day-of-Week.")
	}
	if f == fieldDayOfWeek && !e.lastDayOfMonth {
		last, err := e.sets[fieldDayOfMonth].last()
		if err != nil {
			return err
		}
		if last == noSpec {
			return parseErrorf("'?' can only be specified for Day-of-Month -OR- Day-of-Week.")
		}
	}
	return e.addRange(noSpec, -1, 0, f)
}

// parseAll handles "*", "*/n" and "/n".
func (e *Expression) parseAll(s []uint16, f field) error {
	if s[0] == '*' && len(s) == 1 {
		return e.addRange(allSpec, -1, 0, f)
	}
	if s[0] == '/' && len(s) == 1 {
		return parseErrorf("'/' must be followed by an integer.")
	}
	i := 0
	if s[0] == '*' {
		i++
	}
	incr := 1
	if s[i] == '/' {
		i++
		if i >= len(s) {
			return parseErrorf("Unexpected end of string.")
		}
		var err error
		if incr, err = parseJavaInt(s[i:]); err != nil {
			return err
		}
		if err := checkIncrement(incr, f); err != nil {
			return err
		}
	}
	// Anything else after '*' is ignored, as in Java.
	return e.addRange(allSpec, -1, incr, f)
}

// parseLast handles "L", "LW", "L-n" and "L-nW" (the other L-forms went to
// parseName). Outside day-of-month and day-of-week they store nothing.
func (e *Expression) parseLast(s []uint16, f field) error {
	switch f {
	case fieldDayOfWeek:
		return e.addRange(7, 7, 0, f) // plain L in day-of-week is Saturday
	case fieldDayOfMonth:
	default:
		return nil
	}
	e.lastDayOfMonth = true
	i := 1
	if i < len(s) && s[i] == '-' {
		off, pos, err := readNumber(0, s, i+1)
		if err != nil {
			return err
		}
		if off > 30 {
			return parseErrorf("Offset from last day must be <= 30")
		}
		e.lastDayOffset = off
		i = pos
	}
	if i < len(s) && s[i] == 'W' {
		e.nearestWeekday = true
	}
	return nil
}

// readNumber is the Java getValue helper: it appends the ASCII digits from
// s[i] on to the decimal text of lead and returns the number and the index
// after it (one past the end when the digits run to the end).
func readNumber(lead int, s []uint16, i int) (int, int, error) {
	if _, err := charAt(s, i); err != nil {
		return 0, 0, err
	}
	digits := text16(fmt.Sprint(lead))
	for i < len(s) && isASCIIDigit(s[i]) {
		digits = append(digits, s[i])
		i++
	}
	pos := i
	if i >= len(s) {
		pos = i + 1
	}
	n, err := parseJavaInt(digits)
	return n, pos, err
}

// charValue is Integer.parseInt(String.valueOf(c)).
func charValue(s []uint16, i int) (int, error) {
	c, err := charAt(s, i)
	if err != nil {
		return 0, err
	}
	return parseJavaInt([]uint16{c})
}

func checkIncrement(incr int, f field) error {
	var limit int
	var msg string
	switch f {
	case fieldSecond, fieldMinute:
		limit, msg = 59, "Increment > 60 : %d"
	case fieldHour:
		limit, msg = 23, "Increment > 24 : %d"
	case fieldDayOfMonth:
		limit, msg = 31, "Increment > 31 : %d"
	case fieldDayOfWeek:
		limit, msg = 7, "Increment > 7 : %d"
	case fieldMonth:
		limit, msg = 12, "Increment > 12 : %d"
	default:
		return nil
	}
	if incr > limit {
		return parseErrorf(fmt.Sprintf(msg, incr))
	}
	return nil
}

// monthNumber maps JAN..DEC to 1..12, anything else to -1.
func monthNumber(s []uint16) int {
	return nameIndex([]string{"JAN", "FEB", "MAR", "APR", "MAY", "JUN", "JUL", "AUG", "SEP", "OCT", "NOV", "DEC"}, s)
}

// dayNumber maps SUN..SAT to 1..7 (Quartz numbering), anything else to -1.
func dayNumber(s []uint16) int {
	return nameIndex([]string{"SUN", "MON", "TUE", "WED", "THU", "FRI", "SAT"}, s)
}

func nameIndex(names []string, s []uint16) int {
	for i, n := range names {
		if equals16(s, n) {
			return i + 1
		}
	}
	return -1
}
