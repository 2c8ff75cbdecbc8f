package cron

import (
	"testing"
	"time"
)

func mustLoad(t testing.TB, name string) *time.Location {
	t.Helper()
	loc, err := time.LoadLocation(name)
	if err != nil {
		t.Fatalf("load zone %s: %v", name, err)
	}
	return loc
}

// fireTimes lists up to n successive fire times after from.
func fireTimes(t *testing.T, expr string, from time.Time, loc *time.Location, n int) []string {
	t.Helper()
	e, err := Parse(expr)
	if err != nil {
		t.Fatalf("Parse(%q): %v", expr, err)
	}
	var out []string
	for range n {
		next, ok := e.Next(from, loc)
		if !ok {
			break
		}
		out = append(out, next.Format(time.RFC3339))
		from = next
	}
	return out
}

func equalStrings(a, b []string) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// TestNextSpecTable is the reference table of scheduler.md §2.1 (JVM zone
// UTC, fromTime 2024-11-16 10:15:30.500).
func TestNextSpecTable(t *testing.T) {
	from := time.Date(2024, 11, 16, 10, 15, 30, 500e6, time.UTC)
	tests := []struct {
		expr string
		want []string
	}{
		{"0 0 0 * * ? *", []string{"2024-11-17T00:00:00Z", "2024-11-18T00:00:00Z", "2024-11-19T00:00:00Z"}},
		{"*/5 * * * * ?", []string{"2024-11-16T10:15:35Z", "2024-11-16T10:15:40Z", "2024-11-16T10:15:45Z"}},
		{"0 0/30 9-17 ? * MON-FRI", []string{"2024-11-18T09:00:00Z", "2024-11-18T09:30:00Z", "2024-11-18T10:00:00Z"}},
		{"0 15 10 L * ?", []string{"2024-11-30T10:15:00Z", "2024-12-31T10:15:00Z", "2025-01-31T10:15:00Z"}},
		{"0 0 12 ? * 6#3", []string{"2024-12-20T12:00:00Z", "2025-01-17T12:00:00Z", "2025-02-21T12:00:00Z"}},
		{"0 0 0 29 2 ? 2025-2030", []string{"2028-02-29T00:00:00Z"}},
		{"0 0 0 1 1 ? 2020", nil},
	}
	for _, tt := range tests {
		if got := fireTimes(t, tt.expr, from, time.UTC, 3); !equalStrings(got, tt.want) {
			t.Errorf("%q: got %v, want %v", tt.expr, got, tt.want)
		}
	}
	whole := time.Date(2024, 11, 16, 10, 15, 30, 0, time.UTC)
	if got := fireTimes(t, "* * * * * ?", whole, time.UTC, 1); !equalStrings(got, []string{"2024-11-16T10:15:31Z"}) {
		t.Errorf("strictly-after: got %v", got)
	}
}

