package cluster

import (
	"testing"
	"time"
)

// TestAnalyze checks the pairing of fires with planned seconds that the
// cluster tests rely on: one fire per job and whole second (scheduler.md
// §3.3 ring), late fires kept on their own second, a second fire in one
// trigger second always a duplicate (never excused by a nearby miss or a
// kill window), and misses excused only inside kill windows (§14).
func TestAnalyze(t *testing.T) {
	base := time.Unix(1_800_000_000, 0)
	at := func(sec int, ms int) Fire {
		return Fire{JobID: 1, At: base.Add(time.Duration(sec)*time.Second + time.Duration(ms)*time.Millisecond)}
	}
	// triggered sets the admin's trigger time of a fire received later.
	triggered := func(f Fire, sec, ms int) Fire {
		f.Trigger = base.Add(time.Duration(sec)*time.Second + time.Duration(ms)*time.Millisecond)
		return f
	}
	last := base.Add(4 * time.Second) // planned seconds 0…4
	tests := []struct {
		name             string
		fires            []Fire
		excused          []Window
		fired, dups      int
		missExc, missEls int
		outside          int
		maxLate          time.Duration
	}{
		{name: "on time", fires: []Fire{at(0, 5), at(1, 5), at(2, 5), at(3, 5), at(4, 5)},
			fired: 5, maxLate: 5 * time.Millisecond},
		{name: "second 1 received 1.4 s late stays on its second",
			fires: []Fire{at(0, 5), triggered(at(2, 400), 1, 5), at(2, 500), at(3, 5), at(4, 5)},
			fired: 5, maxLate: 1400 * time.Millisecond},
		{name: "two fires in one second with no miss near is a duplicate",
			fires: []Fire{at(0, 5), at(1, 5), at(1, 7), at(2, 5), at(3, 5), at(4, 5)},
			fired: 5, dups: 1, maxLate: 5 * time.Millisecond},
		{name: "a duplicate next to a miss is still a duplicate",
			fires: []Fire{at(0, 5), at(1, 5), at(1, 7), at(3, 5), at(4, 5)},
			fired: 4, dups: 1, missEls: 1, maxLate: 5 * time.Millisecond},
		{name: "two fires in the second after a miss are a duplicate, not a late fire",
			fires: []Fire{at(0, 5), at(2, 5), at(2, 7), at(3, 5), at(4, 5)},
			fired: 5, dups: 1, maxLate: 1005 * time.Millisecond},
		{name: "a kill window excuses misses, never a duplicate",
			fires:   []Fire{at(0, 5), at(1, 5), at(1, 9), at(4, 5)},
			excused: []Window{{From: base.Add(time.Second), To: base.Add(3 * time.Second)}},
			fired:   3, dups: 1, missExc: 2, maxLate: 5 * time.Millisecond},
		{name: "miss outside a window",
			fires: []Fire{at(0, 5), at(1, 5), at(3, 5), at(4, 5)},
			fired: 4, missEls: 1, maxLate: 5 * time.Millisecond},
		{name: "misses inside a window are excused",
			fires:   []Fire{at(0, 5), at(3, 5), at(4, 5)},
			excused: []Window{{From: base.Add(time.Second), To: base.Add(2 * time.Second)}},
			fired:   3, missExc: 2, maxLate: 5 * time.Millisecond},
		{name: "ring drain after the plan and other jobs are outside",
			fires: []Fire{at(0, 5), at(1, 5), at(2, 5), at(3, 5), at(4, 5), at(5, 5), at(6, 5),
				{JobID: 2, At: base}},
			fired: 5, outside: 3, maxLate: 5 * time.Millisecond},
		{name: "over MaxLate is no fire for the second",
			fires: []Fire{at(0, 5), at(1, 5), at(2, 5), at(3, 5), at(4, 5), at(-7, 0)},
			fired: 5, outside: 1, maxLate: 5 * time.Millisecond},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			r := Analyze(tc.fires, []int{1}, base, last, tc.excused)
			if r.Planned != 5 || r.Fired != tc.fired || r.Duplicates != tc.dups || r.MissesExcused != tc.missExc ||
				r.MissesElsewhere != tc.missEls || r.Outside != tc.outside || r.Lateness.Max != tc.maxLate {
				t.Fatalf("got planned %d fired %d dups %d excused %d elsewhere %d outside %d max late %s",
					r.Planned, r.Fired, r.Duplicates, r.MissesExcused, r.MissesElsewhere, r.Outside, r.Lateness.Max)
			}
		})
	}
}

