package main

import (
	"context"
	"time"

	"github.com/xxl-admin-go/xxl-admin-go/internal/testsupport/procstat"
)

// quietWindow and quietBusy: a rung starts once the box was at most
// quietBusy busy over quietWindow (or after the -settle limit), so that
// other work on a shared machine stays out of it as far as it can.
const (
	quietWindow = 2 * time.Second
	quietBusy   = 0.30
)

// settle waits for a quiet window and returns how busy the box was over
// the last one.
func settle(ctx context.Context, limit time.Duration) (float64, error) {
	began := time.Now()
	for {
		idle0, total0, err := procstat.SystemCPU()
		if err != nil {
			return 0, err
		}
		if !sleepUntil(ctx, time.Now().Add(quietWindow)) {
			return 0, ctx.Err()
		}
		idle1, total1, err := procstat.SystemCPU()
		if err != nil {
			return 0, err
		}
		busy := 0.0
		if total1 > total0 {
			busy = 1 - float64(idle1-idle0)/float64(total1-total0)
		}
		if busy <= quietBusy || time.Since(began) >= limit {
			return busy, nil
		}
	}
}