// TestNextDialect covers operators whose vectors are thin: L-n, LW, nW,
// nL, L in day-of-week, wrapping ranges, the 98/99 marker values and
// years (scheduler.md §2.1).
func TestNextDialect(t *testing.T) {
	jan := time.Date(2024, 1, 1, 0, 0, 0, 0, time.UTC)
	tests := []struct {
		expr string
		from time.Time
		want []string
	}{
		{"0 0 0 L-3 * ?", jan, []string{"2024-01-28T00:00:00Z", "2024-02-26T00:00:00Z", "2024-03-28T00:00:00Z"}},
		// Mar 31 2024 is a Sunday: the last weekday is Friday the 29th.
		{"0 0 0 LW * ?", jan, []string{"2024-01-31T00:00:00Z", "2024-02-29T00:00:00Z", "2024-03-29T00:00:00Z"}},
		// Jun 1 2024 is a Saturday: 1W does not leave the month, so Monday the 3rd.
		{"0 0 0 1W * ?", time.Date(2024, 5, 15, 0, 0, 0, 0, time.UTC), []string{"2024-06-03T00:00:00Z", "2024-07-01T00:00:00Z"}},
		// Jun 15 2024 is a Saturday (Friday 14th), Sep 15 a Sunday (Monday 16th).
		{"0 0 0 15W * ?", time.Date(2024, 6, 1, 0, 0, 0, 0, time.UTC), []string{"2024-06-14T00:00:00Z", "2024-07-15T00:00:00Z", "2024-08-15T00:00:00Z", "2024-09-16T00:00:00Z"}},
		{"0 0 0 ? * 6L", jan, []string{"2024-01-26T00:00:00Z", "2024-02-23T00:00:00Z"}},
		{"0 0 0 ? * L", jan, []string{"2024-01-06T00:00:00Z", "2024-01-13T00:00:00Z"}},
		{"0 0 22-2 * * ?", jan.Add(30 * time.Minute), []string{"2024-01-01T01:00:00Z", "2024-01-01T02:00:00Z", "2024-01-01T22:00:00Z"}},
		{"0 0 0 ? * FRI-MON", jan, []string{"2024-01-05T00:00:00Z", "2024-01-06T00:00:00Z", "2024-01-07T00:00:00Z", "2024-01-08T00:00:00Z", "2024-01-12T00:00:00Z"}},
		{"0 0 0 1 NOV-FEB ?", time.Date(2024, 3, 1, 0, 0, 0, 0, time.UTC), []string{"2024-11-01T00:00:00Z", "2024-12-01T00:00:00Z", "2025-01-01T00:00:00Z", "2025-02-01T00:00:00Z", "2025-11-01T00:00:00Z"}},
		{"0 0 0 98 * 99", jan, []string{"2024-01-02T00:00:00Z"}},
		{"0 0 0 1 1 ? 99", time.Date(2024, 6, 1, 0, 0, 0, 0, time.UTC), []string{"2025-01-01T00:00:00Z"}},
		{"5X 0 0 * * ?", jan, []string{"2024-01-01T00:00:05Z"}},
		{"0 0 0 1 1 ? 2024", time.Date(2024, 6, 1, 0, 0, 0, 0, time.UTC), nil},
		{"L * * * * ?", jan, nil}, // empty seconds set: Java fails while searching
	}
	for _, tt := range tests {
		if got := fireTimes(t, tt.expr, tt.from, time.UTC, max(len(tt.want), 1)); !equalStrings(got, tt.want) {
			t.Errorf("%q: got %v, want %v", tt.expr, got, tt.want)
		}
	}
}

// TestNextDST checks the daylight-saving behaviour described in
// conformance/cron/README.md: no fire for a local time the spring-forward
// day skips; fires only in the second pass of a repeated hour.
func TestNextDST(t *testing.T) {
	ny := mustLoad(t, "America/New_York")
	berlin := mustLoad(t, "Europe/Berlin")
	tests := []struct {
		name string
		expr string
		loc  *time.Location
		from string
		want []string
	}{
		{"NY spring gap skipped", "0 30 2 * * ?", ny, "2025-03-08T12:00:00-05:00",
			[]string{"2025-03-10T02:30:00-04:00", "2025-03-11T02:30:00-04:00"}},
		{"NY fall-back second pass", "0 30 1 * * ?", ny, "2025-11-01T12:00:00-04:00",
			[]string{"2025-11-02T01:30:00-05:00", "2025-11-03T01:30:00-05:00"}},
		{"Berlin spring gap skipped", "0 30 2 * * ?", berlin, "2025-03-29T12:00:00+01:00",
			[]string{"2025-03-31T02:30:00+02:00"}},
		{"Berlin fall-back second pass", "0 30 2 * * ?", berlin, "2025-10-25T12:00:00+02:00",
			[]string{"2025-10-26T02:30:00+01:00", "2025-10-27T02:30:00+01:00"}},
		// A start inside the first pass is re-read as the same wall time in
		// the second pass (the calendar re-resolves it), so the search
		// continues from there.
		{"NY start in first pass", "* * * * * ?", ny, "2025-11-02T01:30:00-04:00",
			[]string{"2025-11-02T01:30:01-05:00"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			from, err := time.Parse(time.RFC3339, tt.from)
			if err != nil {
				t.Fatal(err)
			}
			if got := fireTimes(t, tt.expr, from, tt.loc, len(tt.want)); !equalStrings(got, tt.want) {
				t.Errorf("got %v, want %v", got, tt.want)
			}
		})
	}
}

