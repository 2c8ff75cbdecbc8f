package schedule

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/xxl-admin-go/xxl-admin-go/core/clock"
	"github.com/xxl-admin-go/xxl-admin-go/core/trigger"
)

// TestIntegrationRealClock runs the whole Scheduler on the system clock:
// a cron job due 2 s after the first round fires exactly once, in its
// second, and is then switched off (no later time in its year); FIX_RATE
// 1 s jobs fire once in every second (scheduler.md §3.1–3.3). Takes about
// 15 s per backend.
func TestIntegrationRealClock(t *testing.T) {
	if testing.Short() {
		t.Skip("real-clock test")
	}
	forEachBackend(t, func(t *testing.T, open opener) {
		st := open(t)
		clk := clock.System{}
		rec := &recorder{clock: clk}
		s := newScheduler(t, st, rec, clk)
		var obs observations
		s.observe = obs.add(clk)

		// Begin just after a whole second, so inserting the jobs cannot
		// cross into the next one and shift the first round (a wait on the
		// clock itself, there is no event to wait for).
		time.Sleep(time.Until(wakeAfter(time.Now(), time.Second).Add(20 * time.Millisecond)))
		firstRound := wakeAfter(time.Now(), startDelay)
		due := firstRound.Add(2 * time.Second).UTC()
		cronID := addJob(t, st, jobSpec{typ: "CRON", status: 1, next: due.UnixMilli(),
			conf: fmt.Sprintf("%d %d %d %d %d ? %d", due.Second(), due.Minute(), due.Hour(), due.Day(), int(due.Month()), due.Year())})
		var rate []int
		for i := range 3 {
			rate = append(rate, addJob(t, st, jobSpec{typ: "FIX_RATE", conf: "1", status: 1,
				next: firstRound.Add(time.Second + time.Duration(100*i)*time.Millisecond).UnixMilli()}))
		}
		if err := s.Start(context.Background()); err != nil {
			t.Fatal(err)
		}
		end := firstRound.Add(6 * time.Second)
		timer := time.NewTimer(time.Until(end))
		<-timer.C
		s.Stop()

		perJob := map[int][]call{}
		for _, c := range rec.take() {
			if c.req.Type != trigger.TypeCron {
				t.Errorf("unexpected %s trigger for job %d", c.req.Type, c.req.JobID)
			}
			perJob[c.req.JobID] = append(perJob[c.req.JobID], c)
		}
		if cs := perJob[cronID]; len(cs) != 1 {
			t.Errorf("cron job fired %d times, want 1", len(cs))
		} else if got := cs[0].at.Add(trigger.PrepareLead).Truncate(time.Second); !got.Equal(due) || !cs[0].req.At.Equal(due) {
			t.Errorf("cron job fired at %v, want within second %v", cs[0].at, due)
		}
		if got := loadState(t, st, cronID); got != (triggerState{}) {
			t.Errorf("cron job stored %+v, want switched off after its last time", got)
		}
		for _, id := range rate {
			secs := map[int64]int{}
			for _, c := range perJob[id] {
				secs[c.at.Add(trigger.PrepareLead).Unix()]++ // handed over PrepareLead ahead
			}
			for sec := firstRound.Unix() + 1; sec <= end.Unix()-1; sec++ {
				if secs[sec] != 1 {
					t.Errorf("FIX_RATE job %d fired %d times in second +%d, want 1", id, secs[sec], sec-firstRound.Unix())
				}
			}
		}
		// Every ring fire came PrepareLead before its planned second (or
		// the next, via the look-back); every pushed time fired once (Stop
		// drained the ring).
		pushed, ringFired := map[entry]int{}, map[entry]int{}
		for _, o := range obs.take() {
			switch {
			case o.fired:
				ringFired[o.entry]++
				if lag := o.at.Add(trigger.PrepareLead).Unix() - o.planned/1000; lag < 0 || lag > 1 {
					t.Errorf("job %d planned %d fired %d s late", o.jobID, o.planned, lag)
				}
			case o.ring:
				pushed[o.entry]++
			}
		}
		for e, n := range pushed {
			if n != 1 || ringFired[e] != 1 {
				t.Errorf("entry %+v pushed %d and fired %d times, want 1/1", e, n, ringFired[e])
			}
		}
	})
}
