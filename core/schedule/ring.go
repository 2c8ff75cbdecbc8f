package schedule

import "sync"

// ringSlots is one slot per second of a minute (scheduler.md §3.3).
const ringSlots = 60

// entry is one planned fire of a job: the id the ring submits, the planned
// trigger_next_time (epoch ms) it stands for, and the job's misfire
// strategy as the round read it (the pools apply it when they cannot fire
// on time).
type entry struct {
	jobID   int
	planned int64
	misfire string
}

// ring is the in-memory time ring of one admin: second-of-minute → job
// fires waiting for that second. A job fires once per planned second: a
// round's compare-and-set never plans the same (job, second) twice, and
// take drops a repeat anyway, as the 3.3.0 ring does (2.4.2's fired every
// copy pushed).
type ring struct {
	mu      sync.Mutex
	slots   [ringSlots][]entry
	n       int
	waiters []chan struct{} // closed when the ring becomes empty
	// ticked is the last epoch second taken (0: none yet). A fire for it or
	// an earlier second would wait a whole minute in its slot.
	ticked int64
	// seen holds the fires a take has collected, to drop repeats in
	// constant time; kept between takes so its buckets are reused.
	seen map[fireKey]struct{}
}

// fireKey identifies a planned fire: a job and its planned time.
type fireKey struct {
	jobID   int
	planned int64
}

// slotOf is the slot Java pushes a planned time into: epoch seconds mod 60.
func slotOf(plannedMs int64) int {
	return int(floorMod(floorDiv(plannedMs, 1000), ringSlots))
}

func floorDiv(a, b int64) int64 {
	q := a / b
	if (a%b != 0) && ((a < 0) != (b < 0)) {
		q--
	}
	return q
}

// push adds a fire to its slot, unless that second was already taken (a
// round that committed after the tick of a second it planned): then it
// returns false and the caller submits the fire at once. Java pushes it
// anyway, and it fires a minute late when the slot comes round again.
func (r *ring) push(e entry) bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.ticked != 0 && floorDiv(e.planned, 1000) <= r.ticked {
		return false
	}
	s := slotOf(e.planned)
	r.slots[s] = append(r.slots[s], e)
	r.n++
	return true
}

// take removes and returns the entries of second (epoch seconds) and of
// the two seconds before it: the look-back that rescues the slots of a
// tick that came up to two seconds late. 2.4.2 looked one second back, so
// a tick two seconds late left a slot's fires waiting a whole minute;
// 3.3.0 looks two back (JobScheduleHelper.java 3.4.2 line 220), and so do
// we on both generations.
func (r *ring) take(second int64) []entry {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.ticked = max(r.ticked, second)
	slot := int(floorMod(second, ringSlots))
	slots := [3]int{slot, (slot + ringSlots - 1) % ringSlots, (slot + ringSlots - 2) % ringSlots}
	total := 0
	for _, s := range slots {
		total += len(r.slots[s])
	}
	// A set, not a search of out: a second of 8,000 fires took 8,000²/2
	// comparisons (over 100 ms on a busy 2-core box), and the tick runs
	// PrepareLead before its second, so its length delayed the second.
	var out []entry
	if total > 0 {
		out = make([]entry, 0, total)
		if r.seen == nil {
			r.seen = make(map[fireKey]struct{}, total)
		}
		defer clear(r.seen)
	}
	for _, s := range slots {
		for _, e := range r.slots[s] {
			k := fireKey{e.jobID, e.planned}
			if _, dup := r.seen[k]; !dup {
				r.seen[k] = struct{}{}
				out = append(out, e)
			}
		}
		r.n -= len(r.slots[s])
		r.slots[s] = nil
	}
	if r.n == 0 {
		for _, w := range r.waiters {
			close(w)
		}
		r.waiters = nil
	}
	return out
}

// len is the number of entries waiting.
func (r *ring) len() int {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.n
}

// emptied returns a channel closed once the ring holds nothing.
func (r *ring) emptied() <-chan struct{} {
	r.mu.Lock()
	defer r.mu.Unlock()
	ch := make(chan struct{})
	if r.n == 0 {
		close(ch)
	} else {
		r.waiters = append(r.waiters, ch)
	}
	return ch
}

// snapshot lists every waiting entry, for tests and the stop log.
func (r *ring) snapshot() []entry {
	r.mu.Lock()
	defer r.mu.Unlock()
	var out []entry
	for _, s := range r.slots {
		out = append(out, s...)
	}
	return out
}
