package route

import (
	"testing"
	"time"
)

// routing.md §1.2: random start, then cyclic per job; 24 h global reset.
func TestRoundSequence(t *testing.T) {
	abc := []string{"a", "b", "c"}
	clock := newFakeClock()
	src := &scriptRand{t: t, vals: []int{98, 5, 0}}
	r := NewRegistry(Config{Now: clock.Now, Rand: src})
	s := mustLookup(t, r, NameRound)
	steps := []struct {
		advance time.Duration
		jobID   int
		want    string
	}{
		{0, 1, "c"},                // start 98: 98 % 3 = 2
		{0, 1, "a"},                // 99
		{0, 2, "c"},                // job 2 starts at 5
		{0, 1, "b"},                // 100
		{0, 2, "a"},                // 6
		{24 * time.Hour, 1, "c"},   // now == valid-until: no reset yet, 101
		{time.Millisecond, 1, "a"}, // past it: all jobs cleared, job 1 restarts at 0
		{0, 1, "b"},
	}
	for i, st := range steps {
		clock.Advance(st.advance)
		got := s.Route(t.Context(), Request{JobID: st.jobID}, abc)
		if got != (Result{Code: CodeSuccess, Address: st.want}) {
			t.Errorf("step %d: job %d = %+v, want %s", i, st.jobID, got, st.want)
		}
	}
	for _, n := range src.asks {
		if n != roundRandomStart {
			t.Errorf("IntN(%d), want IntN(100)", n)
		}
	}
	if len(src.vals) != 0 {
		t.Errorf("unused random values %v: reset did not happen", src.vals)
	}
}

// routing.md §1.2 step 2: a counter above 1,000,000 is re-randomised.
func TestRoundCounterOverflow(t *testing.T) {
	src := &scriptRand{t: t, vals: []int{10, 4}}
	r := NewRegistry(Config{Now: newFakeClock().Now, Rand: src})
	s := mustLookup(t, r, NameRound)
	addrs := []string{"a", "b", "c", "d", "e"}
	s.Route(t.Context(), Request{JobID: 9}, addrs) // seeds 10
	s.(*round).counts[9] = roundCounterMax
	if got := s.Route(t.Context(), Request{JobID: 9}, addrs); got.Address != "b" { // 1,000,001 % 5 = 1
		t.Errorf("at max: %+v, want b", got)
	}
	if got := s.Route(t.Context(), Request{JobID: 9}, addrs); got.Address != "e" { // reseeded to 4
		t.Errorf("past max: %+v, want e", got)
	}
}

// routing.md §1.2: cyclic walk gives an exact even spread.
func TestRoundDistribution(t *testing.T) {
	addrs := []string{"a", "b", "c", "d"}
	got := countPicks(t, mustLookup(t, NewRegistry(Config{}), NameRound), 3, 10_000, addrs)
	for _, a := range addrs {
		if got[a] != 2500 {
			t.Errorf("%s picked %d times, want 2500: %v", a, got[a], got)
		}
	}
}
