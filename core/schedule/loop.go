package schedule

import (
	"context"
	"fmt"
	"time"

	"github.com/rs/zerolog"

	"github.com/xxl-admin-go/xxl-admin-go/compat/schema"
	"github.com/xxl-admin-go/xxl-admin-go/core/trigger"
)

const (
	startDelay     = 5 * time.Second // Java's first sleep: 5000 - now%1000
	busyPeriod     = time.Second     // next round after one that read jobs
	idlePeriod     = preReadMs * time.Millisecond
	maxErrorPeriod = idlePeriod
	// roundTimeout cancels a round stuck on a dead connection (no socket
	// timeout configured), so the loop carries on; it is above MySQL's
	// default 50 s lock wait, which fails a round on its own.
	roundTimeout = 60 * time.Second
	// maxFullRounds bounds the full rounds run back to back: each moves
	// its jobs a period on, so a handful reaches past the pre-read window.
	maxFullRounds = 10
)

// runLoop is the schedule thread: rounds until ctx ends, paced like Java
// (scheduler.md §3.1 and §3.2 step 7). Rounds run under dbCtx.
func (s *Scheduler) runLoop(ctx, dbCtx context.Context) {
	clk := s.cfg.Clock
	if clk.SleepUntil(ctx, wakeAfter(clk.Now(), startDelay)) != nil {
		return
	}
	s.cfg.Log.Info().Int("preReadCount", s.cfg.PreReadCount).Msg("schedule loop started")
	failures, full := 0, 0
	for ctx.Err() == nil {
		start := clk.Now()
		rctx, cancel := context.WithTimeout(dbCtx, roundTimeout)
		n, err := s.round(rctx)
		cancel()
		period := busyPeriod
		switch {
		case err != nil && dbCtx.Err() != nil:
			return // halted mid-round
		case schema.IsConflict(err):
			// Another admin moved the same jobs first (on a multi-primary
			// cluster, every second): this round fired nothing, the database
			// works, and the next round reads the winner's times.
			s.conflicts++
			ev := s.cfg.Log.Debug()
			if s.conflicts == 1 {
				ev = s.cfg.Log.Info()
			}
			ev.Err(err).Int("conflicts", s.conflicts).
				Msg("schedule round lost a write conflict to another admin; it fired nothing (expected on a multi-primary cluster, logged once)")
			if failures > 0 {
				s.cfg.Log.Info().Int("failures", failures).Msg("schedule round recovered")
				failures = 0
			}
		case err != nil:
			failures++
			if failures == 1 {
				s.cfg.Log.Error().Err(err).Msg("schedule round failed; retrying with back-off")
			} else {
				s.cfg.Log.Debug().Err(err).Int("failures", failures).Msg("schedule round failed again")
			}
			period = min(busyPeriod<<min(failures-1, 8), maxErrorPeriod)
		default:
			if failures > 0 {
				s.cfg.Log.Info().Int("failures", failures).Msg("schedule round recovered")
				failures = 0
			}
			if n == 0 {
				period = idlePeriod
			}
		}
		if clk.Now().Sub(start) >= time.Second {
			continue // a slow round is followed at once, as in Java
		}
		if err == nil && n >= s.cfg.PreReadCount && full < maxFullRounds {
			full++
			// A full round may have left due jobs unread (the pre-read is
			// capped and ordered by id, so the same first jobs would fill
			// every round and the rest never fire): read on at once. Java
			// waits a second, and with more jobs due per second than the
			// cap the jobs past it misfire.
			continue
		}
		full = 0
		if clk.SleepUntil(ctx, wakeAfter(clk.Now(), period)) != nil {
			return
		}
	}
}

