package clock

import (
	"context"
	"slices"
	"sync"
	"time"
)

// Fake is a Clock that only moves when told to. Tests advance it and
// wait until the loop and the ring are asleep again (WaitSleepers) before
// looking at what happened, instead of sleeping on the real clock.
type Fake struct {
	mu       sync.Mutex
	now      time.Time
	sleepers []*sleeper
	changed  chan struct{} // closed and replaced whenever sleepers change
}

type sleeper struct {
	until time.Time
	wake  chan struct{}
}

// NewFake returns a clock standing at start.
func NewFake(start time.Time) *Fake {
	return &Fake{now: start, changed: make(chan struct{})}
}

// Now returns the clock's time.
func (c *Fake) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.now
}

// SleepUntil blocks until Set or Advance moves the clock to t or later.
func (c *Fake) SleepUntil(ctx context.Context, t time.Time) error {
	c.mu.Lock()
	if !t.After(c.now) {
		c.mu.Unlock()
		return ctx.Err()
	}
	s := &sleeper{until: t, wake: make(chan struct{})}
	c.sleepers = append(c.sleepers, s)
	c.signal()
	c.mu.Unlock()
	select {
	case <-s.wake:
		return nil
	case <-ctx.Done():
		c.mu.Lock()
		for i, o := range c.sleepers {
			if o == s {
				c.sleepers = append(c.sleepers[:i], c.sleepers[i+1:]...)
				c.signal()
				break
			}
		}
		c.mu.Unlock()
		return ctx.Err()
	}
}

// Advance moves the clock forward by d.
func (c *Fake) Advance(d time.Duration) {
	c.mu.Lock()
	t := c.now.Add(d)
	c.mu.Unlock()
	c.Set(t)
}

// Set moves the clock to t (never backwards) and wakes the sleepers due.
func (c *Fake) Set(t time.Time) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if t.After(c.now) {
		c.now = t
	}
	kept := c.sleepers[:0]
	for _, s := range c.sleepers {
		if s.until.After(c.now) {
			kept = append(kept, s)
		} else {
			close(s.wake)
		}
	}
	clear(c.sleepers[len(kept):])
	c.sleepers = kept
	c.signal()
}

// Sleepers is the number of goroutines blocked in SleepUntil.
func (c *Fake) Sleepers() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return len(c.sleepers)
}

// NextWake is the earliest time a sleeper waits for; ok is false with no
// sleepers.
func (c *Fake) NextWake() (t time.Time, ok bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	for _, s := range c.sleepers {
		if !ok || s.until.Before(t) {
			t, ok = s.until, true
		}
	}
	return t, ok
}

// Deadlines lists the times the sleepers wait for, earliest first.
func (c *Fake) Deadlines() []time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	out := make([]time.Time, 0, len(c.sleepers))
	for _, s := range c.sleepers {
		out = append(out, s.until)
	}
	slices.SortFunc(out, time.Time.Compare)
	return out
}

// WaitSleepers blocks until at least n goroutines sleep on the clock, the
// signal that they have finished the work the last move woke them for.
func (c *Fake) WaitSleepers(ctx context.Context, n int) error {
	for {
		c.mu.Lock()
		if len(c.sleepers) >= n {
			c.mu.Unlock()
			return nil
		}
		ch := c.changed
		c.mu.Unlock()
		select {
		case <-ch:
		case <-ctx.Done():
			return ctx.Err()
		}
	}
}

func (c *Fake) signal() {
	close(c.changed)
	c.changed = make(chan struct{})
}
