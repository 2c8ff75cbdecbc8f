package trigger

import (
	"context"

	"github.com/xxl-admin-go/xxl-admin-go/compat/schema"
)

// logWriter writes the trigger flow's log INSERTs and UPDATEs through the
// store's group commit: writes arriving while a commit is in flight share
// the next transaction, one single-row statement each (so every INSERT
// returns its own id; no reliance on consecutive auto-increment ids). Each
// caller still waits for its own statement to commit, so a row exists
// before its /run is sent, and the rows are the same as with one statement
// per commit.
type logWriter struct {
	gc *schema.GroupCommit
}

func newLogWriter(store *schema.Store, maxBatch int) *logWriter {
	return &logWriter{gc: store.NewGroupCommit(maxBatch)}
}

func (w *logWriter) stats() (statements, commits int64) { return w.gc.Stats() }

// insert saves a new log row and returns its id.
func (w *logWriter) insert(ctx context.Context, row schema.JobLog) (int64, error) {
	var id int64
	err := w.gc.Do(ctx, func(ctx context.Context, tx *schema.Store) (err error) {
		id, err = tx.LogSave(ctx, row)
		return err
	})
	return id, err
}

// update writes a row's trigger info.
func (w *logWriter) update(ctx context.Context, row schema.JobLog) error {
	return w.gc.Do(ctx, func(ctx context.Context, tx *schema.Store) error {
		return tx.LogUpdateTriggerInfo(ctx, row)
	})
}
