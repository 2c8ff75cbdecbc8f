package report

import (
	"context"
	"fmt"
	"time"

	"github.com/xxl-admin-go/xxl-admin-go/compat/schema"
)

// reportDays is how many days, today included, each refresh recomputes:
// callbacks can still finish logs of the previous two days.
const reportDays = 3

// RefreshNow recomputes the report rows of today and the two days before
// from xxl_job_log (scheduler.md §11, schema.md §4.3 findLogReport, §4.5),
// through the tally: from the rows that changed since the last refresh,
// and whole every recountEvery.
func (r *Reporter) RefreshNow(ctx context.Context) error {
	r.tallyMu.Lock()
	defer r.tallyMu.Unlock()
	now := r.now()
	var froms, tos [reportDays]time.Time
	for i := range reportDays {
		froms[i], tos[i] = dayRange(now, r.loc, i)
	}
	if err := r.tally.update(ctx, r.store, now, froms, tos); err != nil {
		return fmt.Errorf("refresh log report: %w", err)
	}
	for i := range reportDays {
		from := froms[i]
		c := r.tally.counts(i)
		row := schema.LogReport{
			TriggerDay:   &from,
			RunningCount: c.Running,
			SucCount:     c.Success,
			FailCount:    c.Total - c.Running - c.Success,
		}
		// The store reports matched rows, so an unchanged day counts as
		// found and is not inserted twice (schema.md §3).
		n, err := r.store.ReportUpdate(ctx, row)
		if err != nil {
			return fmt.Errorf("refresh log report: %w", err)
		}
		if n == 0 {
			err := r.store.ReportSave(ctx, row)
			if schema.IsDuplicate(err) {
				// Another admin inserted the day between our update and our
				// insert (both refresh every minute): update its row instead.
				_, err = r.store.ReportUpdate(ctx, row)
			}
			if err != nil {
				return fmt.Errorf("refresh log report: %w", err)
			}
		}
	}
	return nil
}
