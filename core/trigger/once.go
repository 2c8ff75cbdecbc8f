package trigger

import (
	"sync"
	"time"
)

// onceEvery is how often one job may get a FIRE_ONCE_NOW compensation
// fire. Java's schedule round reads a job at most once a second, so it
// compensates a misfired job at most once a second however many of its
// fires were missed; the pools find a job's missed fires in whichever
// batches they happen to take, so without this window a backlog taken in
// two batches would fire twice.
const onceEvery = time.Second

// onceWindow remembers which jobs got a compensation fire recently. Safe
// for the preparers and Submit to use at once.
type onceWindow struct {
	mu     sync.Mutex
	at     map[int]time.Time
	pruned time.Time
}

// allow reports whether job may get a compensation fire at now, and if so
// notes it.
func (w *onceWindow) allow(job int, now time.Time) bool {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.at == nil {
		w.at = map[int]time.Time{}
	}
	if now.Sub(w.pruned) >= onceEvery {
		for id, t := range w.at {
			if now.Sub(t) >= onceEvery {
				delete(w.at, id)
			}
		}
		w.pruned = now
	}
	if t, ok := w.at[job]; ok && now.Sub(t) < onceEvery {
		return false
	}
	w.at[job] = now
	return true
}
