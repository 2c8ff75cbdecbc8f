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
	rejectQueue         = 1000
	rejectTimeout       = 10 * time.Second
	// summaryEvery is how often the summary line of triggers that did
	// not run as planned may be written.
	summaryEvery = time.Second
)

// PoolConfig configures NewPools; zero values take the defaults.
type PoolConfig struct {
	// FastMax and SlowMax bound the triggers each pool sends at the same
	// time (config clamps them to ≥ 200 / ≥ 100).
	FastMax, SlowMax int
	// QueueSize is how many accepted triggers the fast pool holds before
	// they are prepared; the slow one holds twice as many (Java: 1000 and
	// 2000).
	QueueSize int
	// DrainTimeout bounds how long Stop lets queued triggers run before it
	// cancels them.
	DrainTimeout time.Duration
	// Now is the clock of the demotion minute and trigger durations.
	Now func() time.Time
	Log zerolog.Logger
}

// Pools are the fast and slow trigger pools (JobTriggerPoolHelper), each a
// pipeline (see lane) over one Flow: triggers are accepted into a queue
// without blocking, prepared many at a time shortly before they are due,
// fired one by one by up to FastMax (SlowMax) senders, and their results
// written many at a time. A job whose triggers are slow goes to the slow
// pool (see demotion).
type Pools struct {
	flow     *Flow
	now      func() time.Time
	log      zerolog.Logger
	drain    time.Duration
	fast     *lane
	slow     *lane
	demote   *demotion
	rec      *recorder
	rejects  chan rejection
	rejected atomic.Int64
	// ran, when set (tests only), sees every fired row's job after its
	// run was timed for the demotion rule; prepared sees every prepared
	// batch when its rows are written.
	ran      func(jobID int)
	prepared func(rows int)
	// aheadMin is minAhead (tests lower it to fill a queue with few
	// triggers).
	aheadMin int64

	mu       sync.RWMutex
	running  bool
	ctx      context.Context
	cancel   context.CancelFunc
	stopping chan struct{}
	done     chan struct{} // closed when every stage has ended
}

// NewPools builds stopped pools around a Flow.
func NewPools(cfg PoolConfig, flow *Flow) *Pools {
	queue := cfg.QueueSize
	if queue <= 0 {
		queue = DefaultQueueSize
	}
	p := &Pools{
		flow:     flow,
		now:      cfg.Now,
		log:      cfg.Log.With().Str("component", "trigger-pool").Logger(),
		drain:    cfg.DrainTimeout,
		demote:   newDemotion(),
		rejects:  make(chan rejection, rejectQueue),
		aheadMin: minAhead,
	}
	p.fast = newLane(p, "fast", orDefault(cfg.FastMax, DefaultFastMax), 2, queue)
	p.slow = newLane(p, "slow", orDefault(cfg.SlowMax, DefaultSlowMax), 1, 2*queue)
	p.rec = newRecorder(flow, p.log)
	if p.now == nil {
		p.now = time.Now
	}
	if p.drain <= 0 {
		p.drain = DefaultDrainTimeout
	}
	return p
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
	p.stopping, p.done = make(chan struct{}), make(chan struct{})
	p.running = true
	p.rec.start()
	p.fast.start(p.ctx, p.stopping)
	p.slow.start(p.ctx, p.stopping)
	var side sync.WaitGroup
	side.Add(2)
	go func() {
		defer side.Done()
		p.recordRejections()
	}()
	summaryDone := make(chan struct{})
	go func() {
		defer side.Done()
		p.summarize(summaryDone)
	}()
	go func() {
		// Rows move from fast to slow senders, never back: the fast
		// lane ends first. Results are written after the last sender.
		p.fast.finish()
		p.slow.finish()
		p.rec.stop()
		close(summaryDone)
		side.Wait()
		close(p.done)
	}()
	return nil
}

// Stop refuses new triggers, lets the queued ones run for up to the drain
// timeout, then cancels those still running or queued and waits for every
// stage to end. Queued triggers that were never prepared are dropped
// (counted in the summary line); every prepared row gets its result, a
// cancelled /run as a failed trigger. Safe to call twice.
func (p *Pools) Stop() {
	p.mu.Lock()
	if !p.running {
		p.mu.Unlock()
		return
	}
	p.running = false
	close(p.stopping)
	close(p.rejects)
	p.mu.Unlock()

	timer := time.NewTimer(p.drain)
	defer timer.Stop()
	select {
	case <-p.done:
	case <-timer.C:
		p.log.Warn().Dur("drain_timeout", p.drain).Msg("trigger pools: drain timed out, cancelling remaining triggers")
		p.cancel()
		<-p.done
	}
	p.cancel()
}

