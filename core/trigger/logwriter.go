package trigger

import (
	"context"
	"sync"
	"sync/atomic"
	"time"

	"github.com/xxl-admin-go/xxl-admin-go/compat/schema"
)

// batchTimeout bounds one batch of log writes; it is detached from the
// callers' contexts because a batch carries several callers' rows.
const batchTimeout = 30 * time.Second

// logWriter writes the trigger flow's log INSERTs and UPDATEs with group
// commit: the writes that arrive while a commit is in flight are committed
// together in the next transaction, one single-row statement each (so
// every INSERT returns its own id; no reliance on consecutive
// auto-increment ids). A lone write pays no wait and no transaction. There
// is no background goroutine: the caller that finds no commit in flight
// leads one batch, then hands the lead to the oldest waiting caller, so no
// caller keeps writing for others indefinitely.
//
// Each caller still waits for its own statement to commit before it goes
// on, so a row exists before its /run is sent, and the rows are the same
// as with one statement per commit.
type logWriter struct {
	store    *schema.Store
	maxBatch int

	mu      sync.Mutex
	pending []*logOp
	leading bool

	statements atomic.Int64
	commits    atomic.Int64
}

type logOp struct {
	row    schema.JobLog
	update bool
	id     int64
	err    error
	// wake receives false when the op is done, true when its caller must
	// lead the next batch.
	wake chan bool
}

func newLogWriter(store *schema.Store, maxBatch int) *logWriter {
	return &logWriter{store: store, maxBatch: maxBatch}
}

func (w *logWriter) stats() (statements, commits int64) {
	return w.statements.Load(), w.commits.Load()
}

// insert saves a new log row and returns its id.
func (w *logWriter) insert(ctx context.Context, row schema.JobLog) (int64, error) {
	op := &logOp{row: row}
	w.do(ctx, op)
	return op.id, op.err
}

// update writes a row's trigger info.
func (w *logWriter) update(ctx context.Context, row schema.JobLog) error {
	op := &logOp{row: row, update: true}
	w.do(ctx, op)
	return op.err
}

func (w *logWriter) do(ctx context.Context, op *logOp) {
	if err := ctx.Err(); err != nil {
		op.err = err
		return
	}
	if w.maxBatch <= 1 {
		w.commits.Add(1)
		w.run(ctx, w.store, op)
		return
	}
	op.wake = make(chan bool, 1)
	w.mu.Lock()
	w.pending = append(w.pending, op)
	lead := !w.leading
	w.leading = true
	w.mu.Unlock()
	if !lead {
		lead = <-op.wake
	}
	if lead {
		w.lead()
		<-op.wake // our own op was in the batch we just wrote
	}
}

// lead writes one batch (which holds the leader's own op), then passes the
// lead on to the oldest waiting op or gives it up.
func (w *logWriter) lead() {
	w.mu.Lock()
	n := min(len(w.pending), w.maxBatch)
	batch := w.pending[:n:n]
	w.pending = w.pending[n:]
	w.mu.Unlock()

	w.flush(batch)

	w.mu.Lock()
	if len(w.pending) == 0 {
		w.leading = false
	} else {
		w.pending[0].wake <- true
	}
	w.mu.Unlock()
	for _, op := range batch {
		op.wake <- false
	}
}

// flush writes a batch in one transaction. If it fails, every op is retried
// on its own so one bad row cannot fail the others.
func (w *logWriter) flush(batch []*logOp) {
	ctx, cancel := context.WithTimeout(context.Background(), batchTimeout)
	defer cancel()
	if len(batch) == 1 {
		w.commits.Add(1)
		w.run(ctx, w.store, batch[0])
		return
	}
	err := w.store.WithTx(ctx, func(tx *schema.Store) error {
		for _, op := range batch {
			if w.run(ctx, tx, op); op.err != nil {
				return op.err
			}
		}
		return nil
	})
	if err == nil {
		w.commits.Add(1)
		return
	}
	for _, op := range batch {
		op.id, op.err = 0, nil
		w.commits.Add(1)
		w.run(ctx, w.store, op)
	}
}

func (w *logWriter) run(ctx context.Context, s *schema.Store, op *logOp) {
	w.statements.Add(1)
	if op.update {
		op.err = s.LogUpdateTriggerInfo(ctx, op.row)
		return
	}
	op.id, op.err = s.LogSave(ctx, op.row)
}
