package main

import (
	"context"
	"time"

	"github.com/xxl-admin-go/xxl-admin-go/internal/testsupport/procstat"
)

// Settling: a run starts only once the machine is quiet, so that other
// work on a shared box (a build, a test suite, a helper) does not land in
// one admin's run and not in the other's, and the table shows how busy the
// box was when each run began. The load average, which the table showed
// before, is no measure of that: it counts the JVM's many runnable threads
// of the run before and decays over minutes (it read 14 on an idle box).
const (
	quietBusy    = 0.10             // at most this share of all CPUs busy …
	quietWindow  = 2 * time.Second  // … over a window this long
	settleLimit  = 90 * time.Second // then start anyway, and say so
	settlePeriod = 500 * time.Millisecond
)

// settle waits until the machine is quiet and returns the busy share of
// the last window and how long it waited.
func settle(ctx context.Context) (busy float64, waited time.Duration, err error) {
	start := time.Now()
	for {
		busy, err = busyOver(ctx, quietWindow)
		if err != nil || busy <= quietBusy || time.Since(start) >= settleLimit {
			return busy, time.Since(start), err
		}
		select {
		case <-ctx.Done():
			return busy, time.Since(start), ctx.Err()
		case <-time.After(settlePeriod):
		}
	}
}

// busyOver is the share of CPU time not idle (nor waiting for I/O) over d.
func busyOver(ctx context.Context, d time.Duration) (float64, error) {
	idle0, total0, err := procstat.SystemCPU()
	if err != nil {
		return 0, err
	}
	select {
	case <-ctx.Done():
		return 0, ctx.Err()
	case <-time.After(d):
	}
	idle1, total1, err := procstat.SystemCPU()
	if err != nil {
		return 0, err
	}
	if total1 == total0 {
		return 0, nil
	}
	return 1 - float64(idle1-idle0)/float64(total1-total0), nil
}
