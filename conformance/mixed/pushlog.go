package mixed

import (
	"bytes"
	"io"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/xxl-admin-go/xxl-admin-go/conformance/cluster"
)

// Push is one job pushed into the Java admin's time ring, read from its
// debug log (JobScheduleHelper.pushTimeRing logs every push with the ring
// second and the slot's list, the new id last; 2.4.2 and 3.4.2 alike).
type Push struct {
	JobID  int
	Second int64     // the planned epoch second the ring slot stands for
	At     time.Time // when it was pushed
}

// pushMarker starts a ring push line of both Java admins.
const pushMarker = "schedule push time-ring : "

// misfireMarkers start a misfire line: 2.4.2's JobScheduleHelper, 3.4.2's
// MisfireDoNothing and MisfireFireOnceNow handlers.
var misfireMarkers = []string{"schedule misfire, jobId = ", "schedule MisfireDoNothing: jobId = ",
	"schedule MisfireFireOnceNow: jobId = "}

// PushLog is an io.Writer for the Java admin's output that keeps its ring
// pushes and passes everything on to out.
type PushLog struct {
	out io.Writer
	loc *time.Location

	mu       sync.Mutex
	rest     []byte
	pushes   []Push
	misfires []cluster.Misfire
	seconds  map[int64]int // planned second → pushes for it
}

// NewPushLog parses log lines whose timestamps are wall time in loc
// ("2006-01-02 15:04:05.000", javaadmin's logback pattern).
func NewPushLog(out io.Writer, loc *time.Location) *PushLog {
	return &PushLog{out: out, loc: loc, seconds: map[int64]int{}}
}

// Write implements io.Writer.
func (p *PushLog) Write(b []byte) (int, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	data := append(p.rest, b...)
	for {
		i := bytes.IndexByte(data, '\n')
		if i < 0 {
			break
		}
		p.line(string(data[:i]))
		data = data[i+1:]
	}
	p.rest = append(p.rest[:0], data...)
	return p.out.Write(b)
}

// line records a push or misfire line; other lines are ignored.
func (p *PushLog) line(s string) {
	if len(s) < 23 {
		return
	}
	for _, marker := range misfireMarkers {
		if _, rest, ok := strings.Cut(s, marker); ok {
			at, err := time.ParseInLocation("2006-01-02 15:04:05.000", s[:23], p.loc)
			if id, err2 := strconv.Atoi(strings.TrimSpace(rest)); err == nil && err2 == nil {
				p.misfires = append(p.misfires, cluster.Misfire{JobID: id, At: at})
			}
			return
		}
	}
	_, rest, ok := strings.Cut(s, pushMarker)
	if !ok {
		return
	}
	at, err := time.ParseInLocation("2006-01-02 15:04:05.000", s[:23], p.loc)
	if err != nil {
		return
	}
	slotText, list, ok := strings.Cut(rest, " = [")
	if !ok {
		return
	}
	slot, err := strconv.Atoi(slotText)
	if err != nil {
		return
	}
	// Arrays.asList wraps the slot's list once more: "[[3, 7]]".
	list = strings.Trim(list, "[] ")
	if i := strings.LastIndex(list, ", "); i >= 0 {
		list = list[i+2:]
	}
	id, err := strconv.Atoi(list)
	if err != nil {
		return
	}
	// The slot is the planned second mod 60; a round pushes seconds from
	// just before its start to PRE_READ_MS after it (scheduler.md §3.2).
	base := at.Unix() - 2
	sec := base + int64((slot-int(base%60)+120)%60)
	p.pushes = append(p.pushes, Push{JobID: id, Second: sec, At: at})
	p.seconds[sec]++
}

// Misfires returns a copy of the misfires logged so far.
func (p *PushLog) Misfires() []cluster.Misfire {
	p.mu.Lock()
	defer p.mu.Unlock()
	return append([]cluster.Misfire(nil), p.misfires...)
}

// Pushed is how many fires the admin pushed into its ring for a planned
// second so far.
func (p *PushLog) Pushed(sec int64) int {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.seconds[sec]
}

// Plan assigns the Java fires of one admin instance (fires whose Admin is
// token) the planned second they stand for: the ring fires each push once,
// in push order per job (the trigger pool is FIFO), so the k-th fire of a
// job is its k-th push, unless a fire came without a push (a late job
// fired at once, §3.2 case B: it keeps its trigger second) or pushes were
// never fired (lost with the process: the last ones). It returns the fires
// with Planned set.
func Plan(fires []cluster.Fire, token string, pushes []Push) []cluster.Fire {
	byJob := map[int][]int64{}
	for _, p := range pushes {
		byJob[p.JobID] = append(byJob[p.JobID], p.Second)
	}
	next := map[int]int{}
	out := slices.Clone(fires)
	idx := make([]int, 0, len(out))
	for i, f := range out {
		if f.Admin == token {
			idx = append(idx, i)
		}
	}
	slices.SortStableFunc(idx, func(a, b int) int { return out[a].Trigger.Compare(out[b].Trigger) })
	for _, i := range idx {
		f := &out[i]
		secs, k := byJob[f.JobID], next[f.JobID]
		// Pushes far behind this fire were never fired (lost in the ring).
		for k < len(secs) && secs[k] < f.Trigger.Unix()-maxPoolLag {
			k++
		}
		if k < len(secs) && secs[k] <= f.Trigger.Unix() {
			f.Planned = secs[k]
			k++
		}
		next[f.JobID] = k
	}
	return out
}

// maxPoolLag bounds how long a fire may wait in the Java admin's trigger
// pool (10 core threads, a queue of 1,000) between its ring tick and its
// trigger time.
const maxPoolLag = 15

// Pushes returns a copy of the pushes so far.
func (p *PushLog) Pushes() []Push {
	p.mu.Lock()
	defer p.mu.Unlock()
	return append([]Push(nil), p.pushes...)
}
