package trigger

import (
	"context"
	"fmt"
	"sync"
	"sync/atomic"
	"time"
)

const (
	// prepareBatch is how many triggers one prepare step takes: its log
	// rows are one INSERT.
	prepareBatch = 500
	// minAhead is how many prepared, unsent rows a pool allows before it
	// has measured its own pace.
	minAhead = 1000
	// maxAhead bounds the prepared, unsent rows of a pool, and so the
	// buffer between its preparers and its senders.
	maxAhead = 1 << 16
	// coreWorkers senders stay when idle; more start as rows queue up and
	// end after keepAlive idle (Java's core 10 threads, scheduler.md §4).
	coreWorkers = 10
	keepAlive   = 60 * time.Second
)

// lane is one trigger pool (fast or slow) as a pipeline: the intake of
// accepted triggers; preparers that turn due triggers into written log
// rows, many per statement, shortly before their time; and senders that
// fire each row when its time comes and hand the result to the recorder.
//
// Preparing runs ahead of sending by at most what the pool fires in its
// busiest second of the last minute (at least minAhead): enough to have a
// whole second's rows written before the second begins, and little enough
// that an overloaded pool leaves the surplus in the intake, where it ages
// into misfires instead of into log rows that could only go out late.
type lane struct {
	name       string
	p          *Pools
	intake     *intake
	preparers  int
	maxSenders int
	ready      chan *firing  // due rows, for the senders
	ahead      atomic.Int64  // prepared rows not yet fired
	freed      chan struct{} // a send when rows were fired (wakes preparers)
	rate       rateWindow
	once       onceWindow // FIRE_ONCE_NOW compensations of the last second

	prepWG sync.WaitGroup // preparers
	held   sync.WaitGroup // rows waiting for their time
	sendWG sync.WaitGroup // senders

	reserving sync.Mutex // budget check and take, together

	mu      sync.Mutex
	workers int
	idle    int
}

func newLane(p *Pools, name string, senders, preparers, queue int) *lane {
	return &lane{name: name, p: p, intake: newIntake(queue), preparers: preparers, maxSenders: senders,
		ready: make(chan *firing, maxAhead), freed: make(chan struct{}, 1)}
}

func (l *lane) start(ctx context.Context, stopping <-chan struct{}) {
	for range l.preparers {
		l.prepWG.Add(1)
		go func() {
			defer l.prepWG.Done()
			l.prepareLoop(ctx, stopping)
		}()
	}
}

// finish waits until the preparers have emptied the intake and every row
// was handed to a sender and fired; the caller has closed stopping.
func (l *lane) finish() {
	l.prepWG.Wait()
	l.held.Wait()
	close(l.ready)
	l.sendWG.Wait()
}

// budget is how many prepared, unsent rows the lane allows now.
func (l *lane) budget() int64 {
	return min(max(l.rate.peak(l.p.now())*5/4, l.p.aheadMin), maxAhead)
}

// prepareLoop takes due triggers from the intake, prepares them and
// releases their rows at their time, until the intake is empty after stop.
func (l *lane) prepareLoop(ctx context.Context, stopping <-chan struct{}) {
	timer := time.NewTimer(time.Hour)
	defer timer.Stop()
	draining := false
	for {
		if ctx.Err() != nil {
			l.p.flow.tally.add(countDropped, jobIDs(l.intake.drain())...)
			return
		}
		now := l.p.now()
		reqs, misfired, next := l.reserve(now)
		l.misfire(misfired)
		if len(reqs) > 0 {
			l.prepare(ctx, reqs)
			continue
		}
		if !draining {
			select {
			case <-stopping:
				draining, stopping = true, nil
			default:
			}
		}
		if draining && l.intake.len() == 0 {
			return
		}
		wait := time.Second // also finds misfires when nothing else happens
		if !next.IsZero() {
			wait = min(wait, max(next.Sub(now)-PrepareLead, time.Millisecond))
		}
		timer.Reset(wait)
		select {
		case <-l.intake.wake:
		case <-l.freed:
		case <-timer.C:
		case <-stopping:
			draining, stopping = true, nil
		case <-ctx.Done():
		}
		if !timer.Stop() {
			select {
			case <-timer.C:
			default:
			}
		}
	}
}

