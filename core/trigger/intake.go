package trigger

import (
	"math/rand/v2"
	"sync"
	"time"
)

// MisfireAfter is how late a schedule fire may leave before it counts as
// misfired and its job's misfire strategy applies instead: Java's
// PRE_READ_MS, the bound past which its schedule round calls a fire
// misfired (scheduler.md §3.2 case A).
const MisfireAfter = 5 * time.Second

// leaveMargin is how long a fire taken from the intake may still take to
// leave (prepared with its batch, then sent) on a busy admin: fires taken
// later than MisfireAfter - leaveMargin are misfired, so that none leaves
// more than MisfireAfter late.
const leaveMargin = time.Second

// intake holds the triggers of one pool that are accepted but not yet
// prepared, bounded in number. Triggers for now (console, API, retries,
// child jobs) wait in arrival order and go first; planned ones (schedule
// fires) wait in one bucket per planned second.
//
// When more is due than the pool can fire, the newest second is served
// first, in a shuffled order: fires that can still leave on time do, and
// the backlog ages instead of making every later second late too. A
// bucket more than MisfireAfter old is handed back as misfired. Shuffling
// spreads the misfires of an overloaded second over all its jobs instead
// of always the same ones.
type intake struct {
	cap int

	mu      sync.Mutex
	n       int
	urgent  []Request
	buckets map[int64]*bucket // planned epoch second → its fires
	wake    chan struct{}     // a send when something was put
}

type bucket struct {
	reqs     []Request
	shuffled bool
}

func newIntake(capacity int) *intake {
	return &intake{cap: capacity, buckets: map[int64]*bucket{}, wake: make(chan struct{}, 1)}
}

// put accepts a request unless the intake is full.
func (in *intake) put(req Request) bool {
	in.mu.Lock()
	if in.n >= in.cap {
		in.mu.Unlock()
		return false
	}
	in.n++
	if req.At.IsZero() {
		in.urgent = append(in.urgent, req)
	} else {
		sec := req.At.Unix()
		b := in.buckets[sec]
		if b == nil {
			b = &bucket{}
			in.buckets[sec] = b
		}
		b.reqs = append(b.reqs, req)
	}
	in.mu.Unlock()
	select {
	case in.wake <- struct{}{}:
	default:
	}
	return true
}

// len is the number of requests waiting.
func (in *intake) len() int {
	in.mu.Lock()
	defer in.mu.Unlock()
	return in.n
}

// take removes up to max requests that are due by horizon (planned in a
// second that has begun by then), urgent ones first, then the newest
// planned second first. It also removes and returns every fire with a
// misfire strategy planned more than MisfireAfter before now. next is when the earliest
// second left behind becomes due (zero when none waits for its time).
func (in *intake) take(now, horizon time.Time, max int) (reqs, misfired []Request, next time.Time) {
	in.mu.Lock()
	defer in.mu.Unlock()
	for sec, b := range in.buckets {
		if now.Sub(time.Unix(sec, 0)) <= MisfireAfter-leaveMargin {
			continue
		}
		kept := b.reqs[:0]
		for _, r := range b.reqs {
			if r.Misfire != "" && now.Sub(r.At) > MisfireAfter-leaveMargin {
				misfired = append(misfired, r)
			} else {
				kept = append(kept, r)
			}
		}
		in.n -= len(b.reqs) - len(kept)
		b.reqs = kept
		if len(kept) == 0 {
			delete(in.buckets, sec)
		}
	}
	n := min(max, len(in.urgent))
	reqs = append(reqs, in.urgent[:n]...)
	in.urgent = in.urgent[n:]
	in.n -= n
	if len(in.urgent) == 0 {
		in.urgent = nil // let the backing array go
	}
	for len(reqs) < max {
		sec, b := in.newestDue(horizon)
		if b == nil {
			break
		}
		if !b.shuffled {
			rand.Shuffle(len(b.reqs), func(i, j int) { b.reqs[i], b.reqs[j] = b.reqs[j], b.reqs[i] })
			b.shuffled = true
		}
		k := min(max-len(reqs), len(b.reqs))
		// From the end, so the bucket's array only shrinks.
		reqs = append(reqs, b.reqs[len(b.reqs)-k:]...)
		b.reqs = b.reqs[:len(b.reqs)-k]
		in.n -= k
		if len(b.reqs) == 0 {
			delete(in.buckets, sec)
		}
	}
	for sec := range in.buckets {
		if at := time.Unix(sec, 0); at.After(horizon) && (next.IsZero() || at.Before(next)) {
			next = at
		}
	}
	return reqs, misfired, next
}

// newestDue returns the newest bucket whose second has begun by horizon.
func (in *intake) newestDue(horizon time.Time) (int64, *bucket) {
	var best int64
	var found *bucket
	limit := horizon.Unix()
	for sec, b := range in.buckets {
		if sec <= limit && (found == nil || sec > best) {
			best, found = sec, b
		}
	}
	return best, found
}

// drain removes everything (at shutdown), for the log.
func (in *intake) drain() []Request {
	in.mu.Lock()
	defer in.mu.Unlock()
	out := in.urgent
	for _, b := range in.buckets {
		out = append(out, b.reqs...)
	}
	in.urgent, in.buckets, in.n = nil, map[int64]*bucket{}, 0
	return out
}
