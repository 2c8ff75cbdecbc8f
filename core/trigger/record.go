package trigger

import (
	"context"
	"sync"
	"time"

	"github.com/rs/zerolog"
)

const (
	// recorders write results at the same time, each its own batch.
	recorders = 2
	// recordQueue buffers results between the senders and the recorders;
	// a full buffer makes the senders wait (the database sets the pace).
	recordQueue = 8192
	// retryPause separates a failed batch from its rows' retries.
	retryPause = 100 * time.Millisecond
	// recordLinger is how long a recorder waits for more results before it
	// writes what it has: a second's burst of /run calls then gives a few
	// statements of hundreds of rows, written after the burst, instead of
	// many small ones competing with it for the CPU.
	recordLinger = 50 * time.Millisecond
)

// recorder writes the results of fired triggers in batches: what arrives
// within recordLinger of the first, up to 500 rows.
// A sender does not wait for its row: it goes on to the next trigger. Rows
// of a failed batch are retried one by one, so one bad row cannot keep
// the others at trigger_code 0.
type recorder struct {
	flow *Flow
	log  zerolog.Logger
	in   chan outcome
	wg   sync.WaitGroup
}

func newRecorder(flow *Flow, log zerolog.Logger) *recorder {
	return &recorder{flow: flow, log: log, in: make(chan outcome, recordQueue)}
}

func (r *recorder) start() {
	for range recorders {
		r.wg.Add(1)
		go func() {
			defer r.wg.Done()
			r.loop()
		}()
	}
}

// stop writes what is queued and returns; nothing may be put afterwards.
func (r *recorder) stop() {
	close(r.in)
	r.wg.Wait()
}

func (r *recorder) put(o outcome) { r.in <- o }

func (r *recorder) loop() {
	batch := make([]outcome, 0, prepareBatch)
	linger := time.NewTimer(time.Hour)
	defer linger.Stop()
	for first := range r.in {
		batch = append(batch[:0], first)
		linger.Reset(recordLinger)
	fill:
		for len(batch) < prepareBatch {
			select {
			case o, ok := <-r.in:
				if !ok {
					break fill
				}
				batch = append(batch, o)
			case <-linger.C:
				break fill
			}
		}
		if !linger.Stop() {
			select {
			case <-linger.C:
			default:
			}
		}
		r.write(batch)
	}
}

// write stores one batch within finishTimeout, even during shutdown.
func (r *recorder) write(batch []outcome) {
	ctx, cancel := context.WithTimeout(context.Background(), finishTimeout)
	defer cancel()
	err := r.flow.record(ctx, batch)
	if err == nil {
		return
	}
	r.log.Warn().Err(err).Int("count", len(batch)).Msg("trigger results not written together; retrying one by one")
	t := time.NewTimer(retryPause)
	select {
	case <-t.C:
	case <-ctx.Done():
	}
	var lost []int64
	for _, o := range batch {
		if err = r.flow.record(ctx, []outcome{o}); err != nil {
			lost = append(lost, o.row.ID)
		}
	}
	if len(lost) > 0 {
		r.log.Error().Err(err).Int("count", len(lost)).Ints64("log_ids", lost[:min(len(lost), 10)]).
			Msg("trigger results not written: these rows stay at trigger_code 0")
	}
}
