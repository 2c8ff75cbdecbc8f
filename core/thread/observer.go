package thread

import (
	"context"
	"time"
)

// Callback item results as metrics count them.
const (
	CallbackFinished = "finished" // the result was stored
	CallbackRepeated = "repeated" // the log already had a result
	CallbackUnknown  = "unknown"  // no such log
	CallbackFailed   = "failed"   // not stored (database); the executor retries
)

// CallbackObserver sees the items of each /api/callback POST (metrics).
type CallbackObserver interface {
	CallbackItems(result string, n int)
}

// GroupExecutors is one automatic group's count of live executors.
type GroupExecutors struct {
	GroupID   int
	AppName   string
	Executors int
}

// RegistryObserver sees the live executors of every automatic group after
// each monitor pass (metrics).
type RegistryObserver interface {
	Executors(groups []GroupExecutors)
}

// MonitorObserver sees how long each pass of a monitor took (metrics): the
// database cost of background work, which should follow the rows that
// change rather than the size of xxl_job_log (issue 27).
type MonitorObserver interface {
	MonitorPass(monitor string, took time.Duration)
}

// timed wraps a pass so that obs sees its duration (obs may be nil).
func timed(obs MonitorObserver, monitor string, pass func(context.Context) error) func(context.Context) error {
	if obs == nil {
		return pass
	}
	return func(ctx context.Context) error {
		start := time.Now()
		err := pass(ctx)
		obs.MonitorPass(monitor, time.Since(start))
		return err
	}
}
