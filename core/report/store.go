package report

import (
	"context"
	"time"

	"github.com/xxl-admin-go/xxl-admin-go/compat/schema"
)

// Store is the part of *schema.Store the reporter uses; tests wrap the real
// store with it to inject faults.
type Store interface {
	LogDayTally(ctx context.Context, from, to time.Time, below int64) (schema.DayTally, error)
	LogNextID(ctx context.Context) (int64, error)
	LogStatesFrom(ctx context.Context, from, below int64, size int) ([]schema.LogState, error)
	LogStatesByID(ctx context.Context, ids []int64) ([]schema.LogState, error)
	ReportUpdate(ctx context.Context, r schema.LogReport) (int64, error)
	ReportSave(ctx context.Context, r schema.LogReport) error
	LogClearBound(ctx context.Context, before time.Time) (int64, bool, error)
	LogFindClearIDsAfter(ctx context.Context, after, bound int64, before time.Time, size int) ([]int64, error)
	LogClear(ctx context.Context, ids []int64) (int64, error)
}

var _ Store = (*schema.Store)(nil)
