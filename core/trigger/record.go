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
	// outageHold is how long a recorder keeps retrying the results of rows
	// it could not write while the database is unreachable: an outage
	// shorter than this loses no trigger result (the rows would otherwise
	// stay at trigger_code 0, "running" for ever). Results behind the ones
	// being retried wait in the queue, and senders wait when it is full.
	outageHold = 10 * time.Minute
	// outageBackoff is the longest pause between two retries in an outage.
	outageBackoff = 2 * time.Second
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
	flow     *Flow
	log      zerolog.Logger
	in       chan outcome
	wg       sync.WaitGroup
	stopping chan struct{} // closed when stop begins: outage retries end within finishTimeout
}

func newRecorder(flow *Flow, log zerolog.Logger) *recorder {
	return &recorder{flow: flow, log: log, in: make(chan outcome, recordQueue), stopping: make(chan struct{})}
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
	close(r.stopping)
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
	var left []outcome
	for _, o := range batch {
		if err = r.flow.record(ctx, []outcome{o}); err != nil {
			left = append(left, o)
		}
	}
	if len(left) > 0 && !r.reachable() {
		left, err = r.outlast(left)
	}
	if len(left) > 0 {
		lost := make([]int64, 0, min(len(left), 10))
		for _, o := range left[:min(len(left), 10)] {
			lost = append(lost, o.row.ID)
		}
		r.log.Error().Err(err).Int("count", len(left)).Ints64("log_ids", lost).
			Msg("trigger results not written: these rows stay at trigger_code 0")
	}
}

// outlast retries rows whose results could not be written because the
// database is unreachable, with growing pauses, until they are written,
// outageHold has passed, or the pools stop (then within finishTimeout). It
// returns the rows still not written.
func (r *recorder) outlast(left []outcome) ([]outcome, error) {
	r.log.Warn().Int("count", len(left)).Msg("database unreachable: holding trigger results until it is back")
	give := time.NewTimer(outageHold)
	defer give.Stop()
	stopping := r.stopping
	pause := retryPause
	var err error
	for {
		t := time.NewTimer(pause)
		select {
		case <-t.C:
		case <-give.C:
			t.Stop()
			return left, err
		case <-stopping:
			t.Stop()
			give.Reset(finishTimeout)
			stopping = nil
			continue
		}
		pause = min(2*pause, outageBackoff)
		ctx, cancel := context.WithTimeout(context.Background(), finishTimeout)
		err = r.flow.record(ctx, left)
		cancel()
		if err == nil {
			r.log.Info().Int("count", len(left)).Msg("database back: held trigger results written")
			return nil, nil
		}
		if r.reachable() { // back, but these rows fail for a reason of their own
			return left, err
		}
	}
}

// reachable reports whether the database answers a ping.
func (r *recorder) reachable() bool {
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
	defer cancel()
	return r.flow.store.Ping(ctx) == nil
}
