package route

import (
	"context"
	"sync"
	"time"
)

// Java re-seeds a job's counter once it passes roundCounterMax, and seeds
// new counters with a random start below roundRandomStart (routing.md §1.2).
const (
	roundCounterMax  = 1_000_000
	roundRandomStart = 100
)

// round walks the list cyclically per job from a random start
// (routing.md §1.2).
type round struct {
	now func() time.Time
	rnd Rand

	mu     sync.Mutex
	window resetWindow
	counts map[int]int
}

func newRound(now func() time.Time, rnd Rand) *round {
	return &round{now: now, rnd: rnd, counts: make(map[int]int)}
}

func (s *round) Route(_ context.Context, req Request, addresses []string) Result {
	if len(addresses) == 0 {
		return emptyList()
	}
	n := s.next(req.JobID)
	return Result{Code: CodeSuccess, Address: addresses[n%len(addresses)]}
}

// next returns the job's counter after this call.
func (s *round) next(jobID int) int {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.window.expired(s.now()) {
		clear(s.counts)
	}
	c, ok := s.counts[jobID]
	if !ok || c > roundCounterMax {
		// A fresh start is random and not incremented, so jobs created
		// together do not all hit the first executor.
		c = s.rnd.IntN(roundRandomStart)
	} else {
		c++
	}
	s.counts[jobID] = c
	return c
}