// Submit queues a trigger without blocking. When the chosen pool is full it
// returns ErrPoolFull and records a failed log row (asynchronously) so the
// trigger does not vanish — unless it is a planned fire with a misfire
// strategy, which misfires instead (see lane.misfire), or a durable one
// (Request.Pending), whose pending row a sweeper submits again once its
// lease runs out.
func (p *Pools) Submit(req Request) error {
	p.mu.RLock()
	defer p.mu.RUnlock()
	if !p.running {
		return ErrStopped
	}
	l := p.choose(req.JobID)
	if !l.intake.put(req) {
		if req.Misfire != "" {
			// A planned fire the pool has no room for cannot leave on time
			// either: it misfires (counted) instead of becoming a failed
			// row, which the fail monitor would alarm and retry, adding
			// load to an admin that has none to spare.
			l.misfire([]Request{req})
		} else if req.Pending == 0 {
			p.reject(l, req)
		} // a durable trigger stays pending: a sweeper submits it again
		return fmt.Errorf("job %d: %s pool (%d queued): %w", req.JobID, l.name, l.intake.cap, ErrPoolFull)
	}
	return nil
}

// choose is the demotion rule of scheduler.md §4.
func (p *Pools) choose(jobID int) *lane {
	if p.demote.slow(jobID, p.now()) {
		return p.slow
	}
	return p.fast
}

// reject counts a refused trigger and hands it to the rejection recorder;
// called with p.mu read-locked, so p.rejects is open.
func (p *Pools) reject(l *lane, req Request) {
	p.rejected.Add(1)
	reason := fmt.Sprintf("Trigger rejected: the %s trigger pool is full (%d triggers queued); the job was not run.",
		l.name, l.intake.cap)
	select {
	case p.rejects <- rejection{req: req, reason: reason}:
		p.flow.tally.add(countRejected, req.JobID)
	default:
		p.flow.tally.add(countRejectLost, req.JobID)
	}
}

// recordRejections writes the failed rows of refused triggers, as many at
// a time as have queued up.
func (p *Pools) recordRejections() {
	batch := make([]rejection, 0, prepareBatch)
	for first := range p.rejects {
		batch = append(batch[:0], first)
	fill:
		for len(batch) < prepareBatch {
			select {
			case r, ok := <-p.rejects:
				if !ok {
					break fill
				}
				batch = append(batch, r)
			default:
				break fill
			}
		}
		ctx, cancel := context.WithTimeout(context.WithoutCancel(p.ctx), rejectTimeout)
		if err := p.flow.recordRejected(ctx, batch); err != nil {
			p.log.Error().Err(err).Int("count", len(batch)).Msg("rejected triggers not recorded")
		}
		cancel()
	}
}

// summarize writes the summary line of triggers that did not run as
// planned, at most once per summaryEvery, until done is closed.
func (p *Pools) summarize(done <-chan struct{}) {
	tick := time.NewTicker(summaryEvery)
	defer tick.Stop()
	extra := func(ev *zerolog.Event) {
		st := p.Stats()
		ev.Int("fast_queued", st.Fast.Queued).Int("slow_queued", st.Slow.Queued)
	}
	for {
		select {
		case <-tick.C:
			p.flow.tally.flush(p.log, extra)
		case <-done:
			p.flow.tally.flush(p.log, extra)
			return
		}
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

// PoolStats is a snapshot of one pool: triggers queued (accepted and not
// yet fired), the queue's capacity, senders and idle senders.
type PoolStats struct {
	Queued, Capacity, Workers, Idle int
}

// Stats reports queue lengths, workers and rejections, for metrics.
func (p *Pools) Stats() Stats {
	now := p.now()
	routed, stuck := p.demote.stats(now)
	return Stats{Fast: p.fast.stats(), Slow: p.slow.stats(), Rejected: p.rejected.Load(),
		Demoted: p.demote.demoted(now), SlowRouted: routed, Stuck: stuck}
}
