package trigger

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"sync/atomic"
	"time"

	"github.com/rs/zerolog"
)

// ErrPoolFull is returned by Submit when the chosen pool's queue is full
// (Java's RejectedExecutionException, scheduler.md §4).
var ErrPoolFull = errors.New("trigger pool is full")

// ErrStopped is returned by Submit before Start and after Stop.
var ErrStopped = errors.New("trigger pools are not running")

// Defaults of PoolConfig (scheduler.md §4).
const (
	DefaultFastMax      = 200
	DefaultSlowMax      = 100
	DefaultQueueSize    = 1000 // fast; the slow queue is twice as long
	DefaultDrainTimeout = 10 * time.Second
	coreWorkers         = 10
	keepAlive           = 60 * time.Second
	rejectQueue         = 1000
	rejectTimeout       = 10 * time.Second
)

// PoolConfig configures NewPools; zero values take the defaults.
type PoolConfig struct {
	FastMax, SlowMax int // worker limits (config clamps them to ≥ 200 / ≥ 100)
	// QueueSize is the fast queue's capacity; the slow one gets twice as
	// much (Java: 1000 and 2000).
	QueueSize int
	// DrainTimeout bounds how long Stop lets queued triggers run before it
	// cancels them.
	DrainTimeout time.Duration
	// Now is the clock of the demotion minute and trigger durations.
	Now func() time.Time
	Log zerolog.Logger
}

// Runner runs one trigger; *Flow satisfies it.
type Runner interface {
	Trigger(ctx context.Context, req Request) error
}

// RejectRecorder writes the failed log row of a refused trigger; a Runner
// that also implements it (as *Flow does) gets one for every ErrPoolFull.
type RejectRecorder interface {
	RecordRejected(ctx context.Context, req Request, reason string) error
}

// Pools are the fast and slow trigger pools (JobTriggerPoolHelper).
type Pools struct {
	flow     Runner
	recorder RejectRecorder
	now      func() time.Time
	log      zerolog.Logger
	drain    time.Duration
	fast     *pool
	slow     *pool
	demote   *demotion
	rejects  chan rejection
	rejected atomic.Int64
	// ran, when set (tests only), sees every trigger after its run was
	// timed for the demotion rule.
	ran func(Request)

	mu      sync.RWMutex
	running bool
	ctx     context.Context
	cancel  context.CancelFunc
	wg      sync.WaitGroup
}

type rejection struct {
	req    Request
	reason string
}

// NewPools builds stopped pools around a Runner.
func NewPools(cfg PoolConfig, flow Runner) *Pools {
	queue := cfg.QueueSize
	if queue <= 0 {
		queue = DefaultQueueSize
	}
	p := &Pools{
		flow:    flow,
		now:     cfg.Now,
		log:     cfg.Log.With().Str("component", "trigger-pool").Logger(),
		drain:   cfg.DrainTimeout,
		fast:    newPool("fast", orDefault(cfg.FastMax, DefaultFastMax), queue),
		slow:    newPool("slow", orDefault(cfg.SlowMax, DefaultSlowMax), 2*queue),
		demote:  newDemotion(),
		rejects: make(chan rejection, rejectQueue),
	}
	p.recorder, _ = flow.(RejectRecorder)
	if p.now == nil {
		p.now = time.Now
	}
	if p.drain <= 0 {
		p.drain = DefaultDrainTimeout
	}
	return p
}

func newPool(name string, maxWorkers, queue int) *pool {
	return &pool{name: name, queue: make(chan Request, queue), core: min(coreWorkers, maxWorkers),
		max: maxWorkers, keepAlive: keepAlive}
}

func orDefault(v, d int) int {
	if v <= 0 {
		return d
	}
	return v
}

// Start lets Submit accept triggers. The pools can be started once.
func (p *Pools) Start(ctx context.Context) error {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.running || p.ctx != nil {
		return errors.New("trigger pools: already started")
	}
	// Shutdown goes through Stop, which drains first; the caller's
	// cancellation must not abort queued triggers.
	p.ctx, p.cancel = context.WithCancel(context.WithoutCancel(ctx))
	p.running = true
	p.wg.Add(1)
	go p.recordRejections()
	return nil
}

