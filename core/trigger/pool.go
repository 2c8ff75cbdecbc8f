package trigger

import (
	"sync"
	"time"
)

// pool is one bounded queue with workers that grow on demand from zero up
// to max and shrink back to core after keepAlive idle (Java's
// ThreadPoolExecutor with core 10, scheduler.md §4). Unlike Java, a worker
// is added as soon as queued triggers outnumber idle workers, not only once
// the queue is full: Java's rule lets a burst queue up behind 10 threads.
type pool struct {
	name      string
	queue     chan Request
	core, max int
	keepAlive time.Duration

	mu      sync.Mutex
	workers int
	idle    int
}

// needWorker reports whether a new worker should start, counting it as
// started when so.
func (p *pool) needWorker() bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.workers >= p.max || len(p.queue) <= p.idle {
		return false
	}
	p.workers++
	return true
}

// PoolStats is a snapshot of one pool.
type PoolStats struct {
	Queued, Capacity, Workers, Idle int
}

func (p *pool) stats() PoolStats {
	p.mu.Lock()
	defer p.mu.Unlock()
	return PoolStats{Queued: len(p.queue), Capacity: cap(p.queue), Workers: p.workers, Idle: p.idle}
}

// work runs queued triggers until the queue is closed and empty, or until it
// has idled keepAlive while more than core workers exist.
func (p *pool) work(run func(Request)) {
	timer := time.NewTimer(p.keepAlive)
	defer timer.Stop()
	for {
		p.mu.Lock()
		p.idle++
		p.mu.Unlock()
		select {
		case req, ok := <-p.queue:
			p.mu.Lock()
			p.idle--
			if !ok {
				p.workers--
				p.mu.Unlock()
				return
			}
			p.mu.Unlock()
			run(req)
			timer.Reset(p.keepAlive)
		case <-timer.C:
			p.mu.Lock()
			p.idle--
			if p.workers > p.core {
				p.workers--
				p.mu.Unlock()
				return
			}
			p.mu.Unlock()
			timer.Reset(p.keepAlive)
		}
	}
}
