package route

import (
	"slices"
	"testing"
	"time"
)

// routing.md §1.4: random seeds in [0, len), lowest count wins, stale
// addresses dropped, new ones seeded, counts above 1,000,000 reseeded,
// 24 h reset. Selections are chosen so that no tie is involved.
func TestLeastFrequentSteps(t *testing.T) {
	clock := newFakeClock()
	src := &scriptRand{t: t, vals: []int{2, 0, 1, 3, 0, 0, 0}}
	r := NewRegistry(Config{Now: clock.Now, Rand: src})
	s := mustLookup(t, r, NameLeastFrequentlyUsed)
	lfu := s.(*leastFrequent)
	steps := []struct {
		desc   string
		before func()
		addrs  []string
		want   string
		counts map[string]int // after the pick
	}{
		{"seeds a=2 b=0 c=1", nil, []string{"a", "b", "c"}, "b", map[string]int{"a": 2, "b": 1, "c": 1}},
		{"c dropped, d=3 e=0 seeded", nil, []string{"a", "b", "d", "e"}, "e", map[string]int{"a": 2, "b": 1, "d": 3, "e": 1}},
		{"a over the cap is reseeded to 0", func() { lfu.jobs[5]["a"] = lfuCountMax + 1 },
			[]string{"a", "b", "d", "e"}, "a", map[string]int{"a": 1, "b": 1, "d": 3, "e": 1}},
		{"24 h later everything is cleared", func() { clock.Advance(24*time.Hour + time.Millisecond) },
			[]string{"x"}, "x", map[string]int{"x": 1}},
	}
	for _, st := range steps {
		if st.before != nil {
			st.before()
		}
		got := s.Route(t.Context(), Request{JobID: 5}, st.addrs)
		if got != (Result{Code: CodeSuccess, Address: st.want}) {
			t.Errorf("%s: Route = %+v, want %s", st.desc, got, st.want)
		}
		if !mapsEqual(lfu.jobs[5], st.counts) {
			t.Errorf("%s: counts %v, want %v", st.desc, lfu.jobs[5], st.counts)
		}
	}
	if want := []int{3, 3, 3, 4, 4, 4, 1}; !slices.Equal(src.asks, want) {
		t.Errorf("IntN calls %v, want %v (seed range = list length)", src.asks, want)
	}
}

func mapsEqual(a, b map[string]int) bool {
	if len(a) != len(b) {
		return false
	}
	for k, v := range a {
		if w, ok := b[k]; !ok || w != v {
			return false
		}
	}
	return true
}

// routing.md §1.4: LFU balances use counts.
func TestLeastFrequentDistribution(t *testing.T) {
	addrs := []string{"a", "b", "c", "d"}
	got := countPicks(t, mustLookup(t, NewRegistry(Config{}), NameLeastFrequentlyUsed), 3, 10_000, addrs)
	for _, a := range addrs {
		// Seeds differ by < len(addrs), so the spread stays within it.
		if n := got[a]; n < 2500-4 || n > 2500+4 {
			t.Errorf("%s picked %d times: %v", a, n, got)
		}
	}
}
