package route

import (
	"strings"
	"testing"
	"time"
)

// routing.md §1.5 deterministic sequence: [A,B,C] gives A,B,C,A; adding D
// gives B,C,A,D,B; removing B gives C,A,D,C.
func TestLeastRecentSequence(t *testing.T) {
	clock := newFakeClock()
	s := mustLookup(t, NewRegistry(Config{Now: clock.Now}), NameLeastRecentlyUsed)
	steps := []struct {
		addrs string
		picks string
	}{
		{"A,B,C", "A,B,C,A"},
		{"A,B,C,D", "B,C,A,D,B"},
		{"A,C,D", "C,A,D,C"},
	}
	for _, st := range steps {
		addrs := strings.Split(st.addrs, ",")
		var got []string
		for range strings.Count(st.picks, ",") + 1 {
			res := s.Route(t.Context(), Request{JobID: 8}, addrs)
			if !res.OK() || res.Msg != "" {
				t.Fatalf("Route = %+v", res)
			}
			got = append(got, res.Address)
		}
		if strings.Join(got, ",") != st.picks {
			t.Errorf("list %s: picks %v, want %s", st.addrs, got, st.picks)
		}
	}
	// Other jobs have their own order.
	if got := s.Route(t.Context(), Request{JobID: 9}, []string{"A", "C", "D"}); got.Address != "A" {
		t.Errorf("job 9 first pick %+v, want A", got)
	}
	// After 24 h all jobs restart from list order.
	clock.Advance(24*time.Hour + time.Millisecond)
	if got := s.Route(t.Context(), Request{JobID: 8}, []string{"A", "C", "D"}); got.Address != "A" {
		t.Errorf("after reset %+v, want A", got)
	}
}

// routing.md §1.5: LRU cycles, so the spread is exact.
func TestLeastRecentDistribution(t *testing.T) {
	addrs := []string{"a", "b", "c", "d"}
	got := countPicks(t, mustLookup(t, NewRegistry(Config{}), NameLeastRecentlyUsed), 3, 10_000, addrs)
	for _, a := range addrs {
		if got[a] != 2500 {
			t.Errorf("%s picked %d times, want 2500: %v", a, got[a], got)
		}
	}
}