func TestSummarize(t *testing.T) {
	d := make([]time.Duration, 100)
	for i := range d {
		d[i] = time.Duration(100-i) * time.Millisecond
	}
	s := Summarize(d)
	if s.N != 100 || s.P50 != 51*time.Millisecond || s.P99 != 100*time.Millisecond || s.Max != 100*time.Millisecond {
		t.Fatalf("%+v", s)
	}
	if (Summarize(nil) != Summary{}) {
		t.Fatal("empty input")
	}
}

// TestLookBack: a late pair (two fires in one second, none in the second
// before, from one admin or two) is one fire for each second; a pair next
// to a fired second stays a duplicate, and so does every pair of a
// scheduler that fires twice.
func TestLookBack(t *testing.T) {
	base := time.Unix(1_800_000_000, 0)
	at := func(sec, ms int, admin string) Fire {
		tt := base.Add(time.Duration(sec)*time.Second + time.Duration(ms)*time.Millisecond)
		return Fire{JobID: 1, At: tt, Trigger: tt, Admin: admin}
	}
	tests := []struct {
		name   string
		fires  []Fire
		placed int
		dups   int
	}{
		{"late tick", []Fire{at(0, 5, "a"), at(2, 100, "a"), at(2, 110, "a"), at(3, 5, "a")}, 1, 0},
		{"pair after a fired second", []Fire{at(0, 5, "a"), at(1, 5, "a"), at(1, 9, "a"), at(2, 5, "a")}, 0, 1},
		{"late pair from two admins", []Fire{at(0, 5, "a"), at(2, 100, "a"), at(2, 110, "b"), at(3, 5, "a")}, 1, 0},
		{"doubled throughout", []Fire{at(0, 5, "a"), at(0, 6, "a"), at(1, 5, "a"), at(1, 6, "a"), at(2, 5, "a"), at(2, 6, "a"),
			at(3, 5, "a"), at(3, 6, "a")}, 0, 4},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			fires, placed := LookBack(tc.fires, base)
			r := Analyze(fires, []int{1}, base, base.Add(3*time.Second), nil)
			if placed != tc.placed || r.Duplicates != tc.dups {
				t.Fatalf("placed %d duplicates %d, want %d and %d", placed, r.Duplicates, tc.placed, tc.dups)
			}
		})
	}
}

// TestAnalyzeOverloaded: when fires run more than a second late (p99 of
// at least 100), the trigger second no longer names the planned one; a
// fire then counts for a free planned second up to OverloadWindow before
// it. A cascade of late fires ending where the lag stops is no duplicate;
// a scheduler that fires twice still is.
func TestAnalyzeOverloaded(t *testing.T) {
	base := time.Unix(1_800_000_000, 0)
	at := func(sec, ms int) Fire {
		tt := base.Add(time.Duration(sec)*time.Second + time.Duration(ms)*time.Millisecond)
		return Fire{JobID: 1, At: tt, Trigger: tt}
	}
	const n = 120
	last := base.Add((n - 1) * time.Second)
	// Every fire 1.3 s late (it lands in the next second), but the last
	// ones on time: the second where the lag stops holds two.
	var cascade []Fire
	for s := range n {
		if s < n-3 {
			cascade = append(cascade, at(s+1, 300))
		} else {
			cascade = append(cascade, at(s, 5))
		}
	}
	r := Analyze(cascade, []int{1}, base, last, nil)
	if !r.Overloaded || r.Duplicates != 0 || r.MissesElsewhere != 0 {
		t.Errorf("cascade: overloaded %v, %d duplicates, %d misses; want an overloaded run with none", r.Overloaded, r.Duplicates, r.MissesElsewhere)
	}
	var doubled []Fire
	for s := range n {
		doubled = append(doubled, at(s+1, 300), at(s+1, 310))
	}
	r = Analyze(doubled, []int{1}, base, last, nil)
	if r.Duplicates < n-OverloadWindow {
		t.Errorf("doubled and late: %d duplicates; want at least %d", r.Duplicates, n-OverloadWindow)
	}
}
