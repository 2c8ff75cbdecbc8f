package workflow

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/rs/zerolog"

	"github.com/xxl-admin-go/xxl-admin-go/compat/schema"
	"github.com/xxl-admin-go/xxl-admin-go/internal/testsupport/storetest"
)

// TestVarsOfFailsOnAFailedRead: a node is decided only when the read of
// its run's workflow (for ${run.time}'s zone) worked or found the
// workflow deleted; any other failure fails the step. On MariaDB a failed
// read can be a transaction the server has already rolled back (on Galera
// aborted by a write committed through another node), and a step that
// went on would commit the rest of its statements one by one, on their
// own — issue 28: a node triggered after a parent whose end was lost.
func TestVarsOfFailsOnAFailedRead(t *testing.T) {
	t.Parallel()
	storetest.ForEach(t, func(t *testing.T, s *schema.Store) {
		ctx := context.Background()
		if _, err := s.EnsureWorkflowTables(ctx); err != nil {
			t.Fatal(err)
		}
		e := New(Config{Store: s, Loc: time.UTC, Log: zerolog.Nop()})
		run := schema.WorkflowRun{ID: 7, WorkflowID: 987654, ScheduleTime: time.UnixMilli(1_700_000_000_000)}
		// Deleted: the default zone, as before.
		v, err := e.varsOf(ctx, s, run)
		if err != nil || v.RunID != 7 || v.Time.Location() != time.UTC {
			t.Fatalf("deleted workflow: vars %+v, error %v; want run 7 in UTC", v, err)
		}
		// The read fails inside the step's transaction: the step fails.
		failed, cancel := context.WithCancel(ctx)
		cancel()
		err = s.WithTx(ctx, func(tx *schema.Store) error {
			_, err := e.varsOf(failed, tx, run)
			return err
		})
		if !errors.Is(err, context.Canceled) {
			t.Fatalf("failed read of the workflow: error %v, want it reported (context.Canceled)", err)
		}
	})
}
