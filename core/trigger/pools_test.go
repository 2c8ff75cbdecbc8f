package trigger

import (
	"context"
	"errors"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/rs/zerolog"

	"github.com/xxl-admin-go/xxl-admin-go/compat/schema"
)

// fakeClock is an injected admin clock.
type fakeClock struct {
	mu  sync.Mutex
	now time.Time
}

func (c *fakeClock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.now
}

func (c *fakeClock) Advance(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.now = c.now.Add(d)
}

// funcRunner adapts a function to Runner.
type funcRunner func(ctx context.Context, req Request) error

func (f funcRunner) Trigger(ctx context.Context, req Request) error { return f(ctx, req) }

func startPools(t *testing.T, cfg PoolConfig, r Runner) *Pools {
	t.Helper()
	cfg.Log = zerolog.Nop()
	p := NewPools(cfg, r)
	if err := p.Start(context.Background()); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(p.Stop)
	return p
}

// TestPoolsDemotion: a job whose triggers took > 500 ms more than 10 times
// in the current minute goes to the slow pool until the minute ends
// (scheduler.md §4).
func TestPoolsDemotion(t *testing.T) {
	clock := &fakeClock{now: time.UnixMilli(60_000 * 29_000_000)} // a minute boundary
	done := make(chan struct{})
	cost := 600 * time.Millisecond
	p := NewPools(PoolConfig{Now: clock.Now, Log: zerolog.Nop()}, funcRunner(func(_ context.Context, req Request) error {
		clock.Advance(cost)
		return nil
	}))
	p.ran = func(Request) { done <- struct{}{} } // after the run was timed
	if err := p.Start(context.Background()); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(p.Stop)
	trigger := func() {
		t.Helper()
		if err := p.Submit(Request{JobID: 7, Type: TypeCron}); err != nil {
			t.Fatal(err)
		}
		<-done
	}
	for i := 1; i <= 10; i++ {
		trigger()
	}
	if p.choose(7) != p.fast {
		t.Fatal("job demoted after 10 slow triggers; the rule is more than 10")
	}
	trigger() // the 11th slow trigger
	if p.choose(7) != p.slow || p.Stats().Demoted != 1 {
		t.Fatalf("job not demoted after 11 slow triggers: %+v", p.Stats())
	}
	if p.choose(8) != p.fast {
		t.Error("another job was demoted too")
	}
	trigger() // runs in the slow pool
	if st := p.Stats(); st.Slow.Workers != 1 {
		t.Errorf("slow pool has %d workers after a demoted trigger, want 1", st.Slow.Workers)
	}
	clock.Advance(time.Minute)
	if p.choose(7) != p.fast {
		t.Error("demotion outlived its minute")
	}
	// Fast triggers never count.
	cost = 100 * time.Millisecond
	for i := 0; i < 12; i++ {
		trigger()
	}
	if p.choose(7) != p.fast {
		t.Error("fast triggers demoted the job")
	}
}

// blockingFlow is a real Flow whose triggers wait for release; it signals
// each started trigger and each recorded rejection.
type blockingFlow struct {
	*Flow
	release  chan struct{}
	started  chan int
	ran      atomic.Int32
	recorded chan error
}

func (b *blockingFlow) Trigger(ctx context.Context, req Request) error {
	b.started <- req.JobID
	<-b.release
	b.ran.Add(1)
	return nil
}

func (b *blockingFlow) RecordRejected(ctx context.Context, req Request, reason string) error {
	err := b.Flow.RecordRejected(ctx, req, reason)
	b.recorded <- err
	return err
}