// Stop refuses new triggers, lets the queued ones run for up to the drain
// timeout, then cancels those still running or queued (each is logged with
// its job id) and waits for the workers to end. Safe to call twice.
func (p *Pools) Stop() {
	p.mu.Lock()
	if !p.running {
		p.mu.Unlock()
		return
	}
	p.running = false
	close(p.fast.queue)
	close(p.slow.queue)
	close(p.rejects)
	p.mu.Unlock()

	done := make(chan struct{})
	go func() {
		p.wg.Wait()
		close(done)
	}()
	timer := time.NewTimer(p.drain)
	defer timer.Stop()
	select {
	case <-done:
	case <-timer.C:
		p.log.Warn().Dur("drain_timeout", p.drain).Msg("trigger pools: drain timed out, cancelling remaining triggers")
		p.cancel()
		<-done
	}
	p.cancel()
}

// Submit queues a trigger without blocking. When the chosen pool is full it
// returns ErrPoolFull and records a failed log row (asynchronously) so the
// trigger does not vanish.
func (p *Pools) Submit(req Request) error {
	p.mu.RLock()
	defer p.mu.RUnlock()
	if !p.running {
		return ErrStopped
	}
	pl := p.choose(req.JobID)
	select {
	case pl.queue <- req:
	default:
		p.reject(pl, req)
		return fmt.Errorf("job %d: %s pool (%d queued): %w", req.JobID, pl.name, cap(pl.queue), ErrPoolFull)
	}
	if pl.needWorker() {
		p.wg.Add(1)
		go func() {
			defer p.wg.Done()
			pl.work(p.run)
		}()
	}
	return nil
}

// choose is the demotion rule of scheduler.md §4.
func (p *Pools) choose(jobID int) *pool {
	if p.demote.slow(jobID, p.now()) {
		return p.slow
	}
	return p.fast
}

// run executes one queued trigger and times it for the demotion rule.
func (p *Pools) run(req Request) {
	log := p.log.With().Int("job_id", req.JobID).Str("trigger_type", string(req.Type)).Logger()
	if p.ctx.Err() != nil {
		log.Warn().Msg("trigger dropped: pools stopped before it ran")
		return
	}
	start := p.now()
	token := p.demote.begin(req.JobID, start)
	defer func() {
		end := p.now()
		p.demote.end(req.JobID, token, end.Sub(start), end)
		if v := recover(); v != nil {
			log.Error().Interface("panic", v).Msg("trigger panicked")
		}
		if p.ran != nil {
			p.ran(req)
		}
	}()
	if err := p.flow.Trigger(p.ctx, req); err != nil {
		log.Error().Err(err).Msg("trigger failed")
	}
}

// reject logs a refused trigger and hands it to the recorder; called with
// p.mu read-locked, so p.rejects is open.
func (p *Pools) reject(pl *pool, req Request) {
	p.rejected.Add(1)
	reason := fmt.Sprintf("Trigger rejected: the %s trigger pool is full (%d triggers queued); the job was not run.",
		pl.name, cap(pl.queue))
	p.log.Error().Int("job_id", req.JobID).Str("trigger_type", string(req.Type)).Str("pool", pl.name).
		Msg("trigger rejected: pool full")
	if p.recorder == nil {
		return
	}
	select {
	case p.rejects <- rejection{req: req, reason: reason}:
	default:
		p.log.Error().Int("job_id", req.JobID).Msg("rejected trigger not recorded: recorder queue full")
	}
}

// recordRejections writes the failed rows of refused triggers one by one.
func (p *Pools) recordRejections() {
	defer p.wg.Done()
	for r := range p.rejects {
		if p.recorder == nil {
			continue
		}
		ctx, cancel := context.WithTimeout(p.ctx, rejectTimeout)
		if err := p.recorder.RecordRejected(ctx, r.req, r.reason); err != nil {
			p.log.Error().Err(err).Int("job_id", r.req.JobID).Msg("rejected trigger not recorded")
		}
		cancel()
	}
}

// Stats is a snapshot of both pools.
type Stats struct {
	Fast, Slow PoolStats
	Rejected   int64 // triggers refused since start
	Demoted    int   // jobs in the slow pool now (slow this minute, or stuck)
	SlowRouted int64 // triggers sent to the slow pool since start
	Stuck      int   // triggers running longer than 500 ms now
}

// Stats reports queue lengths, workers and rejections, for metrics.
func (p *Pools) Stats() Stats {
	now := p.now()
	routed, stuck := p.demote.stats(now)
	return Stats{Fast: p.fast.stats(), Slow: p.slow.stats(), Rejected: p.rejected.Load(),
		Demoted: p.demote.demoted(now), SlowRouted: routed, Stuck: stuck}
}
