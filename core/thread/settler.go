package thread

import (
	"context"
	"errors"
	"sync"
	"time"

	"github.com/rs/zerolog"

	"github.com/xxl-admin-go/xxl-admin-go/compat/api"
	"github.com/xxl-admin-go/xxl-admin-go/compat/schema"
	"github.com/xxl-admin-go/xxl-admin-go/core/cron"
	"github.com/xxl-admin-go/xxl-admin-go/core/lifecycle"
	"github.com/xxl-admin-go/xxl-admin-go/core/trigger"
)

// What a settlement did with a log row left without a result (logs).
const (
	SettleRecognised = "recognised" // an executor has the run's log: now an ordinary running row
	SettleResent     = "resent"     // never sent: closed, and sent once as a new trigger
	SettleDropped    = "dropped"    // never sent, a planned fire its misfire strategy drops: closed as failed
	SettleFailed     = "failed"     // whether it was sent cannot be told: closed as failed
	SettleGone       = "gone"       // its job no longer exists: closed as failed
	SettleWaiting    = "waiting"    // an executor is silent or busy with the job: asked again at a later pass
)

// SettleObserver sees what settlements do (metrics).
type SettleObserver interface {
	// Settled counts one row settled by this admin, with its outcome.
	Settled(outcome string)
}

// SettleExecutor asks an executor about a run (*api.Client).
type SettleExecutor interface {
	Log(ctx context.Context, address string, p api.LogParam) api.ReturnT[api.LogResult]
	IdleBeat(ctx context.Context, address string, p api.IdleBeatParam) api.ReturnT[string]
}

// SettlerConfig configures a Settler.
type SettlerConfig struct {
	Store    *schema.Store
	Trigger  trigger.Submitter
	Executor SettleExecutor
	// Durable is this admin's owner name, lease and clock: a row sent
	// again is a pending trigger, decided with the row's settlement.
	Durable *trigger.Durable
	Texts   Texts
	// After is the grace: a row is settled once its trigger_time is this
	// far behind, which no live admin's trigger reaches
	// (trigger.InFlightBound).
	After time.Duration
	// GiveUp is how long past the grace a row whose executors cannot
	// tell whether they got it is asked again before it is closed as
	// failed (0: 10 minutes).
	GiveUp time.Duration
	// Interval is the time between passes (0: a quarter of After, within
	// 1 s and 1 minute); Batch bounds the rows of a pass (0: 100).
	Interval time.Duration
	Batch    int
	// Loc is the zone of CRON jobs without their own (nil: time.Local);
	// FixRate the generation's FIX_RATE rule.
	Loc      *time.Location
	FixRate  cron.FixRate
	Now      func() time.Time // nil: time.Now
	Log      zerolog.Logger
	Observer SettleObserver
}

// Settler settles the log rows that admins left without a result: a
// trigger's row is written before its /run and finished after it, and an
// admin (ours, or Java of either generation) that stops in between leaves
// it "running" for ever — the lost-job monitor takes only rows at
// trigger_code 200. Rows a pending trigger covers are the sweeper's. Every
// pass takes the rows still at trigger_code 0 and handle_code 0 whose
// trigger time is past the grace and asks the executors of the row's
// group about its log id:
//
//   - one has the run's log (/log): the /run reached it. The row becomes an
//     ordinary running row at that address, which the callback or the
//     lost-job monitor finishes.
//   - every one answers that it has no such log and holds no run of the job
//     (/idleBeat): the /run never left. A planned fire of the job's
//     schedule follows the job's misfire strategy — FIRE_ONCE_NOW sends it
//     once, anything else (or a stopped job) drops it, closed as failed;
//     any other trigger (manual, API, a child or retry of a Java admin) is
//     sent once. Sending closes the row and stores a pending trigger
//     (trigger.TypeMisfire, the row as its source) in one transaction,
//     then submits it through the trigger door: it survives this admin's
//     crash as retries do.
//   - an executor is silent or busy with the job: asked again at later
//     passes; past GiveUp the row is closed as failed, never sent blind.
//
// Each settlement is a compare-and-set on the row (schema.LogSettle): of
// several admins of ours one settles it, and none settles a row that its
// trigger or callback finished meanwhile.
type Settler struct {
	lifecycle.Base
	cfg      SettlerConfig
	now      func() time.Time
	zones    cron.Zones
	log      zerolog.Logger
	passDone func() // tests
}

