package jobs

import (
	"context"
	"errors"
	"fmt"
	"testing"

	"github.com/xxl-admin-go/xxl-admin-go/compat/schema"
)

// TestRetryConflicts: a write that loses a conflict (Galera certification,
// issue 14) is run again up to the limit; other errors are not retried.
func TestRetryConflicts(t *testing.T) {
	conflict := fmt.Errorf("round: %w", schema.ErrScheduleConflict)
	other := errors.New("boom")
	for _, tc := range []struct {
		name  string
		fails []error
		want  error
		calls int
	}{
		{"success", nil, nil, 1},
		{"one conflict then success", []error{conflict}, nil, 2},
		{"conflicts up to the limit", []error{conflict, conflict, conflict, conflict}, conflict, lockAttempts},
		{"other errors are final", []error{other}, other, 1},
	} {
		calls, again := 0, 0
		err := retryConflicts(context.Background(), lockAttempts, func() error {
			calls++
			if calls <= len(tc.fails) {
				return tc.fails[calls-1]
			}
			return nil
		}, func(int) { again++ })
		if !errors.Is(err, tc.want) || (tc.want == nil && err != nil) || calls != tc.calls || again != calls-1 {
			t.Errorf("%s: err %v calls %d again %d, want %v %d", tc.name, err, calls, again, tc.want, tc.calls)
		}
	}
}
