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

// FixRate is how NextTimeWith computes a FIX_RATE job's next fire time;
// the admin picks the rule of the Java admin that owns its database.
type FixRate int

const (
	// FixRate242 is 2.4.2's JobScheduleHelper.generateNextValidTime:
	// from + N seconds, milliseconds kept.
	FixRate242 FixRate = iota
	// FixRate342 is 3.4.2's FixRateScheduleType (3.4.0 release note 9):
	// from + N seconds, rounded up to the next whole second when that has
	// milliseconds (a next time computed from "now").
	FixRate342
)

// NextTime is NextTimeWith(FixRate242, …).
func NextTime(scheduleType, scheduleConf string, from time.Time, loc *time.Location) (time.Time, bool, error) {
	return NextTimeWith(FixRate242, scheduleType, scheduleConf, from, loc)
}

// NextTimeWith is generateNextValidTime of the Java schedule loop
// (scheduler.md §2): the next fire time of a job after from.
//
//   - CRON: first match strictly after from, in loc (nil = time.Local).
//     Parse errors and the Java class's evaluation failures are errors; a
//     schedule with no further fire time gives ok == false.
//   - FIX_RATE: from + N seconds, then as rule says. N*1000 is computed
//     in 64 bits: 2.4.2 computed it in 32-bit int arithmetic, which wrapped
//     for N > 2147483 (about 24.8 days) into a time in the past, so such a
//     job fired at every schedule round; 3.1.0 fixed it (PR-3708/PR-3704,
//     Long.parseLong(conf) * 1000L), and so do we for both generations.
//   - NONE and unknown types: ok == false, no error.
//
// Errors carry context; errors.As with *ParseError or *FixRateError
// recovers the bare Java message where an answer must repeat it.
func NextTimeWith(rule FixRate, scheduleType, scheduleConf string, from time.Time, loc *time.Location) (time.Time, bool, error) {
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
		next := from.Add(time.Duration(n) * time.Second)
		if ms := next.UnixMilli(); rule == FixRate342 && ms%1000 != 0 {
			// setMilliseconds(0) then one second on (Java's Date holds ms).
			next = time.UnixMilli(ms - (ms%1000+1000)%1000 + 1000)
		}
		return next.In(loc), true, nil
	}
	return time.Time{}, false, nil
}
