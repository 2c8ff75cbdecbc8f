package route

import (
	"math/rand/v2"
	"testing"
)

// routing.md §1.1: RANDOM picks uniformly.
func TestRandomDistribution(t *testing.T) {
	addrs := []string{"a", "b", "c", "d"}
	r := NewRegistry(Config{Rand: rand.New(rand.NewPCG(1, 2))})
	got := countPicks(t, mustLookup(t, r, NameRandom), 1, 10_000, addrs)
	for _, a := range addrs {
		// 2500 expected; 5 sigma of a binomial(10000, 1/4) is ~217.
		if n := got[a]; n < 2280 || n > 2720 {
			t.Errorf("%s picked %d times of 10000: %v", a, n, got)
		}
	}
}

// routing.md §1.1: the pick is list[rand(len)].
func TestRandomUsesSource(t *testing.T) {
	src := &scriptRand{t: t, vals: []int{2, 0, 1}}
	r := NewRegistry(Config{Rand: src})
	s := mustLookup(t, r, NameRandom)
	for _, want := range []string{"c", "a", "b"} {
		if got := s.Route(t.Context(), Request{JobID: 1}, []string{"a", "b", "c"}); got.Address != want {
			t.Errorf("Route = %+v, want %s", got, want)
		}
	}
}
