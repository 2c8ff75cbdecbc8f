package cluster

import (
	"slices"
	"time"
)

// AnalyzeExcused is Analyze for runs whose excused windows are known to
// be lost (the seconds a killed admin had decided): each job's fires are
// paired first with its planned seconds outside every window, and only the
// fires left over with the excused seconds. Analyze pairs with all seconds
// at once and keeps the least total lateness, so after an outage an
// excused second can take a fire that arrived 2 s late for the second
// before it, which then shows as a miss outside the windows.
func AnalyzeExcused(fires []Fire, jobs []int, first, last time.Time, excused []Window) Result {
	lo, hi := first.Unix(), last.Unix()
	isExcused := func(sec int64) bool {
		return slices.ContainsFunc(excused, func(w Window) bool { return w.holds(sec) })
	}
	per := byJob(fires)
	var r Result
	late := make([]time.Duration, 0, len(fires))
	var must, may []int64
	for sec := lo; sec <= hi+tailSlots; sec++ {
		if sec <= hi && isExcused(sec) {
			may = append(may, sec)
		} else {
			must = append(must, sec)
		}
	}
	for _, id := range jobs {
		ts := per[id]
		delete(per, id)
		mustFire, fireMust := match(must, ts)
		var rest []time.Time
		for j, k := range fireMust {
			if k < 0 {
				rest = append(rest, ts[j])
			}
		}
		mayFire, fireMay := match(may, rest)
		pair := func(slots []int64, slotFire []int, fs []time.Time, excusedSlots bool) {
			for k, sec := range slots {
				if sec > hi {
					continue
				}
				r.Planned++
				if j := slotFire[k]; j >= 0 {
					r.Fired++
					late = append(late, fs[j].Sub(time.Unix(sec, 0)))
					continue
				}
				if excusedSlots {
					r.MissesExcused++
					continue
				}
				r.MissesElsewhere++
				if len(r.Missed) < keepSlots {
					r.Missed = append(r.Missed, Slot{JobID: id, Second: sec})
				}
			}
		}
		pair(must, mustFire, ts, false)
		pair(may, mayFire, rest, true)
		for _, k := range fireMust {
			if k >= 0 && must[k] > hi {
				r.Outside++
			}
		}
		for j, k := range fireMay {
			switch {
			case k >= 0:
			case rest[j].Unix() < lo:
				r.Outside++
			default:
				r.Duplicates++
				if len(r.DuplicateSlots) < keepSlots {
					r.DuplicateSlots = append(r.DuplicateSlots, Slot{JobID: id, Second: rest[j].Unix()})
				}
			}
		}
	}
	for _, ts := range per {
		r.Outside += len(ts)
	}
	r.Lateness = Summarize(late)
	return r
}
