package cluster

import "slices"

// LookBack places the fires a late ring tick sent for the second before.
// When an admin's ring tick comes more than a second late, it takes the
// slot of its second and, by the look-back, the slot of the second before
// (scheduler.md §3.3), one after the other: a job then gets two fires from
// that admin in one trigger second and none in the second before. The
// second of such a pair stands for the second before, and LookBack sets
// its Planned so. Two fires in one second anywhere else stay duplicates,
// and so do pairs from two admins. Fires whose Planned is already known
// are left alone. It returns the fires and how many it placed.
func LookBack(fires []Fire) ([]Fire, int) {
	out := slices.Clone(fires)
	type key struct {
		job   int
		admin string
	}
	per := map[key][]int{}
	count := map[Slot]int{} // fires per job and trigger second, from any admin
	for i, f := range out {
		count[Slot{JobID: f.JobID, Second: f.Second()}]++
		if f.Planned == 0 {
			per[key{f.JobID, f.Admin}] = append(per[key{f.JobID, f.Admin}], i)
		}
	}
	placed := 0
	for _, idx := range per {
		slices.SortFunc(idx, func(a, b int) int { return out[a].Trigger.Compare(out[b].Trigger) })
		for k := 1; k < len(idx); k++ {
			a, b := &out[idx[k-1]], &out[idx[k]]
			sec := a.Second()
			if b.Second() != sec || b.Planned != 0 || count[Slot{JobID: b.JobID, Second: sec - 1}] != 0 {
				continue
			}
			b.Planned = sec - 1
			count[Slot{JobID: b.JobID, Second: sec - 1}]++
			count[Slot{JobID: b.JobID, Second: sec}]--
			placed++
		}
	}
	return out, placed
}

// PlanLogs gives each log row (a Fire from DB.LogFires) the planned second
// of the executor fire that carried its log id; a row never sent keeps its
// trigger_time second.
func PlanLogs(rows, fires []Fire) []Fire {
	byLog := make(map[int64]int64, len(fires))
	for _, f := range fires {
		byLog[f.LogID] = f.Second()
	}
	out := slices.Clone(rows)
	for i := range out {
		out[i].Planned = byLog[out[i].LogID]
	}
	return out
}
