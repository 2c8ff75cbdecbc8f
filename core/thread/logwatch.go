package thread

import (
	"cmp"
	"context"
	"maps"
	"slices"
	"time"

	"github.com/xxl-admin-go/xxl-admin-go/compat/schema"
)

// watchStore is the part of the store a logWatch reads.
type watchStore interface {
	LogStatesFrom(ctx context.Context, from, below int64, size int) ([]schema.LogState, error)
	LogStatesByID(ctx context.Context, ids []int64) ([]schema.LogState, error)
	LogUnsettledStates(ctx context.Context) ([]schema.LogState, error)
	LogFirstIDSince(ctx context.Context, t time.Time) (int64, error)
}

// logWatch tells the fail monitor which xxl_job_log rows may need it, at a
// cost that follows the rows that change rather than the table (issue 27):
// Java's findFailJobLogIds reads the whole table every 10 s once every
// failure is alarmed.
//
// It keeps, in memory and per process, a watermark (tail): rows at or above
// it are read each pass by a primary-key range; and the set of rows below it
// that were still open when last read (running, not yet triggered, failed and
// not alarmed, or held in a transient alarm state), each read again by its
// key every pass until it settles. A settled row (a success, or a failure
// whose alarm_status is 1, 2 or 3) cannot need the monitor again through any
// admin's writes: callbacks only finish open rows, claims only move failed
// rows up from 0. What a person or a console kill does to a settled row below
// the watermark is found by the sweep, which walks the rows below it a slice
// per pass (one full lap takes rows / sweepRows passes). Nothing is stored:
// a restarted admin rebuilds the set from LogUnsettledStates (the rows that
// did not succeed, through I_handle_code).
type logWatch struct {
	store watchStore
	now   func() time.Time
	// lag keeps the newest rows in the tail: an insert whose transaction
	// commits after a later id's is read before the watermark passes it.
	lag time.Duration
	// stale is when a row never triggered (trigger and handle code 0, an
	// admin died between its insert and its trigger info) stops being open.
	stale     time.Duration
	tailRows  int // rows per tail read
	tailReads int // tail reads per pass at most (500,000 rows; at 2,000 triggers/s a pass reads about 80,000: 10 s of new rows and the 30 s lag)
	sweepRows int

	seeded bool
	tail   int64
	sweep  int64
	open   map[int64]struct{}
}

func newLogWatch(store watchStore, now func() time.Time, sweepRows int) *logWatch {
	if sweepRows <= 0 {
		sweepRows = 10000
	}
	return &logWatch{store: store, now: now, lag: 30 * time.Second, stale: 24 * time.Hour,
		tailRows: 5000, tailReads: 100, sweepRows: sweepRows, open: map[int64]struct{}{}}
}

// settled reports whether a row can no longer need the fail monitor.
func (w *logWatch) settled(l schema.LogState, now time.Time) bool {
	if l.HandleCode == 200 {
		return true
	}
	if l.Failed() {
		return l.AlarmStatus > 0
	}
	never := l.TriggerCode == 0 && l.HandleCode == 0
	return never && l.TriggerTime != nil && now.Sub(*l.TriggerTime) > w.stale
}

// states returns the current state of every row that may need the monitor
// now, in id order, and updates the watermark, the open set and the sweep.
func (w *logWatch) states(ctx context.Context) ([]schema.LogState, error) {
	now := w.now()
	found := map[int64]schema.LogState{}
	if !w.seeded {
		// Start from the rows of the last moments, and every older row
		// that did not succeed.
		tail, err := w.store.LogFirstIDSince(ctx, now.Add(-w.lag))
		if err != nil {
			return nil, err
		}
		seed, err := w.store.LogUnsettledStates(ctx)
		if err != nil {
			return nil, err
		}
		for _, l := range seed {
			if l.ID < tail && !w.settled(l, now) {
				w.open[l.ID] = struct{}{}
			}
		}
		w.tail, w.seeded = tail, true
	}
	// The rows below the watermark still open: read each again.
	if len(w.open) > 0 {
		ids := slices.Sorted(maps.Keys(w.open))
		got, err := w.store.LogStatesByID(ctx, ids)
		if err != nil {
			return nil, err
		}
		clear(w.open)
		for _, l := range got {
			if !w.settled(l, now) {
				w.open[l.ID] = struct{}{}
				found[l.ID] = l
			}
		}
	}
	// The tail: every row from the watermark on.
	cursor, newTail := w.tail, int64(0)
	for range w.tailReads {
		got, err := w.store.LogStatesFrom(ctx, cursor, 0, w.tailRows)
		if err != nil {
			return nil, err
		}
		for _, l := range got {
			// Young: triggered within lag of now (a row dated far ahead,
			// a skewed clock's, is not, or it would hold the tail forever).
			young := l.TriggerTime != nil && now.Sub(*l.TriggerTime) < w.lag && l.TriggerTime.Sub(now) < w.lag
			if young && newTail == 0 {
				newTail = l.ID
			}
			if w.settled(l, now) {
				continue
			}
			found[l.ID] = l
			if newTail == 0 {
				w.open[l.ID] = struct{}{}
			}
		}
		if len(got) > 0 {
			cursor = got[len(got)-1].ID + 1
		}
		if len(got) < w.tailRows {
			break
		}
	}
	if newTail == 0 {
		newTail = cursor
	}
	w.tail = newTail
	// The sweep: a slice of the settled rows below the watermark, for what
	// changed there outside any admin's view.
	got, err := w.store.LogStatesFrom(ctx, w.sweep, w.tail, w.sweepRows)
	if err != nil {
		return nil, err
	}
	for _, l := range got {
		if !w.settled(l, now) {
			w.open[l.ID] = struct{}{}
			found[l.ID] = l
		}
	}
	w.sweep = 0
	if len(got) == w.sweepRows {
		w.sweep = got[len(got)-1].ID + 1
	}
	out := slices.Collect(maps.Values(found))
	slices.SortFunc(out, func(a, b schema.LogState) int { return cmp.Compare(a.ID, b.ID) })
	return out, nil
}
