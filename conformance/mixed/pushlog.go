package mixed

import (
	"bytes"
	"io"
	"strconv"
	"strings"
	"sync"
	"time"
)

// Push is one job pushed into the Java admin's time ring, read from its
// debug log (JobScheduleHelper.pushTimeRing logs every push with the ring
// second and the slot's list, the new id last).
type Push struct {
	JobID  int
	Second int64     // the planned epoch second the ring slot stands for
	At     time.Time // when it was pushed
}

const pushMarker = "schedule push time-ring : "

// PushLog is an io.Writer for the Java admin's output that keeps its ring
// pushes and passes everything on to out.
type PushLog struct {
	out io.Writer
	loc *time.Location

	mu     sync.Mutex
	rest   []byte
	pushes []Push
}

// NewPushLog parses log lines whose timestamps are wall time in loc
// ("2006-01-02 15:04:05.000", javaadmin's logback pattern).
func NewPushLog(out io.Writer, loc *time.Location) *PushLog {
	return &PushLog{out: out, loc: loc}
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

// line records a push line; other lines are ignored.
func (p *PushLog) line(s string) {
	_, rest, ok := strings.Cut(s, pushMarker)
	if !ok || len(s) < 23 {
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
	list = strings.TrimSuffix(list, "]")
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
}

// Pushes returns a copy of the pushes so far.
func (p *PushLog) Pushes() []Push {
	p.mu.Lock()
	defer p.mu.Unlock()
	return append([]Push(nil), p.pushes...)
}
