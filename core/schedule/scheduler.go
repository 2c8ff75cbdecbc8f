package schedule

import (
	"context"
	"errors"
	"sync"
	"time"

	"github.com/rs/zerolog"
	"github.com/xxl-admin-go/xxl-admin-go/compat/schema"
	"github.com/xxl-admin-go/xxl-admin-go/core/clock"
	"github.com/xxl-admin-go/xxl-admin-go/core/cron"
	"github.com/xxl-admin-go/xxl-admin-go/core/lifecycle"
	"github.com/xxl-admin-go/xxl-admin-go/core/trigger"
)

// Config wires a Scheduler.
type Config struct {
	Store  *schema.Store
	Submit trigger.Submitter // the trigger door
	// PreReadCount caps the jobs one round reads: (fastMax+slowMax)*20
	// with the clamped pool sizes, 6000 by default (scheduler.md §3).
	PreReadCount int
	// Loc is the zone cron expressions and the ring's second-of-minute are
	// evaluated in: the admin's local zone (scheduler.md §13). nil means
	// time.Local.
	Loc *time.Location
	// FixRate is how a FIX_RATE job's next time is computed: cron.FixRate242
	// (the zero value) or cron.FixRate342, the admin owning the database.
	FixRate cron.FixRate
	// Clock defaults to clock.System.
	Clock clock.Clock
	Log   zerolog.Logger
	// Observer sees each fire's lateness, each round's wait for the
	// schedule lock and its skipped misfires (metrics); nil means none.
	Observer Observer
	// IndexMinJobs is the highest job id from which rounds find due jobs
	// through the due index instead of Java's scan (0: DefaultIndexMinJobs,
	// negative: never); IndexRefresh how often the index is read whole (0:
	// DefaultIndexRefresh). See dueIndex.
	IndexMinJobs int
	IndexRefresh time.Duration
}

// Observer is what metrics see of the schedule.
type Observer interface {
	// Fired reports how late a fire was submitted after its planned time.
	Fired(lateness time.Duration)
	// LockWaited reports how long a round waited for the schedule lock.
	LockWaited(wait time.Duration)
	// Skipped reports the planned fires a committed round dropped for
	// being read over 5 s late with misfire strategy DO_NOTHING
	// (scheduler.md §3.2 case A); FIRE_ONCE_NOW ones fire as MISFIRE
	// triggers and are seen as triggers.
	Skipped(n int)
}

const (
	// ringDrainWait is how long Stop lets the ring fire what the loop
	// already pushed (Java sleeps 8 s when the ring is not empty).
	ringDrainWait = 8 * time.Second
	// roundStopWait is how long Stop lets a running round finish before
	// cancelling it: a hung database connection must not hang shutdown.
	roundStopWait = 10 * time.Second
)

// Scheduler is JobScheduleHelper: the pre-read loop plus the time ring.
type Scheduler struct {
	lifecycle.Base
	cfg     Config
	planner planner
	ring    ring
	index   *dueIndex // the loop's only

	mu          sync.Mutex
	stopLoop    context.CancelFunc // ends the loop between rounds
	abortRounds context.CancelFunc // cancels a running round
	loopDone    chan struct{}

	// conflicts counts rounds lost to another admin's write (loop only).
	conflicts int

	// observe, when set (tests only), sees every action of a committed
	// round and every ring fire, before it is submitted.
	observe func(a action, fired bool)
	// beforeWrite, when set (tests only), runs inside a round's
	// transaction between the pre-read and the write-back.
	beforeWrite func(ctx context.Context, tx *schema.Store) error
}

// New returns a stopped Scheduler.
func New(cfg Config) (*Scheduler, error) {
	if cfg.Store == nil || cfg.Submit == nil {
		return nil, errors.New("schedule: Store and Submit are required")
	}
	if cfg.PreReadCount <= 0 {
		return nil, errors.New("schedule: PreReadCount must be positive")
	}
	if cfg.Loc == nil {
		cfg.Loc = time.Local
	}
	if cfg.Clock == nil {
		cfg.Clock = clock.System{}
	}
	cfg.Log = cfg.Log.With().Str("component", "schedule").Logger()
	return &Scheduler{cfg: cfg, index: newDueIndex(cfg.IndexMinJobs, cfg.IndexRefresh), planner: planner{loc: cfg.Loc, zones: new(cron.Zones), fixRate: cfg.FixRate, clock: cfg.Clock, log: cfg.Log}}, nil
}

// Start launches the loop and the ring ticker.
func (s *Scheduler) Start(ctx context.Context) error {
	base, err := s.StartBase(ctx)
	if err != nil {
		return err
	}
	loopCtx, stopLoop := context.WithCancel(base)
	roundCtx, abortRounds := context.WithCancel(base)
	done := make(chan struct{})
	s.mu.Lock()
	s.stopLoop, s.abortRounds, s.loopDone = stopLoop, abortRounds, done
	s.mu.Unlock()
	// The loop's own context only ends its sleeps; rounds run under
	// roundCtx so that a graceful Stop lets the current round commit.
	s.Go(func(context.Context) {
		defer close(done)
		defer abortRounds()
		s.runLoop(loopCtx, roundCtx)
	})
	s.Go(s.runRing)
	return nil
}

// Stop ends the loop after its current round, lets the ring fire what it
// holds (at most 8 s), then stops the ring (scheduler.md §1 stop order).
// Safe to call twice or before Start.
func (s *Scheduler) Stop() {
	s.mu.Lock()
	stopLoop, abortRounds, done := s.stopLoop, s.abortRounds, s.loopDone
	s.stopLoop, s.abortRounds, s.loopDone = nil, nil, nil
	s.mu.Unlock()
	if stopLoop != nil {
		stopLoop()
		if !s.waitFor(done, roundStopWait) {
			s.cfg.Log.Warn().Dur("waited", roundStopWait).Msg("schedule round still running at stop; cancelling it")
			abortRounds()
			<-done
		}
		s.drainRing()
	}
	s.Base.Stop()
}

// waitFor waits on the scheduler's clock until done is closed or d has
// passed, and tells whether done was closed.
func (s *Scheduler) waitFor(done <-chan struct{}, d time.Duration) bool {
	select {
	case <-done:
		return true
	default:
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	go func() {
		select {
		case <-done:
			cancel()
		case <-ctx.Done():
		}
	}()
	_ = s.cfg.Clock.SleepUntil(ctx, s.cfg.Clock.Now().Add(d))
	select {
	case <-done:
		return true
	default:
		return false
	}
}

// drainRing waits until the ring is empty or ringDrainWait has passed.
func (s *Scheduler) drainRing() {
	n := s.ring.len()
	if n == 0 {
		return
	}
	s.cfg.Log.Info().Int("pending", n).Msg("waiting for the time ring to drain")
	if !s.waitFor(s.ring.emptied(), ringDrainWait) {
		s.cfg.Log.Warn().Int("dropped", s.ring.len()).Msg("time ring not drained at stop")
	}
}

// halt stops everything at once without draining, as a crash would (the
// ring's contents are lost); tests use it to kill an admin.
func (s *Scheduler) halt() {
	s.mu.Lock()
	s.stopLoop, s.abortRounds, s.loopDone = nil, nil, nil
	s.mu.Unlock()
	s.Base.Stop()
}
