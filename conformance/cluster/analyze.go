package cluster

import (
	"fmt"
	"slices"
	"time"
)

// Window is a span of planned seconds (inclusive) in which missed fires are
// expected, e.g. the seconds whose fires sat in a killed admin's ring.
type Window struct{ From, To time.Time }

func (w Window) holds(sec int64) bool { return sec >= w.From.Unix() && sec <= w.To.Unix() }

// Slot is one planned fire: a job and the whole second it is due.
type Slot struct {
	JobID  int
	Second int64 // epoch seconds
}

func (s Slot) String() string {
	return fmt.Sprintf("job %d at %s", s.JobID, time.Unix(s.Second, 0).UTC().Format("15:04:05"))
}

// Result counts fires against the plan of every job firing once per whole
// second from First to Last.
type Result struct {
	Planned         int     // job × second slots in [First, Last]
	Fired           int     // fires landing on a planned slot, duplicates included
	Outside         int     // fires of unknown jobs or outside [First, Last]
	Unpaired        int     // fires in the plan's span no planned second was left for
	Duplicates      int     // fires beyond the first of one job in one trigger second
	Overloaded      bool    // lateness p99 over 1 s: duplicates counted with OverloadWindow
	inferred        Summary // lateness of the fires whose planned second is not known
	DuplicateSlots  []Slot  // the first few, by that second
	MissesExcused   int     // empty slots inside an excused window
	MissesMisfired  int     // empty slots an admin logged as misfired
	MissesElsewhere int     // empty slots outside every window
	Missed          []Slot  // the first few unexcused empty slots
	Lateness        Summary // receipt − planned second, fires on planned slots
}

// Summary holds the percentiles of a set of durations.
type Summary struct {
	N             int
	P50, P99, Max time.Duration
}

const (
	keepSlots = 20
	// tailSlots extends each job's plan past Last so that the fires an
	// admin's ring still holds at stop (drained for up to 8 s, §3.2) pair
	// with their own seconds and count as outside instead of duplicates.
	tailSlots = 10
)

// Analyze counts one job's fires per planned whole second, every job firing
// once per second from first to last. See AnalyzeEvery.
func Analyze(fires []Fire, jobs []int, first, last time.Time, excused []Window) Result {
	return AnalyzeEvery(fires, jobs, 1, first, last, excused)
}

// AnalyzeEvery checks fires against the plan of every job firing every
// step seconds from first to last (whole seconds; first on the grid).
//
// Duplicates are counted directly: two fires of one job whose trigger
// second (Fire.Second: the second the admin's ring fired them in) is the
// same are a duplicate, whatever else happened nearby. The time ring fires
// each planned second at its whole second (scheduler.md §3.3), so a job
// never has two planned fires in one second; nothing excuses a second one.
//
// Misses and lateness pair each job's fires with its planned seconds in
// order (see match): a fire whose planned second is known covers exactly
// that second; any other belongs to the planned second it is at most
// MaxLate after, so a fire that came late still covers its own second.
// Lateness is receipt minus planned second.
// Planned seconds left over are misses, excused inside a window.
func AnalyzeEvery(fires []Fire, jobs []int, step int64, first, last time.Time, excused []Window) Result {
	return AnalyzeWith(fires, jobs, step, first, last, excused, nil)
}

// AnalyzeWith is AnalyzeEvery with a second excuse for misses: misfired
// tells whether an admin logged the planned fire as misfired (no round
// read it within 5 s, scheduler.md §3.2 case A, which happens when the
// machine is overloaded); such misses are counted apart.
func AnalyzeWith(fires []Fire, jobs []int, step int64, first, last time.Time, excused []Window, misfired func(Slot) bool) Result {
	r := analyze(fires, jobs, step, first, last, excused, misfired, 0)
	if r.inferred.N >= overloadSample && r.inferred.P99 > time.Second {
		r = analyze(fires, jobs, step, first, last, excused, misfired, OverloadWindow)
		r.Overloaded = true
	}
	return r
}

// AnalyzeOverloaded is AnalyzeWith for a run already found overloaded
// (e.g. the log rows of a run whose executor-side fires were): duplicates
// are counted with OverloadWindow.
func AnalyzeOverloaded(fires []Fire, jobs []int, step int64, first, last time.Time, excused []Window, misfired func(Slot) bool) Result {
	r := analyze(fires, jobs, step, first, last, excused, misfired, OverloadWindow)
	r.Overloaded = true
	return r
}

// AnalyzeLate counts duplicates as AnalyzeOverloaded does, with a window of
// the caller's choosing: for fires whose trigger time is the moment a late
// fire was sent (a fire of second S sent at S+1.2 carries S+1, the second
// of the job's next fire), so two fires in one trigger second are a
// duplicate only when no free planned second up to window before it is
// left for one of them. The benchmark uses the misfire threshold (5 s):
// no admin sends a planned fire later than that without calling it a
// misfire.
func AnalyzeLate(fires []Fire, jobs []int, step int64, first, last time.Time, excused []Window, window int64) Result {
	return analyze(fires, jobs, step, first, last, excused, nil, window)
}

// OverloadWindow is how late a fire may count for a planned second in an
// overloaded run (lateness p99 over a second, of the fires whose planned
// second is not known from the admin's records): there the second a fire
// was triggered in no longer names the second it was planned for, so a
// fire counts for any free planned second up to this much before its
// trigger second, and only fires left over are duplicates. A scheduler
// that fires twice still leaves one fire over per pair.
const OverloadWindow = 2

