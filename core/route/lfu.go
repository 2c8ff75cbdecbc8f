package route

import (
	"context"
	"sync"
	"time"
)

// lfuCountMax is the use count above which Java re-seeds an address
// (routing.md §1.4 step 2).
const lfuCountMax = 1_000_000

// leastFrequent routes each job to the address it used least often
// (routing.md §1.4).
type leastFrequent struct {
	now func() time.Time
	rnd Rand

	mu     sync.Mutex
	window resetWindow
	jobs   map[int]map[string]int
}

func newLeastFrequent(now func() time.Time, rnd Rand) *leastFrequent {
	return &leastFrequent{now: now, rnd: rnd, jobs: make(map[int]map[string]int)}
}

func (s *leastFrequent) Route(_ context.Context, req Request, addresses []string) Result {
	if len(addresses) == 0 {
		return emptyList()
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.window.expired(s.now()) {
		clear(s.jobs)
	}
	counts := s.jobs[req.JobID]
	if counts == nil {
		counts = make(map[string]int, len(addresses))
		s.jobs[req.JobID] = counts
	}
	present := make(map[string]struct{}, len(addresses))
	for _, addr := range addresses {
		present[addr] = struct{}{}
		if c, ok := counts[addr]; !ok || c > lfuCountMax {
			// Random seeding spreads the first triggers of new jobs.
			counts[addr] = s.rnd.IntN(len(addresses))
		}
	}
	for addr := range counts {
		if _, ok := present[addr]; !ok {
			delete(counts, addr)
		}
	}
	// Ties go to the earliest address in list order; Java's tie order is
	// HashMap iteration order, which the spec leaves undefined.
	best := addresses[0]
	for _, addr := range addresses[1:] {
		if counts[addr] < counts[best] {
			best = addr
		}
	}
	counts[best]++
	return Result{Code: CodeSuccess, Address: best}
}
