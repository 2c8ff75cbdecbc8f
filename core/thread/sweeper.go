package thread

import (
	"context"
	"errors"
	"strings"
	"sync"
	"time"

	"github.com/rs/zerolog"

	"github.com/xxl-admin-go/xxl-admin-go/compat/api"
	"github.com/xxl-admin-go/xxl-admin-go/compat/schema"
	"github.com/xxl-admin-go/xxl-admin-go/core/lifecycle"
	"github.com/xxl-admin-go/xxl-admin-go/core/trigger"
)

// What a sweep did with a pending trigger it took over (metrics, logs).
const (
	SweepSubmitted = "submitted" // decided, not prepared: submitted again
	SweepSent      = "sent"      // log row written, never sent: sent now
	SweepResent    = "resent"    // maybe sent; the executor has no trace of it: sent again, same log id
	SweepReceived  = "received"  // maybe sent; the executor has it: its result recorded, not sent again
	SweepStored    = "stored"    // its result was stored already: nothing to send
	SweepGone      = "gone"      // its log row or job no longer exists
	SweepFailed    = "failed"    // its executor never answered whether it has it: recorded as failed
	SweepWaiting   = "waiting"   // its executor does not answer (yet): tried again later
)

// SweepObserver sees what sweeps do (metrics).
type SweepObserver interface {
	// PendingTriggers is the number of pending rows, after each sweep.
	PendingTriggers(n int)
	// PendingSwept counts one row taken over at a stage, with its outcome.
	PendingSwept(stage int, outcome string)
}

// sweepStore is the part of the store the sweeper needs.
type sweepStore interface {
	PendingExpired(ctx context.Context, now time.Time, size int) ([]schema.PendingTrigger, error)
	PendingClaim(ctx context.Context, p schema.PendingTrigger, claim int64, owner string, leaseUntil time.Time) (bool, error)
	PendingRelease(ctx context.Context, claim int64) (bool, error)
	PendingCount(ctx context.Context) (int, error)
	LogLoad(ctx context.Context, id int64) (schema.JobLog, error)
}

// Resumer finishes rows another admin left (*trigger.Flow).
type Resumer interface {
	Resume(ctx context.Context, r trigger.Resumption) (api.ReturnT[string], error)
}

// LogReader reads an executor's log of a run (*api.Client).
type LogReader interface {
	Log(ctx context.Context, address string, p api.LogParam) api.ReturnT[api.LogResult]
}

// SweeperConfig configures a Sweeper.
type SweeperConfig struct {
	Store    sweepStore
	Flow     Resumer
	Trigger  trigger.Submitter
	Executor LogReader
	// Durable is this admin's owner name, leases and clock.
	Durable *trigger.Durable
	// Interval is the time between sweeps (0: a third of the lease, within
	// 1 to 10 s).
	Interval time.Duration
	// Batch bounds the rows taken over per sweep (0: 100); Workers how
	// many are seen to at once (0: 8).
	Batch, Workers int
	// GiveUp is how long after its decision a trigger whose executor does
	// not answer whether it has it is tried again before it is recorded as
	// failed (0: 10 minutes).
	GiveUp   time.Duration
	Log      zerolog.Logger
	Observer SweepObserver
}

// Sweeper sends the retries and child triggers that an admin decided and
// then left, whether it crashed, was killed or stopped: any admin of ours
// on the database runs one, so whoever lives sees them through. Each sweep
// takes over the pending rows whose leases ran out with a compare-and-set
// on their claims (so two admins cannot both win one) and goes on from the
// row's stage:
//
//   - decided: submitted through the trigger door again, as its holder
//     would have;
//   - log row written: that row's /run never left; it is sent now, routed
//     anew, under the same log id;
//   - being sent: the /run may have reached the executor. Its lease ran
//     out after the executor client's limit on a call, so that /run has
//     ended. A stored result, or a callback, settles it; otherwise the
//     executor that row went to is asked for the run's log (/log): a Java
//     executor keeps one from the moment the run starts, so a log means it
//     ran (recorded as sent, not sent again). Without one the /run goes
//     out again to that executor with the same log id, which a Java
//     executor refuses as a repeat while the first still waits in its
//     queue (recorded as sent too). An executor that does not answer is
//     asked again at later sweeps until GiveUp, then the trigger is
//     recorded as failed, never sent blind.
type Sweeper struct {
	lifecycle.Base
	cfg      SweeperConfig
	log      zerolog.Logger
	passDone func() // tests
}

// NewSweeper creates the sweeper.
func NewSweeper(cfg SweeperConfig) *Sweeper {
	if cfg.Interval <= 0 {
		cfg.Interval = min(max(cfg.Durable.Lease/3, time.Second), 10*time.Second)
	}
	if cfg.Batch <= 0 {
		cfg.Batch = 100
	}
	if cfg.Workers <= 0 {
		cfg.Workers = 8
	}
	if cfg.GiveUp <= 0 {
		cfg.GiveUp = 10 * time.Minute
	}
	return &Sweeper{cfg: cfg, log: cfg.Log.With().Str("component", "sweeper").Logger()}
}

// Start sweeps at once and then every interval.
func (w *Sweeper) Start(ctx context.Context) error {
	return w.StartLoop(ctx, "pending trigger sweep", w.log, w.cfg.Interval, 5*time.Minute, w.Pass, w.passDone)
}

func (w *Sweeper) now() time.Time {
	if w.cfg.Durable.Now == nil {
		return time.Now()
	}
	return w.cfg.Durable.Now()
}

