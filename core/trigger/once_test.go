package trigger

import (
	"testing"
	"time"
)

// TestOnceWindow: one compensation fire per job per second, whichever batch
// the missed fires were found in.
func TestOnceWindow(t *testing.T) {
	t0 := time.Unix(1_700_000_000, 0)
	var w onceWindow
	for _, c := range []struct {
		job  int
		at   time.Duration
		want bool
	}{
		{1, 0, true},
		{1, 10 * time.Millisecond, false}, // the same backlog, another batch
		{2, 20 * time.Millisecond, true},  // another job
		{1, 999 * time.Millisecond, false},
		{1, time.Second, true}, // the next second's misfire
		{2, 2 * time.Second, true},
	} {
		if got := w.allow(c.job, t0.Add(c.at)); got != c.want {
			t.Errorf("job %d at +%v: allow %v, want %v", c.job, c.at, got, c.want)
		}
	}
	if len(w.at) != 1 { // job 1's +1 s entry is a second old at +2 s: pruned
		t.Errorf("%d jobs remembered, want only job 2's of the last second", len(w.at))
	}
}
