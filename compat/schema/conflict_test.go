package schema

import (
	"context"
	"errors"
	"testing"
	"time"
)

// TestIsDuplicate: a second insert of a report day is a duplicate on every
// backend (i_trigger_day is unique), other errors are not.
func TestIsDuplicate(t *testing.T) {
	forEachPrepared(t, func(t *testing.T, s *Store) {
		ctx := context.Background()
		day := time.Date(2026, 11, 23, 0, 0, 0, 0, s.Location())
		mustNoErr(t, s.ReportSave(ctx, LogReport{TriggerDay: &day}))
		err := s.ReportSave(ctx, LogReport{TriggerDay: &day})
		if !IsDuplicate(err) {
			t.Errorf("second insert of a day: %v, want a duplicate", err)
		}
		if IsDuplicate(errors.New("boom")) || IsDuplicate(nil) {
			t.Error("other errors are not duplicates")
		}
	})
}
