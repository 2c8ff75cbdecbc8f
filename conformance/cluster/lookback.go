package cluster

import (
	"slices"
	"time"
)

// LookBack places the fires that came a second late. When an admin's ring
// tick comes more than a second late, it takes the slot of its second and,
// by the look-back, the slot of the second before (scheduler.md §3.3); on
// a starved machine a trigger may also start a second after its tick. A
// job then has two fires in one trigger second and none in the second
// before: the later of the pair stands for the second before, and
// LookBack sets its Planned so. A second fire in a second whose job fired
// in the second before stays a duplicate: a scheduler that fires twice
// leaves no gap beside its pairs. Fires whose Planned is already known
// are left alone, and so is a pair in the first planned second. It returns
// the fires and how many it placed.
func LookBack(fires []Fire, first time.Time) ([]Fire, int) {
	out := slices.Clone(fires)
	var idx []int // fires whose planned second is not known
	count := map[Slot]int{}
	for i, f := range out {
		count[Slot{JobID: f.JobID, Second: f.Second()}]++
		if f.Planned == 0 {
			idx = append(idx, i)
		}
	}
	// By second, the later-triggered fire of a pair first.
	slices.SortFunc(idx, func(a, b int) int {
		if c := out[a].Second() - out[b].Second(); c != 0 {
			return int(c)
		}
		return out[b].Trigger.Compare(out[a].Trigger)
	})
	placed := 0
	for _, i := range idx {
		f := &out[i]
		sec := f.Second()
		here, before := Slot{JobID: f.JobID, Second: sec}, Slot{JobID: f.JobID, Second: sec - 1}
		if sec <= first.Unix() || count[here] < 2 || count[before] != 0 {
			continue
		}
		f.Planned = sec - 1
		count[here]--
		count[before]++
		placed++
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
