// Package lifecycle gives long-lived components one start/stop shape: Start
// launches the work under a context the component owns, Stop cancels it and
// waits, and calling Stop twice, or before Start, is safe.
package lifecycle

import (
	"context"
	"errors"
	"sync"
	"time"

	"github.com/rs/zerolog"
)

// Component is what the wiring starts in order and stops in reverse.
type Component interface {
	Start(ctx context.Context) error
	Stop()
}

// ErrStarted is returned when Start is called on a running Base.
var ErrStarted = errors.New("already started")

// Base is embedded by components. Run the component's goroutines with Go;
// they must return when their context is cancelled.
type Base struct {
	mu     sync.Mutex
	cancel context.CancelFunc
	wg     sync.WaitGroup
	ctx    context.Context
}

// StartBase prepares the context the component's goroutines run under.
func (b *Base) StartBase(ctx context.Context) (context.Context, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.cancel != nil {
		return nil, ErrStarted
	}
	// Detach from the caller's cancellation: shutdown goes through Stop so
	// it can drain in order, not through whatever context started us.
	b.ctx, b.cancel = context.WithCancel(context.WithoutCancel(ctx))
	return b.ctx, nil
}

// Go runs fn in a goroutine tracked by Stop.
func (b *Base) Go(fn func(ctx context.Context)) {
	b.mu.Lock()
	ctx := b.ctx
	b.mu.Unlock()
	if ctx == nil {
		return
	}
	b.wg.Add(1)
	go func() {
		defer b.wg.Done()
		fn(ctx)
	}()
}

// Stop cancels the goroutines and waits for them to return.
func (b *Base) Stop() {
	b.mu.Lock()
	cancel := b.cancel
	b.cancel = nil
	b.mu.Unlock()
	if cancel != nil {
		cancel()
	}
	b.wg.Wait()
	b.mu.Lock()
	if b.cancel == nil {
		b.ctx = nil
	}
	b.mu.Unlock()
}

// Loop calls run at once and then every interval until ctx ends, giving each
// run at most timeout (river's ticker-with-deadline loop). A run that takes
// longer than the interval delays the next one rather than stacking them.
func Loop(ctx context.Context, interval, timeout time.Duration, run func(ctx context.Context)) {
	t := time.NewTicker(interval)
	defer t.Stop()
	for {
		runCtx, cancel := context.WithTimeout(ctx, timeout)
		run(runCtx)
		cancel()
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
	}
}

// Group starts components in order and stops them in reverse.
type Group struct {
	started []Component
}

// Start starts each component; on failure it stops those already started.
func (g *Group) Start(ctx context.Context, cs ...Component) error {
	for _, c := range cs {
		if err := c.Start(ctx); err != nil {
			g.Stop()
			return err
		}
		g.started = append(g.started, c)
	}
	return nil
}

// Stop stops the started components, last first.
func (g *Group) Stop() {
	for i := len(g.started) - 1; i >= 0; i-- {
		g.started[i].Stop()
	}
	g.started = nil
}

// StartLoop starts a component whose work is one periodic pass: pass runs
// at once and then every interval, each run bounded by timeout, and its
// failures are logged once per outage under what. afterPass, if not nil,
// runs after every pass (tests wait on it).
func (b *Base) StartLoop(ctx context.Context, what string, log zerolog.Logger, interval, timeout time.Duration,
	pass func(ctx context.Context) error, afterPass func()) error {
	if _, err := b.StartBase(ctx); err != nil {
		return err
	}
	b.Go(func(ctx context.Context) {
		outage := Outage{What: what, Log: log}
		Loop(ctx, interval, timeout, func(ctx context.Context) {
			outage.Observe(ctx, pass(ctx))
			if afterPass != nil {
				afterPass()
			}
		})
	})
	return nil
}
