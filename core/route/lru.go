package route

import (
	"context"
	"slices"
	"sync"
	"time"
)

// leastRecent routes each job to the address it used longest ago
// (routing.md §1.5).
type leastRecent struct {
	now func() time.Time

	mu     sync.Mutex
	window resetWindow
	// jobs holds, per job, the addresses from eldest to most recent use,
	// like Java's access-ordered LinkedHashMap key order.
	jobs map[int][]string
}

func newLeastRecent(now func() time.Time) *leastRecent {
	return &leastRecent{now: now, jobs: make(map[int][]string)}
}

func (s *leastRecent) Route(_ context.Context, req Request, addresses []string) Result {
	if len(addresses) == 0 {
		return emptyList()
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.window.expired(s.now()) {
		clear(s.jobs)
	}
	order := s.jobs[req.JobID]
	known := make(map[string]struct{}, len(order))
	for _, addr := range order {
		known[addr] = struct{}{}
	}
	// New addresses join at the most-recent end; a membership check does
	// not count as an access.
	for _, addr := range addresses {
		if _, ok := known[addr]; !ok {
			known[addr] = struct{}{}
			order = append(order, addr)
		}
	}
	present := make(map[string]struct{}, len(addresses))
	for _, addr := range addresses {
		present[addr] = struct{}{}
	}
	order = slices.DeleteFunc(order, func(addr string) bool {
		_, ok := present[addr]
		return !ok
	})
	// Reading the eldest entry moves it to the most-recent end.
	eldest := order[0]
	copy(order, order[1:])
	order[len(order)-1] = eldest
	s.jobs[req.JobID] = order
	return Result{Code: CodeSuccess, Address: eldest}
}
