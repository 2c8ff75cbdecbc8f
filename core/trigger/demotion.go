package trigger

import (
	"sync"
	"time"
)

// Demotion thresholds of JobTriggerPoolHelper (scheduler.md §4): a trigger
// is slow when it takes more than slowCost; a job with more than
// slowLimit slow triggers in the current minute uses the slow pool.
const (
	slowCost  = 500 * time.Millisecond
	slowLimit = 10
)

// demotion counts each job's slow triggers in the current minute of the
// admin clock (epoch ms / 60000, scheduler.md §13).
type demotion struct {
	mu     sync.Mutex
	minute int64
	counts map[int]int
}

func newDemotion() *demotion { return &demotion{counts: map[int]int{}} }

// slow reports whether the job's next trigger belongs in the slow pool.
// Unlike Java, a new minute ends every demotion at once instead of at the
// next finished trigger.
func (d *demotion) slow(jobID int, now time.Time) bool {
	d.mu.Lock()
	defer d.mu.Unlock()
	d.roll(now)
	return d.counts[jobID] > slowLimit
}

// record notes a finished trigger and how long it took.
func (d *demotion) record(jobID int, cost time.Duration, now time.Time) {
	d.mu.Lock()
	defer d.mu.Unlock()
	d.roll(now)
	if cost > slowCost {
		d.counts[jobID]++
	}
}

// demoted counts the jobs currently in the slow pool.
func (d *demotion) demoted(now time.Time) int {
	d.mu.Lock()
	defer d.mu.Unlock()
	d.roll(now)
	n := 0
	for _, c := range d.counts {
		if c > slowLimit {
			n++
		}
	}
	return n
}

func (d *demotion) roll(now time.Time) {
	if m := now.UnixMilli() / 60000; m != d.minute {
		d.minute = m
		clear(d.counts)
	}
}