// NewSettler creates the settler.
func NewSettler(cfg SettlerConfig) *Settler {
	if cfg.Interval <= 0 {
		cfg.Interval = min(max(cfg.After/4, time.Second), time.Minute)
	}
	if cfg.Batch <= 0 {
		cfg.Batch = 100
	}
	if cfg.GiveUp <= 0 {
		cfg.GiveUp = 10 * time.Minute
	}
	if cfg.Loc == nil {
		cfg.Loc = time.Local
	}
	return &Settler{cfg: cfg, now: orNow(cfg.Now), log: cfg.Log.With().Str("component", "settler").Logger()}
}

// Start runs a pass at once and then every interval.
func (w *Settler) Start(ctx context.Context) error {
	return w.StartLoop(ctx, "settle pass", w.log, w.cfg.Interval, 5*time.Minute, w.Pass, w.passDone)
}

// settleWorkers bounds the rows whose executors are asked at once.
const settleWorkers = 8

// Pass settles the rows past the grace now, up to Batch, and returns when
// all are seen to.
func (w *Settler) Pass(ctx context.Context) error {
	now := w.now()
	rows, err := w.cfg.Store.LogFindUnsettled(ctx, now.Add(-w.cfg.After), w.cfg.Batch)
	if err != nil {
		return err
	}
	sem := make(chan struct{}, settleWorkers)
	var wg sync.WaitGroup
	var mu sync.Mutex
	var first error
	for _, l := range rows {
		sem <- struct{}{}
		wg.Go(func() {
			defer func() { <-sem }()
			if err := w.settle(ctx, l); err != nil {
				mu.Lock()
				first = cmpErr(first, err)
				mu.Unlock()
			}
		})
	}
	wg.Wait()
	return first
}

func cmpErr(first, err error) error {
	if first != nil {
		return first
	}
	return err
}

// settle sees to one row.
func (w *Settler) settle(ctx context.Context, l schema.JobLog) error {
	job, err := w.cfg.Store.JobLoad(ctx, l.JobID)
	if errors.Is(err, schema.ErrNotFound) {
		return w.close(ctx, l, SettleGone, "its job no longer exists", false)
	}
	if err != nil {
		return err
	}
	at := *l.TriggerTime
	v, err := w.ask(ctx, l, at)
	if err != nil {
		return err
	}
	switch {
	case v.address != "":
		return w.recognise(ctx, l, v.address)
	case v.unknown != "":
		if w.now().Sub(at) < w.cfg.After+w.cfg.GiveUp {
			w.log.Debug().Int64("log_id", l.ID).Str("why", v.unknown).Msg("log row left without a result: asked again later")
			return nil
		}
		return w.close(ctx, l, SettleFailed, "whether its /run was sent cannot be told: "+v.unknown+"; it was not sent again", false)
	}
	if w.plannedFire(job, at) && (job.TriggerStatus != 1 || job.MisfireStrategy != "FIRE_ONCE_NOW") {
		why := "its /run was never sent, and it was a planned fire of the job's schedule, which its misfire strategy (" +
			job.MisfireStrategy + ") does not fire once missed"
		if job.TriggerStatus != 1 {
			why = "its /run was never sent, and it was a planned fire of the job's schedule, which is stopped now"
		}
		return w.close(ctx, l, SettleDropped, why, true)
	}
	return w.resend(ctx, l)
}
