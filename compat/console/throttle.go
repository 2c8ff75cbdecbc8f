package console

import (
	"sync"
	"time"
)

// Login throttling: after freeFailures wrong passwords within window for
// one user name or one client address, each further attempt waits
// (doubling from baseDelay up to maxDelay) before it is answered. The
// answer itself is unchanged, so it never tells whether a user exists.
const (
	freeFailures = 5
	window       = 15 * time.Minute
	baseDelay    = 250 * time.Millisecond
	maxDelay     = 5 * time.Second
	maxTracked   = 10000
)

type throttle struct {
	mu    sync.Mutex
	now   func() time.Time
	fails map[string]*failures
}

type failures struct {
	n    int
	last time.Time
}

func newThrottle(now func() time.Time) *throttle {
	return &throttle{now: now, fails: map[string]*failures{}}
}

// delay is how long a login attempt for these keys waits first.
func (t *throttle) delay(keys ...string) time.Duration {
	t.mu.Lock()
	defer t.mu.Unlock()
	worst := 0
	for _, k := range keys {
		if f, ok := t.fails[k]; ok && t.now().Sub(f.last) < window {
			worst = max(worst, f.n)
		}
	}
	if worst < freeFailures {
		return 0
	}
	d := baseDelay << min(worst-freeFailures, 5)
	return min(d, maxDelay)
}

// failed records a wrong password for these keys.
func (t *throttle) failed(keys ...string) {
	t.mu.Lock()
	defer t.mu.Unlock()
	now := t.now()
	if len(t.fails) >= maxTracked {
		for k, f := range t.fails {
			if now.Sub(f.last) >= window {
				delete(t.fails, k)
			}
		}
	}
	for _, k := range keys {
		f, ok := t.fails[k]
		if !ok || now.Sub(f.last) >= window {
			f = &failures{}
			t.fails[k] = f
		}
		f.n++
		f.last = now
	}
}

// succeeded forgets the failures of a user name after a good login.
func (t *throttle) succeeded(key string) {
	t.mu.Lock()
	defer t.mu.Unlock()
	delete(t.fails, key)
}
