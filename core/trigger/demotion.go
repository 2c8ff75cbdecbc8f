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
//
// Beyond Java, which only counts a trigger once it has finished, a job
// also goes to the slow pool while one of its triggers has been running
// longer than slowCost: a trigger stuck on an executor that never finishes
// its answer counts at once, so a job whose every trigger hangs holds at
// most the fast workers of its last half second instead of all of them.
type demotion struct {
	mu     sync.Mutex
	minute int64
	counts map[int]int
	next   uint64
	// inFlight holds each job's running triggers. A job's entry stays
	// when its last trigger ends (a map made and dropped per trigger was
	// an allocation each); roll drops the empty ones every minute.
	inFlight map[int]*flights
	routed   int64 // triggers sent to the slow pool
}

// flights are the running triggers of one job: few, usually one.
type flights struct{ list []flight }

type flight struct {
	token uint64
	start time.Time
}

func newDemotion() *demotion {
	return &demotion{counts: map[int]int{}, inFlight: map[int]*flights{}}
}

// slow reports whether the job's next trigger belongs in the slow pool.
// Unlike Java, a new minute ends every count-based demotion at once
// instead of at the next finished trigger.
func (d *demotion) slow(jobID int, now time.Time) bool {
	d.mu.Lock()
	defer d.mu.Unlock()
	d.roll(now)
	s := d.counts[jobID] > slowLimit || d.stuck(jobID, now)
	if s {
		d.routed++
	}
	return s
}

// stuck reports whether a trigger of the job has run longer than slowCost.
func (d *demotion) stuck(jobID int, now time.Time) bool {
	f := d.inFlight[jobID]
	if f == nil {
		return false
	}
	for _, fl := range f.list {
		if now.Sub(fl.start) > slowCost {
			return true
		}
	}
	return false
}

// begin notes a trigger that starts running; the token ends it.
func (d *demotion) begin(jobID int, now time.Time) uint64 {
	d.mu.Lock()
	defer d.mu.Unlock()
	d.next++
	f := d.inFlight[jobID]
	if f == nil {
		f = &flights{}
		d.inFlight[jobID] = f
	}
	f.list = append(f.list, flight{token: d.next, start: now})
	return d.next
}

// end notes a finished trigger and how long it took.
func (d *demotion) end(jobID int, token uint64, cost time.Duration, now time.Time) {
	d.mu.Lock()
	defer d.mu.Unlock()
	if f := d.inFlight[jobID]; f != nil {
		for i, fl := range f.list {
			if fl.token == token {
				f.list = append(f.list[:i], f.list[i+1:]...)
				break
			}
		}
	}
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
	for id := range d.inFlight {
		if d.counts[id] <= slowLimit && d.stuck(id, now) {
			n++
		}
	}
	return n
}

// stats returns the triggers sent to the slow pool so far and those
// running longer than slowCost now.
func (d *demotion) stats(now time.Time) (routed int64, stuck int) {
	d.mu.Lock()
	defer d.mu.Unlock()
	for _, f := range d.inFlight {
		for _, fl := range f.list {
			if now.Sub(fl.start) > slowCost {
				stuck++
			}
		}
	}
	return d.routed, stuck
}

func (d *demotion) roll(now time.Time) {
	if m := now.UnixMilli() / 60000; m != d.minute {
		d.minute = m
		clear(d.counts)
		for id, f := range d.inFlight {
			if len(f.list) == 0 {
				delete(d.inFlight, id)
			}
		}
	}
}