// Pass is one sweep: the expired rows are taken over and seen to, up to
// Workers at a time; it returns when all are.
func (w *Sweeper) Pass(ctx context.Context) error {
	rows, err := w.cfg.Store.PendingExpired(ctx, w.now(), w.cfg.Batch)
	if err != nil {
		return err
	}
	sem := make(chan struct{}, w.cfg.Workers)
	var wg sync.WaitGroup
	for _, p := range rows {
		sem <- struct{}{}
		wg.Go(func() {
			defer func() { <-sem }()
			w.take(ctx, p)
		})
	}
	wg.Wait()
	if w.cfg.Observer != nil {
		n, err := w.cfg.Store.PendingCount(ctx)
		if err != nil {
			return err
		}
		w.cfg.Observer.PendingTriggers(n)
	}
	return nil
}

// take claims one expired row and goes on from its stage.
func (w *Sweeper) take(ctx context.Context, p schema.PendingTrigger) {
	d := w.cfg.Durable
	claim := trigger.NewClaim()
	lease := d.Lease
	if p.Stage == schema.PendingSending {
		lease = d.SendLease
	}
	won, err := w.cfg.Store.PendingClaim(ctx, p, claim, d.Owner, w.now().Add(lease))
	if err != nil {
		if schema.IsConflict(err) { // another admin's takeover won (Galera certification)
			return
		}
		w.log.Warn().Err(err).Int64("pending_id", p.ID).Msg("pending trigger not taken over; tried again next sweep")
		return
	}
	if !won {
		return
	}
	var outcome string
	switch p.Stage {
	case schema.PendingDecided:
		outcome, err = w.submit(p, claim)
	case schema.PendingLogged:
		outcome, err = w.resume(ctx, p, claim, false)
	default:
		outcome, err = w.resume(ctx, p, claim, true)
	}
	ev := w.log.Warn()
	if err != nil {
		ev = w.log.Error().Err(err)
	}
	ev.Int64("pending_id", p.ID).Str("kind", p.Kind).Int("job_id", p.JobID).Int64("source_log_id", p.SourceLogID).
		Int64("log_id", p.LogID).Int("stage", p.Stage).Str("left_by", p.Owner).Str("outcome", outcome).
		Msg("took over a pending trigger another admin (or this one) left")
	if w.cfg.Observer != nil && outcome != "" {
		w.cfg.Observer.PendingSwept(p.Stage, outcome)
	}
}

// submit sends a decided trigger through the trigger door again.
func (w *Sweeper) submit(p schema.PendingTrigger, claim int64) (string, error) {
	if err := w.cfg.Trigger.Submit(trigger.Pending(p, claim)); err != nil {
		return SweepWaiting, err // its lease runs out again: the next sweep tries again
	}
	return SweepSubmitted, nil
}

// resume finishes a row whose log row was written: never sent (sending
// false) or maybe sent.
func (w *Sweeper) resume(ctx context.Context, p schema.PendingTrigger, claim int64, sending bool) (string, error) {
	l, err := w.cfg.Store.LogLoad(ctx, p.LogID)
	if errors.Is(err, schema.ErrNotFound) {
		return w.release(ctx, claim, SweepGone)
	}
	if err != nil {
		return "", err
	}
	if l.TriggerCode != 0 { // the holder stored the result; only its pending row was left
		return w.release(ctx, claim, SweepStored)
	}
	at := w.now()
	if l.TriggerTime != nil {
		at = *l.TriggerTime
	}
	r := trigger.ResumptionOf(p, claim, at)
	outcome := SweepSent
	if sending {
		if outcome, r.Answer = w.ask(ctx, p, l, at); outcome == SweepWaiting {
			return outcome, nil
		}
	}
	if _, err := w.cfg.Flow.Resume(ctx, r); err != nil {
		if errors.Is(err, trigger.ErrJobGone) {
			return w.release(ctx, claim, SweepGone)
		}
		return "", err
	}
	return outcome, nil
}

// ask finds out whether a maybe-sent row reached its executor: the answer
// to record without sending (nil: send it again) and the outcome.
func (w *Sweeper) ask(ctx context.Context, p schema.PendingTrigger, l schema.JobLog, at time.Time) (string, *api.ReturnT[string]) {
	if l.HandleCode != 0 {
		return SweepReceived, received("the executor reported the run's result before the admin that sent it had stored the trigger's")
	}
	ans := w.cfg.Executor.Log(ctx, p.ExecutorAddress, api.LogParam{LogDateTim: at.UnixMilli(), LogID: p.LogID, FromLineNum: 1})
	switch {
	case ans.Code == api.CodeSuccess && ans.Content != nil && !noLog(ans.Content.LogContent):
		return SweepReceived, received("the executor has the run's log: the /run sent before the admin that sent it stopped had reached it")
	case ans.Code == api.CodeSuccess:
		return SweepResent, nil
	case w.now().Sub(p.DecidedAt) < w.cfg.GiveUp:
		return SweepWaiting, nil
	}
	msg := "The admin that sent this trigger stopped during its /run, and the executor " + p.ExecutorAddress +
		" did not answer whether it received it (/log: " + ans.MsgText() + "); it was not sent again."
	return SweepFailed, &api.ReturnT[string]{Code: api.CodeFail, Msg: &msg}
}

// noLog tells the executors' answers for a run they have no log of: the
// Java executor's (2.x and 3.x) and pyxxl's.
func noLog(content string) bool {
	return strings.Contains(content, "logFile not exists") || strings.Contains(content, "logFile not found") ||
		strings.Contains(content, "No such logid logs")
}

func received(note string) *api.ReturnT[string] {
	return &api.ReturnT[string]{Code: api.CodeSuccess, Msg: &note}
}

// release deletes a row there is nothing left to do for.
func (w *Sweeper) release(ctx context.Context, claim int64, outcome string) (string, error) {
	if _, err := w.cfg.Store.PendingRelease(ctx, claim); err != nil {
		return "", err
	}
	return outcome, nil
}
