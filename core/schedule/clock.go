package schedule

import (
	"context"
	"time"
)

// Clock is the time source of the loop and the ring, injectable so tests
// can drive whole rounds without sleeping.
type Clock interface {
	Now() time.Time
	// SleepUntil returns nil once the clock has reached t (at once when it
	// already has) or ctx.Err() when ctx ends first.
	SleepUntil(ctx context.Context, t time.Time) error
}

// SystemClock is the host clock; like Java's System.currentTimeMillis it is
// the wall clock, so several admins compare times written by each other
// (scheduler.md §13).
type SystemClock struct{}

// Now returns the current time.
func (SystemClock) Now() time.Time { return time.Now() }

// SleepUntil sleeps until t or until ctx ends.
func (SystemClock) SleepUntil(ctx context.Context, t time.Time) error {
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

// wakeAfter is the Java pacing "sleep period - now%1000": the whole-second
// boundary at or after now+period-1s, so sleeps end on a second edge.
func wakeAfter(now time.Time, period time.Duration) time.Time {
	ms := now.UnixMilli()
	return time.UnixMilli(ms + period.Milliseconds() - floorMod(ms, 1000))
}

func floorMod(a, b int64) int64 {
	m := a % b
	if m < 0 {
		m += b
	}
	return m
}
