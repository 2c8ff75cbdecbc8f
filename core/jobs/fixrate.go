package jobs

import (
	"strconv"
	"strings"
	"time"
	"unicode"

	"github.com/xxl-admin-go/xxl-admin-go/core/cron"
)

// nextTime is the next fire time of a schedule after from. Under
// Rules.FixRateWholeSeconds a FIX_RATE time is from + rate seconds with the
// rate read as a Java long, rounded up to the next whole second when it
// falls inside one (3.4.2: a job started at 12:00:00.400 with rate 10
// fires at 12:00:11); otherwise cron.NextTime (2.4.2's).
func (s *Service) nextTime(scheduleType, scheduleConf string, from time.Time) (time.Time, bool, error) {
	if !s.rules.FixRateWholeSeconds || scheduleType != cron.TypeFixRate {
		return cron.NextTime(scheduleType, scheduleConf, from, s.loc)
	}
	rate, ok := javaLong(scheduleConf)
	if !ok {
		return time.Time{}, false, &cron.FixRateError{Conf: scheduleConf}
	}
	ms := from.UnixMilli() + rate*1000 // wraps like Java long arithmetic
	if r := ms % 1000; r > 0 {
		ms += 1000 - r
	} else if r < 0 {
		ms -= r // before 1970 Go's % is negative: dropping it already rounds up
	}
	return time.UnixMilli(ms).In(s.loc), true, nil
}

// javaLong is Long.parseLong(s): an optional sign and Unicode decimal
// digits, 64-bit range.
func javaLong(s string) (int64, bool) {
	var b strings.Builder
	for i, r := range s {
		if i == 0 && (r == '-' || r == '+') {
			b.WriteRune(r)
			continue
		}
		d, ok := digitValue(r)
		if !ok {
			return 0, false
		}
		b.WriteByte(byte('0' + d))
	}
	n, err := strconv.ParseInt(b.String(), 10, 64)
	return n, err == nil
}

// digitValue is Character.digit(r, 10): decimal digits of any script,
// which come in runs of ten starting at a zero.
func digitValue(r rune) (int, bool) {
	if r >= '0' && r <= '9' {
		return int(r - '0'), true
	}
	if !unicode.IsDigit(r) {
		return 0, false
	}
	start := r
	for start > 0 && unicode.IsDigit(start-1) {
		start--
	}
	return int(r-start) % 10, true
}