// TestNextBounded checks that searches end: past the year limit there is
// no fire time, and inputs on which the Java loop never ends give up.
func TestNextBounded(t *testing.T) {
	from := time.Date(2024, 1, 1, 0, 0, 0, 0, time.UTC)
	e, err := parseWithMaxYear("0 0 0 ? * 2#1 2030-2040", 2035)
	if err != nil {
		t.Fatal(err)
	}
	if got, ok := e.Next(time.Date(2035, 12, 10, 0, 0, 0, 0, time.UTC), time.UTC); ok {
		t.Errorf("beyond max year: got %v", got)
	}
	for _, expr := range []string{"0 0 0 0W * ?", "0 0 0 30 2 ?", "0 0 0 ? * 9#5"} {
		e, err := Parse(expr)
		if err != nil {
			t.Fatal(err)
		}
		if got, ok := e.Next(from, time.UTC); ok {
			t.Errorf("%q: got %v, want none", expr, got)
		}
	}
	e, _ = Parse("0 0 0 0W * ?")
	if _, _, err := e.next(from, time.UTC); err == nil {
		t.Error("endless Java search: want an error")
	}
}

// TestNextNilLocation checks that a nil zone means the local zone, as the
// Java admin evaluates in the JVM default zone (scheduler.md §13).
func TestNextNilLocation(t *testing.T) {
	e, err := Parse("0 0 * * * ?")
	if err != nil {
		t.Fatal(err)
	}
	from := time.Date(2024, 1, 1, 0, 30, 0, 0, time.UTC)
	a, okA := e.Next(from, nil)
	b, okB := e.Next(from, time.Local)
	if !okA || !okB || !a.Equal(b) {
		t.Errorf("nil zone %v, local %v", a, b)
	}
}

// TestResolveWall pins the wall-clock resolution of GregorianCalendar:
// gap readings move forward, overlap readings take the second pass.
func TestResolveWall(t *testing.T) {
	ny := mustLoad(t, "America/New_York")
	berlin := mustLoad(t, "Europe/Berlin")
	wall := func(y, mo, d, h, mi int) int64 {
		return time.Date(y, time.Month(mo), d, h, mi, 0, 0, time.UTC).Unix()
	}
	tests := []struct {
		name string
		loc  *time.Location
		wall int64
		want string
	}{
		{"NY gap", ny, wall(2025, 3, 9, 2, 30), "2025-03-09T07:30:00Z"},
		{"NY gap start", ny, wall(2025, 3, 9, 2, 0), "2025-03-09T07:00:00Z"},
		{"NY after gap", ny, wall(2025, 3, 9, 3, 0), "2025-03-09T07:00:00Z"},
		{"NY overlap", ny, wall(2025, 11, 2, 1, 30), "2025-11-02T06:30:00Z"},
		{"NY overlap start", ny, wall(2025, 11, 2, 1, 0), "2025-11-02T06:00:00Z"},
		{"NY before overlap", ny, wall(2025, 11, 2, 0, 59), "2025-11-02T04:59:00Z"},
		{"Berlin gap", berlin, wall(2025, 3, 30, 2, 30), "2025-03-30T01:30:00Z"},
		{"Berlin overlap", berlin, wall(2025, 10, 26, 2, 30), "2025-10-26T01:30:00Z"},
		{"NY rule range", ny, wall(2041, 1, 1, 0, 0), "2041-01-01T05:00:00Z"},
		{"UTC", time.UTC, wall(2025, 3, 9, 2, 30), "2025-03-09T02:30:00Z"},
	}
	for _, tt := range tests {
		got := time.Unix(resolveWall(tt.loc, tt.wall), 0).UTC().Format(time.RFC3339)
		if got != tt.want {
			t.Errorf("%s: got %s, want %s", tt.name, got, tt.want)
		}
	}
}
