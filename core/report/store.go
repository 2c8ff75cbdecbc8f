package report

import (
	"context"
	"time"

	"github.com/xxl-admin-go/xxl-admin-go/compat/schema"
)

// Store is the part of *schema.Store the reporter uses; tests wrap the real
// store with it to inject faults.
type Store interface {
	LogCountsBetween(ctx context.Context, from, to time.Time) (schema.LogCounts, error)
	ReportUpdate(ctx context.Context, r schema.LogReport) (int64, error)
	ReportSave(ctx context.Context, r schema.LogReport) error
	LogFindClearIDs(ctx context.Context, f schema.ClearFilter, size int) ([]int64, error)
	LogClear(ctx context.Context, ids []int64) (int64, error)
}

var _ Store = (*schema.Store)(nil)