// reserve takes what may be prepared now from the intake and counts it as
// ahead at once, so that concurrent preparers share one budget.
func (l *lane) reserve(now time.Time) (reqs, misfired []Request, next time.Time) {
	l.reserving.Lock()
	defer l.reserving.Unlock()
	room := l.budget() - l.ahead.Load()
	if room <= 0 {
		return nil, nil, time.Time{}
	}
	reqs, misfired, next = l.intake.take(now, now.Add(PrepareLead), int(min(room, prepareBatch)))
	l.ahead.Add(int64(len(reqs)))
	return reqs, misfired, next
}

// misfire applies the misfire strategy to fires that could not leave
// within MisfireAfter of their time (scheduler.md §3.2 case A, applied to
// the pool's backlog): FIRE_ONCE_NOW fires once now, as a misfire
// trigger, however many fires of the job were missed; DO_NOTHING (and any
// other value, as Java's match falls back to it) skips them.
func (l *lane) misfire(reqs []Request) {
	if len(reqs) == 0 {
		return
	}
	var skipped, fired []int
	now := l.p.now()
	for _, r := range reqs {
		if r.Misfire != misfireFireOnceNow || !l.once.allow(r.JobID, now) {
			skipped = append(skipped, r.JobID)
			continue
		}
		if !l.intake.put(Request{JobID: r.JobID, Type: TypeMisfire, FailRetryCount: -1}) {
			skipped = append(skipped, r.JobID) // no room even for the one fire
			continue
		}
		fired = append(fired, r.JobID)
	}
	l.p.flow.tally.add(countMisfireSkipped, skipped...)
	l.p.flow.tally.add(countMisfireFired, fired...)
	for range skipped {
		l.p.flow.observe(TypeCron, ResultMisfired)
	}
}

// misfireFireOnceNow is the strategy that fires a misfired job once.
const misfireFireOnceNow = "FIRE_ONCE_NOW"

// prepare writes the rows of reqs and releases each at its time. A
// database failure loses these triggers (as Java's caught exception does):
// one error line says which.
func (l *lane) prepare(ctx context.Context, reqs []Request) {
	fired, err := l.p.flow.prepare(ctx, reqs)
	// reserve counted one row per request; broadcasts have more, missing
	// jobs none.
	l.ahead.Add(int64(len(fired) - len(reqs)))
	if err != nil {
		if ctx.Err() != nil {
			l.p.flow.tally.add(countDropped, jobIDs(reqs)...)
			return
		}
		ids := jobIDs(reqs)
		l.p.log.Error().Err(err).Str("pool", l.name).Int("count", len(reqs)).Ints("job_ids", ids[:min(len(ids), 10)]).
			Msg("triggers not run: preparing them failed")
		return
	}
	if l.p.prepared != nil {
		l.p.prepared(len(fired))
	}
	now := l.p.now()
	var due []*firing
	later := map[time.Time][]*firing{}
	for _, fr := range fired {
		if fr.at.After(now) {
			later[fr.at] = append(later[fr.at], fr)
		} else {
			due = append(due, fr)
		}
	}
	l.push(due...)
	for at, frs := range later {
		l.held.Add(1)
		time.AfterFunc(at.Sub(now), func() {
			defer l.held.Done()
			l.push(frs...)
		})
	}
}

// push hands rows to the senders, starting senders as needed. ready never
// fills: it holds maxAhead rows and the budget keeps fewer prepared.
func (l *lane) push(frs ...*firing) {
	for _, fr := range frs {
		l.ready <- fr
		if l.needSender() {
			l.sendWG.Add(1)
			go func() {
				defer l.sendWG.Done()
				l.sendLoop()
			}()
		}
	}
}

