package cluster

import (
	"bytes"
	"encoding/json"
	"slices"
	"time"
)

// Misfire is a job an admin found more than 5 s overdue in a round and did
// not fire (scheduler.md §3.2 case A, DO_NOTHING): the planned seconds
// since its last fire are skipped. It happens when no round ran in time,
// i.e. on an overloaded machine.
type Misfire struct {
	JobID int
	At    time.Time
}

// OurMisfires reads the misfires our admin logged (zerolog JSON lines with
// message "schedule misfire", jobId and the time in seconds).
func OurMisfires(log []byte) []Misfire {
	var out []Misfire
	for _, l := range bytes.Split(log, []byte("\n")) {
		if !bytes.Contains(l, []byte(`"schedule misfire"`)) {
			continue
		}
		var m struct {
			JobID int       `json:"jobId"`
			Time  time.Time `json:"time"`
		}
		if json.Unmarshal(l, &m) == nil && m.JobID != 0 {
			out = append(out, Misfire{JobID: m.JobID, At: m.Time})
		}
	}
	return out
}

// MisfiredSlots tells whether a planned fire was skipped by a logged
// misfire: a misfire of a job at time r skips its planned seconds after
// its last fire before r, up to r.
func MisfiredSlots(fires []Fire, misfires []Misfire) func(Slot) bool {
	secs := map[int][]int64{}
	for _, f := range fires {
		secs[f.JobID] = append(secs[f.JobID], f.Second())
	}
	for _, s := range secs {
		slices.Sort(s)
	}
	type span struct{ from, to int64 }
	skipped := map[int][]span{}
	for _, mf := range misfires {
		at := mf.At.Unix()
		s := secs[mf.JobID]
		i, _ := slices.BinarySearch(s, at)
		var from int64
		if i > 0 {
			from = s[i-1] + 1
		}
		skipped[mf.JobID] = append(skipped[mf.JobID], span{from, at})
	}
	return func(sl Slot) bool {
		for _, sp := range skipped[sl.JobID] {
			if sl.Second >= sp.from && sl.Second <= sp.to {
				return true
			}
		}
		return false
	}
}