// round is one pre-read under the schedule lock (scheduler.md §3.2). It
// returns the number of jobs read. The locking pre-read, the decisions and
// the compare-and-set write-back share one transaction; the triggers and
// ring pushes only happen after it committed, so a job fires only if this
// admin's own transaction moved its trigger_next_time from the value it
// read, and a failed or conflicting round changes nothing anywhere.
func (s *Scheduler) round(ctx context.Context) (int, error) {
	var acts []action
	var read, skipped int
	reachedCommit := false
	if err := s.index.prepare(ctx, s.cfg.Store, s.cfg.Clock.Now()); err != nil {
		return 0, fmt.Errorf("schedule round: %w", err)
	}
	var moves []schema.ScheduleMove
	asked := time.Now()
	err := s.cfg.Store.WithScheduleLock(ctx, func(tx *schema.Store) error {
		if s.cfg.Observer != nil {
			s.cfg.Observer.LockWaited(time.Since(asked))
		}
		acts, read, skipped, reachedCommit = acts[:0], 0, 0, false
		nowMs := s.cfg.Clock.Now().UnixMilli()
		var jobs []schema.JobInfo
		var err error
		if s.index.on {
			jobs, err = s.index.read(ctx, tx, nowMs+preReadMs, s.cfg.PreReadCount)
		} else {
			tx.JobWritesTaken() // Java's scan reads them anyway
			jobs, err = tx.JobScheduleQuery(ctx, nowMs+preReadMs, s.cfg.PreReadCount)
		}
		if err != nil {
			return err
		}
		read = len(jobs)
		moves = make([]schema.ScheduleMove, len(jobs))
		for i := range jobs {
			j := &jobs[i]
			from := j.TriggerNextTime
			if skips(j, nowMs) {
				skipped++
			}
			acts = append(acts, s.planner.plan(j, nowMs)...)
			// Every job read is written back, as Java does; the write is
			// conditional on the time read and batched (one statement per
			// job dominated the round).
			moves[i] = schema.ScheduleMove{ID: j.ID, FromNext: from,
				Status: j.TriggerStatus, Last: j.TriggerLastTime, Next: j.TriggerNextTime}
		}
		if s.beforeWrite != nil {
			if err := s.beforeWrite(ctx, tx); err != nil {
				return err
			}
		}
		if err := tx.JobScheduleMove(ctx, moves); err != nil {
			return err
		}
		reachedCommit = true
		return nil
	})
	if err != nil {
		if reachedCommit && !schema.IsConflict(err) && len(acts) > 0 {
			// The commit's outcome is unknown (e.g. the server died with it):
			// if it was applied, these fires are lost, as a crash loses a ring.
			s.logPlanned(s.cfg.Log.Debug(), acts).Msg("schedule round commit failed; its fires are dropped")
		}
		return 0, fmt.Errorf("schedule round: %w", err)
	}
	if s.index.on {
		s.index.moved(moves)
	}
	if len(acts) > 0 {
		s.logPlanned(s.cfg.Log.Debug(), acts).Int("jobs", read).Msg("schedule round committed")
	}
	if skipped > 0 && s.cfg.Observer != nil {
		// Counted once committed: a rolled-back round skipped nothing.
		s.cfg.Observer.Skipped(skipped)
	}
	var rejected []entry
	var firstErr error
	for _, a := range acts {
		if s.observe != nil {
			s.observe(a, false)
		}
		if a.ring && s.ring.push(a.entry) {
			continue
		}
		if err := s.submit(a.entry, a.typ); err != nil {
			rejected = append(rejected, a.entry)
			firstErr = cmpOr(firstErr, err)
		}
	}
	s.logRejected(rejected, firstErr)
	return read, nil
}

// logPlanned adds the fires of a round and the span of their planned times
// (epoch ms), which tells which seconds a round decided.
func (s *Scheduler) logPlanned(ev *zerolog.Event, acts []action) *zerolog.Event {
	lo, hi := acts[0].planned, acts[0].planned
	for _, a := range acts[1:] {
		lo, hi = min(lo, a.planned), max(hi, a.planned)
	}
	return ev.Int("fires", len(acts)).Int64("first_planned_ms", lo).Int64("last_planned_ms", hi)
}

func (s *Scheduler) submit(e entry, typ trigger.Type) error {
	if s.cfg.Observer != nil && e.planned > 0 {
		s.cfg.Observer.Fired(time.Duration(s.cfg.Clock.Now().UnixMilli()-e.planned) * time.Millisecond)
	}
	req := trigger.Request{JobID: e.jobID, Type: typ, FailRetryCount: -1}
	if typ == trigger.TypeCron {
		// A planned fire: the pools prepare it ahead when it is early, and
		// apply the misfire strategy when they cannot send it in time.
		req.At, req.Misfire = time.UnixMilli(e.planned), e.misfire
	}
	return s.cfg.Submit.Submit(req)
}

// logRejected reports triggers the pools refused, once per batch so a full
// pool does not flood the log.
func (s *Scheduler) logRejected(rejected []entry, err error) {
	if len(rejected) == 0 {
		return
	}
	ids := make([]int, 0, min(len(rejected), 20))
	for _, e := range rejected[:min(len(rejected), 20)] {
		ids = append(ids, e.jobID)
	}
	s.cfg.Log.Warn().Err(err).Int("count", len(rejected)).Ints("jobIds", ids).Msg("triggers not queued")
}

func cmpOr(a, b error) error {
	if a != nil {
		return a
	}
	return b
}