// tryPush hands a row over from another lane, unless this lane's buffer
// is full.
func (l *lane) tryPush(fr *firing) bool {
	select {
	case l.ready <- fr:
	default:
		return false
	}
	l.ahead.Add(1)
	if l.needSender() {
		l.sendWG.Add(1)
		go func() {
			defer l.sendWG.Done()
			l.sendLoop()
		}()
	}
	return true
}

// needSender reports whether a new sender should start, counting it as
// started when so. Unlike Java's rule, a sender is added as soon as rows
// outnumber idle senders, not only once the queue is full.
func (l *lane) needSender() bool {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.workers >= l.maxSenders || len(l.ready) <= l.idle {
		return false
	}
	l.workers++
	return true
}

// sendLoop fires rows until ready is closed and empty, or until it has
// idled keepAlive while more than coreWorkers senders exist.
func (l *lane) sendLoop() {
	timer := time.NewTimer(keepAlive)
	defer timer.Stop()
	for {
		l.mu.Lock()
		l.idle++
		l.mu.Unlock()
		select {
		case fr, ok := <-l.ready:
			l.mu.Lock()
			l.idle--
			if !ok {
				l.workers--
				l.mu.Unlock()
				return
			}
			l.mu.Unlock()
			l.send(fr)
			timer.Reset(keepAlive)
		case <-timer.C:
			l.mu.Lock()
			l.idle--
			if l.workers > coreWorkers {
				l.workers--
				l.mu.Unlock()
				return
			}
			l.mu.Unlock()
			timer.Reset(keepAlive)
		}
	}
}

// send fires one row, timing it for the demotion rule. A row of a job that
// got stuck since it was prepared moves to the slow pool first. A panic
// still finishes the row, as a failed trigger.
func (l *lane) send(fr *firing) {
	p := l.p
	job := fr.plan.job.ID
	if l == p.fast && p.demote.slow(job, p.now()) && p.slow.tryPush(fr) {
		l.sent()
		return
	}
	start := p.now()
	token := p.demote.begin(job, start)
	var out outcome
	func() {
		defer func() {
			if v := recover(); v != nil {
				p.log.Error().Interface("panic", v).Int("job_id", job).Int64("log_id", fr.logID).Msg("trigger panicked")
				out = p.flow.failed(fr, fmt.Sprintf("Trigger failed: internal error (%v).", v))
			}
		}()
		out = p.flow.fire(p.ctx, fr)
	}()
	end := p.now()
	p.demote.end(job, token, end.Sub(start), end)
	l.rate.add(end)
	l.sent()
	p.rec.put(out)
	if p.ran != nil {
		p.ran(job)
	}
}

// sent notes a row left the lane and wakes a preparer.
func (l *lane) sent() {
	l.ahead.Add(-1)
	select {
	case l.freed <- struct{}{}:
	default:
	}
}

func (l *lane) stats() PoolStats {
	l.mu.Lock()
	defer l.mu.Unlock()
	return PoolStats{Queued: l.intake.len() + len(l.ready), Capacity: l.intake.cap, Workers: l.workers, Idle: l.idle}
}

func jobIDs(reqs []Request) []int {
	out := make([]int, len(reqs))
	for i, r := range reqs {
		out[i] = r.JobID
	}
	return out
}

// rateWindow counts fires per second over the last minute.
type rateWindow struct {
	mu     sync.Mutex
	second [64]int64
	count  [64]int64
}

func (w *rateWindow) add(now time.Time) {
	s := now.Unix()
	w.mu.Lock()
	defer w.mu.Unlock()
	i := s & 63
	if w.second[i] != s {
		w.second[i], w.count[i] = s, 0
	}
	w.count[i]++
}

// peak is the most fires of one second in the last minute.
func (w *rateWindow) peak(now time.Time) int64 {
	s := now.Unix()
	w.mu.Lock()
	defer w.mu.Unlock()
	var best int64
	for i := range w.second {
		if s-w.second[i] <= 60 {
			best = max(best, w.count[i])
		}
	}
	return best
}
