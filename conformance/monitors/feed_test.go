package monitors

import (
	"sync"
	"testing"
	"time"
)

// feed is an append-only record that tests can wait on: every add wakes the
// waiters, so a test blocks until its condition holds instead of sleeping.
type feed[T any] struct {
	mu      sync.Mutex
	items   []T
	changed chan struct{}
}

func newFeed[T any]() *feed[T] { return &feed[T]{changed: make(chan struct{})} }

func (f *feed[T]) add(v T) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.items = append(f.items, v)
	close(f.changed)
	f.changed = make(chan struct{})
}

// snapshot returns a copy of the items and the channel closed by the next add.
func (f *feed[T]) snapshot() ([]T, <-chan struct{}) {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([]T(nil), f.items...), f.changed
}

func (f *feed[T]) all() []T {
	items, _ := f.snapshot()
	return items
}

// waitFor blocks until cond holds for the items, failing the test at the
// deadline with what was seen.
func (f *feed[T]) waitFor(t testing.TB, timeout time.Duration, what string, cond func([]T) bool) []T {
	t.Helper()
	timer := time.NewTimer(timeout)
	defer timer.Stop()
	for {
		items, changed := f.snapshot()
		if cond(items) {
			return items
		}
		select {
		case <-changed:
		case <-timer.C:
			t.Fatalf("timed out after %v waiting for %s (have %d items)", timeout, what, len(items))
		}
	}
}

// atLeast is a waitFor condition: n or more items.
func atLeast[T any](n int) func([]T) bool {
	return func(items []T) bool { return len(items) >= n }
}

// eventually polls check until it reports done, for state only the database
// can tell (there is no signal when a row changes); it fails the test with
// check's last description at the deadline.
func eventually(t testing.TB, timeout, every time.Duration, check func() (bool, string)) {
	t.Helper()
	deadline := time.Now().Add(timeout)
	for {
		done, state := check()
		if done {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("timed out after %v: %s", timeout, state)
		}
		time.Sleep(every)
	}
}
