package cluster

import (
	"testing"
	"time"
)

// TestAnalyzeExcused checks the pairing for runs whose excused seconds are
// known to be lost: a planned second outside the windows gets a late fire
// before an excused second does, while duplicates, misses and the cases
// Analyze handles stay as they were.
func TestAnalyzeExcused(t *testing.T) {
	base := time.Unix(1_800_000_000, 0)
	at := func(sec int, ms int) Fire {
		return Fire{JobID: 1, At: base.Add(time.Duration(sec)*time.Second + time.Duration(ms)*time.Millisecond)}
	}
	sec := func(s int) Window {
		return Window{From: base.Add(time.Duration(s) * time.Second), To: base.Add(time.Duration(s) * time.Second)}
	}
	last := base.Add(6 * time.Second) // planned seconds 0…6
	tests := []struct {
		name             string
		fires            []Fire
		excused          []Window
		fired, dups      int
		missExc, missEls int
		outside          int
	}{
		{name: "on time", fires: []Fire{at(0, 5), at(1, 5), at(2, 5), at(3, 5), at(4, 5), at(5, 5), at(6, 5)},
			fired: 7},
		// Seconds 2 and 4 were lost with a killed admin; second 3 (another
		// admin's) and 5 came together at 5.1 s after an outage.
		{name: "a late fire goes to its own second, not to an excused one",
			fires:   []Fire{at(0, 5), at(1, 5), at(5, 100), at(5, 150), at(6, 5)},
			excused: []Window{sec(2), sec(4)},
			fired:   5, missExc: 2},
		{name: "two fires in one second with no miss near is a duplicate",
			fires: []Fire{at(0, 5), at(1, 5), at(1, 7), at(2, 5), at(3, 5), at(4, 5), at(5, 5), at(6, 5)},
			fired: 7, dups: 1},
		{name: "miss outside a window",
			fires:   []Fire{at(0, 5), at(1, 5), at(3, 5), at(5, 5), at(6, 5)},
			excused: []Window{sec(4)},
			fired:   5, missEls: 1, missExc: 1},
		{name: "an excused second that did fire counts as fired",
			fires:   []Fire{at(0, 5), at(1, 5), at(2, 5), at(3, 5), at(4, 5), at(5, 5), at(6, 5)},
			excused: []Window{sec(2)},
			fired:   7},
		{name: "ring drain after the plan and other jobs are outside",
			fires: []Fire{at(0, 5), at(1, 5), at(2, 5), at(3, 5), at(4, 5), at(5, 5), at(6, 5), at(7, 5),
				{JobID: 2, At: base}, at(-7, 0)},
			fired: 7, outside: 3},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			r := AnalyzeExcused(tc.fires, []int{1}, base, last, tc.excused)
			if r.Planned != 7 || r.Fired != tc.fired || r.Duplicates != tc.dups || r.MissesExcused != tc.missExc ||
				r.MissesElsewhere != tc.missEls || r.Outside != tc.outside {
				t.Fatalf("got planned %d fired %d dups %d excused %d elsewhere %d outside %d",
					r.Planned, r.Fired, r.Duplicates, r.MissesExcused, r.MissesElsewhere, r.Outside)
			}
		})
	}
	// Analyze itself lets the excused second 4 take the fire of second 3.
	r := Analyze(tests[1].fires, []int{1}, base, last, tests[1].excused)
	if r.MissesElsewhere != 1 {
		t.Errorf("Analyze: %d misses elsewhere; the case above no longer shows what AnalyzeExcused is for", r.MissesElsewhere)
	}
}