// TestPoolsFull: a full queue refuses without blocking, returns ErrPoolFull
// and writes a failed log row naming the pool (scheduler.md §4 overflow,
// recorded instead of lost); the accepted triggers still run.
func TestPoolsFull(t *testing.T) {
	forEachBackend(t, func(t *testing.T, s *schema.Store) {
		flow, _ := newTestFlow(t, s, flowOpts{lang: "en"})
		job := seedJob(t, s, jobSpec{retry: 3})
		bf := &blockingFlow{Flow: flow, release: make(chan struct{}), started: make(chan int, 10), recorded: make(chan error, 10)}
		p := startPools(t, PoolConfig{FastMax: 1, QueueSize: 2}, bf)
		req := Request{JobID: job.ID, Type: TypeCron, FailRetryCount: -1}
		if err := p.Submit(req); err != nil {
			t.Fatal(err)
		}
		<-bf.started // the only worker is busy now
		for i := 0; i < 2; i++ {
			if err := p.Submit(req); err != nil {
				t.Fatalf("submit %d into a free queue slot: %v", i, err)
			}
		}
		err := p.Submit(req)
		if !errors.Is(err, ErrPoolFull) {
			t.Fatalf("Submit into a full queue = %v, want ErrPoolFull", err)
		}
		if err := <-bf.recorded; err != nil {
			t.Fatalf("recording the rejection: %v", err)
		}
		rows := logsOf(t, s, job.ID)
		if len(rows) != 1 {
			t.Fatalf("got %d log rows, want the one rejection row", len(rows))
		}
		msg := str(rows[0].TriggerMsg)
		if rows[0].TriggerCode != 500 || rows[0].ExecutorFailRetryCount != 3 ||
			!strings.HasSuffix(msg, "</span><br>Trigger rejected: the fast trigger pool is full (2 triggers queued); the job was not run.<br><br>") {
			t.Errorf("rejection row: code %d retry %d msg %s", rows[0].TriggerCode, rows[0].ExecutorFailRetryCount, msg)
		}
		if st := p.Stats(); st.Rejected != 1 || st.Fast.Queued != 2 {
			t.Errorf("stats %+v", st)
		}
		close(bf.release)
		p.Stop()
		if n := bf.ran.Load(); n != 3 {
			t.Errorf("%d accepted triggers ran, want 3", n)
		}
	})
}

// TestPoolsStopDrains: Stop runs every queued trigger before returning and
// refuses new ones afterwards.
func TestPoolsStopDrains(t *testing.T) {
	var ran atomic.Int32
	gate := make(chan struct{})
	p := startPools(t, PoolConfig{FastMax: 4}, funcRunner(func(context.Context, Request) error {
		<-gate
		ran.Add(1)
		return nil
	}))
	for i := 0; i < 100; i++ {
		if err := p.Submit(Request{JobID: i, Type: TypeCron}); err != nil {
			t.Fatal(err)
		}
	}
	if w := p.Stats().Fast.Workers; w < 1 || w > 4 {
		t.Errorf("%d workers, want 1..4", w)
	}
	close(gate)
	p.Stop()
	if n := ran.Load(); n != 100 {
		t.Errorf("%d of 100 queued triggers ran before Stop returned", n)
	}
	if err := p.Submit(Request{JobID: 1}); !errors.Is(err, ErrStopped) {
		t.Errorf("Submit after Stop = %v, want ErrStopped", err)
	}
}

// TestPoolsStopDeadline: triggers still running at the drain deadline get
// a cancelled context, and queued ones are dropped (and logged).
func TestPoolsStopDeadline(t *testing.T) {
	var ran, cancelled atomic.Int32
	started := make(chan struct{}, 1)
	p := startPools(t, PoolConfig{FastMax: 1, DrainTimeout: 20 * time.Millisecond}, funcRunner(func(ctx context.Context, _ Request) error {
		ran.Add(1)
		started <- struct{}{}
		<-ctx.Done()
		cancelled.Add(1)
		return ctx.Err()
	}))
	for i := 0; i < 5; i++ {
		if err := p.Submit(Request{JobID: i}); err != nil {
			t.Fatal(err)
		}
	}
	<-started
	p.Stop()
	if ran.Load() != 1 || cancelled.Load() != 1 {
		t.Errorf("ran %d cancelled %d, want 1 and 1 (the queued 4 dropped)", ran.Load(), cancelled.Load())
	}
}

// TestPoolsSurvivePanic: a trigger that panics is logged and swallowed like
// Java's caught exceptions (scheduler.md §4); the worker keeps serving.
func TestPoolsSurvivePanic(t *testing.T) {
	done := make(chan int, 2)
	p := startPools(t, PoolConfig{FastMax: 1}, funcRunner(func(_ context.Context, req Request) error {
		if req.JobID == 1 {
			panic("boom")
		}
		done <- req.JobID
		return nil
	}))
	for _, id := range []int{1, 2} {
		if err := p.Submit(Request{JobID: id}); err != nil {
			t.Fatal(err)
		}
	}
	if got := <-done; got != 2 {
		t.Errorf("ran job %d after the panic, want 2", got)
	}
}
