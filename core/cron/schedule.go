package cron

import (
	"fmt"
	"time"
)

// Schedule types as stored in xxl_job_info.schedule_type (scheduler.md §2).
// Matching is exact and case-sensitive, like ScheduleTypeEnum.match.
const (
	TypeNone    = "NONE"
	TypeCron    = "CRON"
	TypeFixRate = "FIX_RATE"
)

// FixRateError is a FIX_RATE schedule_conf that is not a Java int. Its
// text is the Java NumberFormatException message, which the console
// repeats verbatim (console.md §5 nextTriggerTime).
type FixRateError struct {
	Conf string
}

func (e *FixRateError) Error() string { return fmt.Sprintf("For input string: %q", e.Conf) }

// ParseFixRate reads a FIX_RATE schedule_conf as Integer.valueOf does:
// decimal, optional sign, no spaces, 32-bit range.
func ParseFixRate(conf string) (int, error) {
	n, err := parseJavaInt(text16(conf))
	if err != nil {
		return 0, &FixRateError{Conf: conf}
	}
	return n, nil
}

// NextTime is generateNextValidTime of the Java schedule loop
// (scheduler.md §2): the next fire time of a job after from.
//
//   - CRON: first match strictly after from, in loc (nil = time.Local).
//     Parse errors and the Java class's evaluation failures are errors; a
//     schedule with no further fire time gives ok == false.
//   - FIX_RATE: from + N seconds, milliseconds kept. N*1000 is computed in
//     32-bit arithmetic and wraps for N > 2147483, as in Java, so such
//     confs yield a time in the past (the documented quirk; callers that
//     want to reject them should check ParseFixRate on add/update).
//   - NONE and unknown types: ok == false, no error.
//
// Errors carry context; errors.As with *ParseError or *FixRateError
// recovers the bare Java message where an answer must repeat it.
func NextTime(scheduleType, scheduleConf string, from time.Time, loc *time.Location) (time.Time, bool, error) {
	if loc == nil {
		loc = time.Local
	}
	switch scheduleType {
	case TypeCron:
		e, err := Parse(scheduleConf)
		if err != nil {
			return time.Time{}, false, fmt.Errorf("cron %q: %w", scheduleConf, err)
		}
		t, ok, err := e.next(from, loc)
		if err != nil {
			return time.Time{}, false, fmt.Errorf("cron %q: %w", scheduleConf, err)
		}
		return t, ok, nil
	case TypeFixRate:
		n, err := ParseFixRate(scheduleConf)
		if err != nil {
			return time.Time{}, false, err
		}
		offsetMs := int32(n) * 1000 // wraps like Java int arithmetic
		return from.Add(time.Duration(offsetMs) * time.Millisecond).In(loc), true, nil
	}
	return time.Time{}, false, nil
}
