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

// PlanFires sets the planned second of the fires our admins sent from their
// own records: decided maps an admin's access token (Fire.Admin) to the
// seconds its rounds decided. Each admin's fires of a job, in the order it
// triggered them, take the latest second it decided at or before their
// trigger second that no earlier fire took. So a fire held up in a trigger
// pool during a cluster stall still stands for the second its admin
// decided, not for a later second another admin decided and lost; a second
// fire of one decided second finds none left, keeps Planned 0 and counts
// as a duplicate by its trigger second. Fires of other senders are left
// alone.
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
		secs := decided[k.admin]
		taken := map[int64]bool{}
		for _, i := range idx {
			sec := out[i].Second()
			j, found := slices.BinarySearch(secs, sec)
			if found {
				j++
			}
			for j--; j >= 0 && sec-secs[j] <= int64(cluster.MaxLate.Seconds()); j-- {
				if !taken[secs[j]] {
					taken[secs[j]] = true
					out[i].Planned = secs[j]
					break
				}
			}
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
