package route

import (
	"fmt"
	"math/rand/v2"
	"sync"
	"testing"
)

// Every strategy is shared by all trigger threads; run them in parallel
// (meaningful under -race) with an injected, non-thread-safe source, and
// check each answer is a member of the list.
func TestConcurrentUse(t *testing.T) {
	addrs := []string{"a", "b", "c"}
	r := NewRegistry(Config{
		Prober: &fakeProber{},
		Text:   bundleText(t, "en"),
		Now:    newFakeClock().Now,
		Rand:   rand.New(rand.NewPCG(3, 4)),
	})
	const workers, perWorker = 8, 100
	var wg sync.WaitGroup
	errs := make(chan error, workers)
	for w := range workers {
		wg.Go(func() {
			for i := range perWorker {
				for _, in := range Strategies() {
					s, _ := r.Lookup(in.Name)
					req := Request{JobID: (w + i) % 5, BroadcastIndex: i % 3}
					res := s.Route(t.Context(), req, addrs)
					if !res.OK() || (res.Address != "a" && res.Address != "b" && res.Address != "c") {
						errs <- fmt.Errorf("%s: %+v", in.Name, res)
						return
					}
				}
			}
		})
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
}
