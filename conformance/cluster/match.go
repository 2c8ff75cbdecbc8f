package cluster

import (
	"slices"
	"time"
)

// MaxLate is the latest a fire may arrive after its planned second and
// still count for it. Beyond PRE_READ_MS the schedule loop itself treats a
// fire as misfired (scheduler.md §3.2 case A), so a later one cannot be a
// planned fire.
const MaxLate = 5 * time.Second

// cell is a DP state: matched fires, then the smallest total lateness.
type cell struct {
	matched int
	late    time.Duration
}

func (c cell) better(d cell) bool {
	return c.matched > d.matched || c.matched == d.matched && c.late < d.late
}

// match pairs one job's fires (sorted) with its planned seconds (sorted,
// epoch seconds) in order, maximising the pairs and then minimising the
// total lateness; a fire may only pair with a second it is 0…MaxLate after.
// It returns, per slot, the index of its fire or -1, and, per fire, its
// slot or -1. Ordered matching keeps a late fire on its own second instead
// of pushing every later fire one slot back (what greedy "earliest free
// slot" would do after a miss), so misses stay where they happened.
func match(slots []int64, fires []time.Time) (slotFire, fireSlot []int) {
	n, m := len(slots), len(fires)
	dp := make([]cell, (n+1)*(m+1))
	at := func(i, j int) *cell { return &dp[i*(m+1)+j] }
	for i := 0; i <= n; i++ {
		for j := 0; j <= m; j++ {
			c := cell{}
			if i > 0 && at(i-1, j).better(c) {
				c = *at(i-1, j)
			}
			if j > 0 && at(i, j-1).better(c) {
				c = *at(i, j-1)
			}
			if i > 0 && j > 0 {
				if d, ok := lateness(slots[i-1], fires[j-1]); ok {
					p := *at(i-1, j-1)
					p.matched++
					p.late += d
					if p.better(c) {
						c = p
					}
				}
			}
			*at(i, j) = c
		}
	}
	slotFire, fireSlot = make([]int, n), make([]int, m)
	for k := range slotFire {
		slotFire[k] = -1
	}
	for k := range fireSlot {
		fireSlot[k] = -1
	}
	for i, j := n, m; i > 0 && j > 0; {
		c := *at(i, j)
		if d, ok := lateness(slots[i-1], fires[j-1]); ok {
			p := *at(i-1, j-1)
			if p.matched+1 == c.matched && p.late+d == c.late {
				slotFire[i-1], fireSlot[j-1] = j-1, i-1
				i, j = i-1, j-1
				continue
			}
		}
		if *at(i-1, j) == c {
			i--
		} else {
			j--
		}
	}
	return slotFire, fireSlot
}

func lateness(slot int64, fire time.Time) (time.Duration, bool) {
	d := fire.Sub(time.Unix(slot, 0))
	return d, d >= 0 && d <= MaxLate
}

// byJob groups the fires per job, each group sorted by the time they are
// matched at (see matchTime).
func byJob(fires []Fire) map[int][]Fire {
	out := map[int][]Fire{}
	for _, f := range fires {
		out[f.JobID] = append(out[f.JobID], f)
	}
	for _, fs := range out {
		slices.SortFunc(fs, func(a, b Fire) int { return a.matchTime().Compare(b.matchTime()) })
	}
	return out
}

// matchTime is when a fire counts as having happened for the pairing: its
// planned second when known (it covers exactly that second), else the
// admin's trigger time (the executor's own delays do not count), else its
// receipt.
func (f Fire) matchTime() time.Time {
	switch {
	case f.Planned != 0:
		return time.Unix(f.Planned, 0)
	case !f.Trigger.IsZero():
		return f.Trigger
	}
	return f.At
}

// times lists the match times of fires.
func times(fs []Fire) []time.Time {
	out := make([]time.Time, len(fs))
	for i, f := range fs {
		out[i] = f.matchTime()
	}
	return out
}
