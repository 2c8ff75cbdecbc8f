package cron

import (
	"fmt"
	"testing"
	"time"
)

// FuzzParse checks that no input makes the parser or the search panic or
// run unbounded, and properties of the fire times found (scheduler.md
// §2.1): each is strictly after the one before (a chain of Next calls is
// increasing), on a whole second, within the year limit, the first fire
// after the second before it (no earlier match skipped), and in UTC each
// one matches the expression field by field (see matches).
func FuzzParse(f *testing.F) {
	seen := map[string]bool{}
	for _, v := range loadVectors(f) {
		if !seen[v.Expr] {
			seen[v.Expr] = true
			f.Add(v.Expr)
		}
	}
	for _, s := range []string{
		"0 0 0 0W * ?", "99 98 * * * ?",
		"0 0 0 1 1 ? 1970-2999/7", "*/-5 * * * * ?", "0 0 0 ? * MON#+2", "L-\x01 * * * * ?",
		"0 0 0 ?\x00 * MON", "٣ * * * * ?", "0 0 0 ß * ?", "0 0 0 1 1 ? 2147483647",
	} {
		f.Add(s)
	}
	ny, err := time.LoadLocation("America/New_York")
	if err != nil {
		f.Fatal(err)
	}
	starts := []time.Time{
		time.Date(2024, 2, 28, 23, 59, 59, 500e6, time.UTC),
		time.Date(2025, 11, 2, 5, 30, 0, 0, time.UTC), // New York's repeated hour
	}
	f.Fuzz(func(t *testing.T, expr string) {
		const maxYear = 2124
		e, err := parseWithMaxYear(expr, maxYear)
		if err != nil {
			if _, ok := err.(*ParseError); !ok {
				t.Fatalf("error type %T", err)
			}
			return
		}
		for _, loc := range []*time.Location{time.UTC, ny} {
			for _, from := range starts {
				prev := from
				chain := 1 // the chain's properties are checked in UTC
				if loc == time.UTC {
					chain = 3
				}
				for k := range chain {
					next, ok := e.Next(prev, loc)
					if !ok {
						break
					}
					if !next.After(prev) {
						t.Fatalf("%q: next %v not after %v", expr, next, prev)
					}
					if next.Nanosecond() != 0 {
						t.Fatalf("%q: next %v has a fraction", expr, next)
					}
					if next.In(loc).Year() > maxYear+1 {
						t.Fatalf("%q: next %v beyond year limit", expr, next)
					}
					if loc != time.UTC {
						break
					}
					if k == 0 {
						if again, ok := e.Next(next.Add(-time.Second), loc); !ok || !again.Equal(next) {
							t.Fatalf("%q: the first fire after %v is %v, not %v", expr, next.Add(-time.Second), again, next)
						}
					}
					if why := matches(e, next); why != "" {
						t.Fatalf("%q: fire time %v does not match: %s", expr, next, why)
					}
					prev = next
				}
			}
		}
	})
}

// matches checks a fire time against the parsed fields, independently of
// the search: second, minute, hour, month and year must be in their sets;
// the day too when no L, W or # applies (one of day-of-month and
// day-of-week is "?", the other is checked; Quartz numbers SUN as 1).
func matches(e *Expression, t time.Time) string {
	checks := []struct {
		f    field
		v    int
		name string
	}{
		{fieldSecond, t.Second(), "second"}, {fieldMinute, t.Minute(), "minute"}, {fieldHour, t.Hour(), "hour"},
		{fieldMonth, int(t.Month()), "month"},
	}
	for _, c := range checks {
		if !e.sets[c.f].has(c.v) {
			return fmt.Sprintf("%s %d not in the field", c.name, c.v)
		}
	}
	if y := &e.sets[fieldYear]; !y.has(t.Year()) && !y.has(allSpec) {
		return fmt.Sprintf("year %d not in the field", t.Year())
	}
	if e.lastDayOfWeek || e.nthDayOfWeek != 0 || e.lastDayOfMonth || e.nearestWeekday || e.lastDayOffset != 0 {
		return ""
	}
	dom, dow := &e.sets[fieldDayOfMonth], &e.sets[fieldDayOfWeek]
	switch {
	case dom.has(noSpec) && !dow.has(allSpec) && !dow.has(int(t.Weekday())+1):
		return fmt.Sprintf("weekday %d not in the field", int(t.Weekday())+1)
	case dow.has(noSpec) && !dom.has(allSpec) && !dom.has(t.Day()):
		return fmt.Sprintf("day %d not in the field", t.Day())
	}
	return ""
}
