package schedule

import (
	"context"

	"github.com/xxl-admin-go/xxl-admin-go/core/trigger"
)

// runRing is the ring thread: at every whole second it submits the fires of
// the current second-of-minute (in the admin zone) and of the second before
// (scheduler.md §3.3).
func (s *Scheduler) runRing(ctx context.Context) {
	clk := s.cfg.Clock
	for {
		if clk.SleepUntil(ctx, wakeAfter(clk.Now(), busyPeriod)) != nil {
			return
		}
		s.tick(clk.Now().In(s.cfg.Loc).Second())
	}
}

// tick fires what the ring holds for second and the second before.
func (s *Scheduler) tick(second int) {
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
