package galera

import (
	"slices"
	"time"

	"github.com/xxl-admin-go/xxl-admin-go/conformance/cluster"
)

// Decided lists the whole planned seconds the admin's committed rounds
// decided, ascending.
func (l AdminLog) Decided() []int64 {
	var out []int64
	for _, r := range l.Rounds {
		if !r.Committed {
			continue
		}
		for s := r.FirstPlan.Unix(); s <= r.LastPlan.Unix(); s++ {
			out = append(out, s)
		}
	}
	slices.Sort(out)
	return slices.Compact(out)
}

// maxPoolDelay bounds how long after its planned second a fire may have
// been triggered and still stand for it: a cluster stall holds a trigger
// pool's queue for seconds, and the queue then drains in order.
const maxPoolDelay = 30 * time.Second

// PlanFires sets the planned second of the fires our admins sent from their
// own records: decided maps an admin's access token (Fire.Admin) to the
// seconds its rounds decided. An admin's ring fires its seconds in order
// and its trigger pool runs them in order, so each admin's fires of a job,
// in trigger order, are paired in order with the seconds it decided (each
// fire at or after its second, at most maxPoolDelay after; the most pairs,
// then the least total delay). A fire held up in a trigger pool during a
// cluster stall so still stands for the second its admin decided, not for
// a later second another admin decided and lost. A fire left without a
// second keeps Planned 0 and counts by its trigger second: a second fire
// of one decided second is a duplicate there. Fires of other senders are
// left alone.
func PlanFires(fires []cluster.Fire, decided map[string][]int64) []cluster.Fire {
	out := slices.Clone(fires)
	type key struct {
		admin string
		job   int
	}
	per := map[key][]int{}
	for i, f := range out {
		if _, ok := decided[f.Admin]; ok && f.Planned == 0 {
			k := key{f.Admin, f.JobID}
			per[k] = append(per[k], i)
		}
	}
	for k, idx := range per {
		slices.SortFunc(idx, func(a, b int) int { return when(out[a]).Compare(when(out[b])) })
		times := make([]time.Time, len(idx))
		for j, i := range idx {
			times[j] = when(out[i])
		}
		for j, sec := range align(decided[k.admin], times) {
			if sec != 0 {
				out[idx[j]].Planned = sec
			}
		}
	}
	return out
}

// align pairs fires (sorted) with seconds (sorted) in order, a fire with a
// second it is 0…maxPoolDelay after, maximising the pairs and then
// minimising the total delay; it returns each fire's second or 0.
func align(secs []int64, fires []time.Time) []int64 {
	type cell struct {
		n     int
		delay time.Duration
	}
	better := func(a, b cell) bool { return a.n > b.n || a.n == b.n && a.delay < b.delay }
	delay := func(sec int64, f time.Time) (time.Duration, bool) {
		d := f.Sub(time.Unix(sec, 0))
		return d, d >= 0 && d <= maxPoolDelay
	}
	n, m := len(secs), len(fires)
	dp := make([]cell, (n+1)*(m+1))
	at := func(i, j int) *cell { return &dp[i*(m+1)+j] }
	for i := 0; i <= n; i++ {
		for j := 0; j <= m; j++ {
			c := cell{}
			if i > 0 && better(*at(i-1, j), c) {
				c = *at(i-1, j)
			}
			if j > 0 && better(*at(i, j-1), c) {
				c = *at(i, j-1)
			}
			if i > 0 && j > 0 {
				if d, ok := delay(secs[i-1], fires[j-1]); ok {
					p := *at(i-1, j-1)
					p.n++
					p.delay += d
					if better(p, c) {
						c = p
					}
				}
			}
			*at(i, j) = c
		}
	}
	out := make([]int64, m)
	for i, j := n, m; i > 0 && j > 0; {
		c := *at(i, j)
		if d, ok := delay(secs[i-1], fires[j-1]); ok {
			p := *at(i-1, j-1)
			if p.n+1 == c.n && p.delay+d == c.delay {
				out[j-1] = secs[i-1]
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
	return out
}

// when is a fire's trigger time, else its receipt.
func when(f cluster.Fire) time.Time {
	if !f.Trigger.IsZero() {
		return f.Trigger
	}
	return f.At
}
