package schedule

import (
	"context"
	"time"

	"github.com/xxl-admin-go/xxl-admin-go/core/trigger"
)

// runRing is the ring thread: PrepareLead before every whole second it
// submits the fires of that second (and of the two seconds before, the
// look-back of scheduler.md §3.3 widened as in 3.3.0, see ring.take) with
// their planned times, so the pools have their
// rows written when the second begins and the /run calls leave at it. Java
// wakes at the second itself and starts the whole work then.
func (s *Scheduler) runRing(ctx context.Context) {
	clk := s.cfg.Clock
	for {
		if clk.SleepUntil(ctx, nextTick(clk.Now()).Add(-trigger.PrepareLead)) != nil {
			return
		}
		// The second whose submit time has come: after a late wake-up (a
		// paused process) the current one, as Java ticks the second it
		// woke in, not the one it went to sleep for.
		s.tick(clk.Now().Add(trigger.PrepareLead).Unix())
	}
}

// nextTick is the first whole second whose submit time (PrepareLead before
// it) is still ahead of now.
func nextTick(now time.Time) time.Time {
	next := now.Truncate(time.Second).Add(time.Second)
	for !next.Add(-trigger.PrepareLead).After(now) {
		next = next.Add(time.Second)
	}
	return next
}

// tick submits what the ring holds for second (epoch seconds) and the two
// seconds before.
func (s *Scheduler) tick(second int64) {
	due := s.ring.take(second)
	var rejected []entry
	var firstErr error
	for _, e := range due {
		a := action{entry: e, typ: trigger.TypeCron, ring: true}
		if s.observe != nil {
			s.observe(a, true)
		}
		if err := s.submit(e, a.typ); err != nil {
			rejected = append(rejected, e)
			firstErr = cmpOr(firstErr, err)
		}
	}
	s.logRejected(rejected, firstErr)
}