// overloadSample is the fewest paired fires whose p99 lateness may call a
// run overloaded: in a handful, one duplicate paired with a missed second
// would decide it.
const overloadSample = 100

func analyze(fires []Fire, jobs []int, step int64, first, last time.Time, excused []Window, misfired func(Slot) bool, window int64) Result {
	lo, hi := first.Unix(), last.Unix()
	per := byJob(fires)
	var r Result
	if window == 0 {
		r.Duplicates, r.DuplicateSlots = duplicates(fires, jobs)
	} else {
		r.Duplicates, r.DuplicateSlots = duplicatesWithin(per, jobs, lo, step, window)
	}
	late := make([]time.Duration, 0, len(fires))
	var inferred []time.Duration // of fires whose planned second is inferred
	slots := make([]int64, 0, (hi-lo)/step+1+tailSlots)
	for sec := lo; sec <= hi+tailSlots*step; sec += step {
		slots = append(slots, sec)
	}
	for _, id := range jobs {
		fs := per[id]
		delete(per, id)
		slotFire, fireSlot := match(slots, times(fs))
		for k, sec := range slots {
			if sec > hi {
				break
			}
			r.Planned++
			if j := slotFire[k]; j >= 0 {
				r.Fired++
				late = append(late, fs[j].At.Sub(time.Unix(sec, 0)))
				if fs[j].Planned == 0 {
					inferred = append(inferred, fs[j].matchTime().Sub(time.Unix(sec, 0)))
				}
				continue
			}
			if slices.ContainsFunc(excused, func(w Window) bool { return w.holds(sec) }) {
				r.MissesExcused++
				continue
			}
			if misfired != nil && misfired(Slot{JobID: id, Second: sec}) {
				r.MissesMisfired++
				continue
			}
			r.MissesElsewhere++
			if len(r.Missed) < keepSlots {
				r.Missed = append(r.Missed, Slot{JobID: id, Second: sec})
			}
		}
		for j, k := range fireSlot {
			switch {
			case k >= 0 && slots[k] > hi, k < 0 && fs[j].matchTime().Unix() < lo:
				r.Outside++ // after the plan (ring drain at stop) or before it
			case k < 0:
				r.Unpaired++
			}
		}
	}
	for _, fs := range per {
		r.Outside += len(fs) // fires of jobs not in the plan
	}
	r.Lateness = Summarize(late)
	r.inferred = Summarize(inferred)
	return r
}

// duplicatesWithin counts the fires no planned second (from lo, every
// step) can be given to, a fire taking a free one from window seconds
// before its second up to its second: fires with a known planned second
// take theirs first, the others in order of their second take the earliest
// free one (which gives the most fires a second).
func duplicatesWithin(per map[int][]Fire, jobs []int, lo, step, window int64) (int, []Slot) {
	var n int
	var first []Slot
	for _, id := range jobs {
		taken := map[int64]bool{}
		var rest []Fire
		dup := func(sec int64) {
			n++
			if len(first) < keepSlots {
				first = append(first, Slot{JobID: id, Second: sec})
			}
		}
		for _, f := range per[id] {
			if f.Planned == 0 {
				rest = append(rest, f)
				continue
			}
			if taken[f.Planned] {
				dup(f.Planned)
			}
			taken[f.Planned] = true
		}
		slices.SortStableFunc(rest, func(a, b Fire) int { return int(a.Second() - b.Second()) })
		for _, f := range rest {
			sec, ok := f.Second(), false
			start := max(sec-window, lo)
			if off := (start - lo) % step; off != 0 {
				start += step - off
			}
			for s := start; s <= sec; s += step {
				if !taken[s] {
					taken[s], ok = true, true
					break
				}
			}
			if !ok && sec >= lo {
				dup(sec)
			}
		}
	}
	return n, first
}

// duplicates counts, for the given jobs, the fires beyond the first in each
// (job, trigger second).
func duplicates(fires []Fire, jobs []int) (int, []Slot) {
	want := make(map[int]bool, len(jobs))
	for _, id := range jobs {
		want[id] = true
	}
	seen := map[Slot]int{}
	var n int
	var first []Slot
	for _, f := range fires {
		if !want[f.JobID] {
			continue
		}
		s := Slot{JobID: f.JobID, Second: f.Second()}
		seen[s]++
		if seen[s] == 2 {
			first = append(first, s)
		}
		if seen[s] > 1 {
			n++
		}
	}
	slices.SortFunc(first, func(a, b Slot) int {
		if a.Second != b.Second {
			return int(a.Second - b.Second)
		}
		return a.JobID - b.JobID
	})
	return n, first[:min(len(first), keepSlots)]
}

// Summarize sorts d in place and returns its p50, p99 and maximum.
func Summarize(d []time.Duration) Summary {
	if len(d) == 0 {
		return Summary{}
	}
	slices.Sort(d)
	at := func(q float64) time.Duration { return d[min(len(d)-1, int(q*float64(len(d))))] }
	return Summary{N: len(d), P50: at(0.50), P99: at(0.99), Max: d[len(d)-1]}
}

// PerSecond counts fires by the whole second they were received in, over
// [from, to] inclusive.
func PerSecond(fires []Fire, from, to time.Time) []int {
	lo, hi := from.Unix(), to.Unix()
	if hi < lo {
		return nil
	}
	out := make([]int, hi-lo+1)
	for _, f := range fires {
		if s := f.At.Unix(); s >= lo && s <= hi {
			out[s-lo]++
		}
	}
	return out
}
