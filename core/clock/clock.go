// Package clock is the one time source of the admin: every component takes
// a Clock (or its Now) from the wiring, so tests can drive whole rounds of
// the scheduler and the monitors without sleeping.
package clock

import (
	"context"
	"time"
)

// Clock is a source of time that can also be slept on.
type Clock interface {
	Now() time.Time
	// SleepUntil returns nil once the clock has reached t (at once when it
	// already has) or ctx.Err() when ctx ends first.
	SleepUntil(ctx context.Context, t time.Time) error
}

// System is the host clock; like Java's System.currentTimeMillis it is
// the wall clock, so several admins compare times written by each other
// (scheduler.md §13).
type System struct{}

// Now returns the current time.
func (System) Now() time.Time { return time.Now() }

// SleepUntil sleeps until t or until ctx ends.
func (System) SleepUntil(ctx context.Context, t time.Time) error {
	d := time.Until(t)
	if d <= 0 {
		return ctx.Err()
	}
	timer := time.NewTimer(d)
	defer timer.Stop()
	select {
	case <-timer.C:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}
