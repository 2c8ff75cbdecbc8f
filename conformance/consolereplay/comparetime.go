package consolereplay

import (
	"encoding/json"
	"time"
)

// timeSlack is how far a volatile date may stray from its recorded
// distance to the fixture time: the replay's pace differs from the
// recorder's (admin start-up, waits), a wrong zone is hours off.
const timeSlack = 5 * time.Minute

// timeFrame relates the recording's fixture time to the replay's.
type timeFrame struct {
	recorded, replay time.Time
	loc              *time.Location
}

func (f timeFrame) same(want, got time.Time) bool {
	near := func(d time.Duration) bool { return d <= timeSlack && d >= -timeSlack }
	return near(got.Sub(want)) || near(got.Sub(f.replay)-want.Sub(f.recorded))
}

// compareTime applies the relTime rule to two values.
func (c *checker) compareTime(path string, want, got any, parse func(string, *time.Location) (time.Time, bool)) {
	ws, wok := want.(string)
	gs, gok := got.(string)
	if !wok || !gok {
		if jsonType(want) != jsonType(got) || (want != nil && !equalScalar(want, got)) {
			c.add(path, want, got)
		}
		return
	}
	wt, ok1 := parse(ws, c.frame.loc)
	gt, ok2 := parse(gs, c.frame.loc)
	if !ok1 || !ok2 || skeleton(ws) != skeleton(gs) || !c.frame.same(wt, gt) {
		c.add(path+" (time relative to the fixture)", want, got)
	}
}

func epochMillis(v any) (time.Time, bool) {
	n, ok := v.(json.Number)
	if !ok {
		return time.Time{}, false
	}
	ms, err := n.Int64()
	return time.UnixMilli(ms), err == nil
}

// parseBodyTime reads a date of a JSON answer: 2.4.2's Jackson writes
// RFC 3339 with an offset; 3.4.2 writes "yyyy-MM-dd HH:mm:ss" without one
// (spring.jackson.date-format; Jackson formats in UTC, the log DTO's
// strings in the admin's zone), read here in the admin's zone: the rule
// compares distances, which a consistent zone keeps.
func parseBodyTime(s string, loc *time.Location) (time.Time, bool) {
	if t, err := time.Parse(time.RFC3339Nano, s); err == nil {
		return t, true
	}
	t, err := time.ParseInLocation(dbTimeLayout, s, loc)
	return t, err == nil
}

func parseDBTime(s string, loc *time.Location) (time.Time, bool) {
	t, err := time.ParseInLocation(dbTimeLayout, s, loc)
	return t, err == nil
}
