package thread

import (
	"context"
	"sync"
	"time"

	"github.com/rs/zerolog"

	"github.com/xxl-admin-go/xxl-admin-go/core/lifecycle"
)

// refresher rebuilds the address lists of apps whose registrations
// changed, in the background, merging requests: every request made before
// a rebuild of its app starts is served by that rebuild. 5,000 executors
// registering under one app at once cost a few rebuilds, not 5,000 (each
// reading the whole app: that grew with the square of the app's size and
// slowed callbacks meanwhile).
type refresher struct {
	lifecycle.Base
	rebuild func(ctx context.Context, app string) error
	log     zerolog.Logger

	mu      sync.Mutex
	running bool
	apps    map[string]*appRefresh
	kick    chan struct{}
	// rebuilt, when set (tests), sees each rebuild before it starts.
	rebuilt func(app string)
}

type appRefresh struct {
	dirty bool
	next  chan struct{} // closed when the next rebuild to start has ended
}

func newRefresher(rebuild func(ctx context.Context, app string) error, log zerolog.Logger) *refresher {
	return &refresher{rebuild: rebuild, log: log, apps: map[string]*appRefresh{}, kick: make(chan struct{}, 1)}
}

// Start runs the worker.
func (f *refresher) Start(ctx context.Context) error {
	if _, err := f.StartBase(ctx); err != nil {
		return err
	}
	f.mu.Lock()
	f.running = true
	f.mu.Unlock()
	f.Go(f.work)
	return nil
}

// request asks for a rebuild of app and returns a channel closed once a
// rebuild that started after this call has ended; ok is false when the
// worker is not running (the caller rebuilds itself).
func (f *refresher) request(app string) (done <-chan struct{}, ok bool) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if !f.running {
		return nil, false
	}
	a := f.apps[app]
	if a == nil {
		a = &appRefresh{next: make(chan struct{})}
		f.apps[app] = a
	}
	a.dirty = true
	select {
	case f.kick <- struct{}{}:
	default:
	}
	return a.next, true
}

func (f *refresher) work(ctx context.Context) {
	defer f.shutdown()
	for {
		select {
		case <-ctx.Done():
			return
		case <-f.kick:
		}
		for app, done := f.take(); done != nil; app, done = f.take() {
			if f.rebuilt != nil {
				f.rebuilt(app)
			}
			rctx, cancel := context.WithTimeout(ctx, refreshTimeout)
			if err := f.rebuild(rctx, app); err != nil && ctx.Err() == nil {
				f.log.Warn().Err(err).Str("appname", app).Msg("refresh group address list after registration")
			}
			cancel()
			close(done)
			if ctx.Err() != nil {
				return
			}
		}
	}
}

// refreshTimeout bounds one rebuild.
const refreshTimeout = 10 * time.Second

// take picks a dirty app, marks it clean and hands over the channel its
// waiters hold; requests from now on wait for the rebuild after this one.
func (f *refresher) take() (string, chan struct{}) {
	f.mu.Lock()
	defer f.mu.Unlock()
	for app, a := range f.apps {
		if !a.dirty {
			delete(f.apps, app)
			continue
		}
		done := a.next
		a.dirty, a.next = false, make(chan struct{})
		return app, done
	}
	return "", nil
}

// shutdown releases every waiter and sends later requests back to their
// callers.
func (f *refresher) shutdown() {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.running = false
	for app, a := range f.apps {
		close(a.next)
		delete(f.apps, app)
	}
}
