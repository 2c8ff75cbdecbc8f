package trigger

import (
	"sync"
	"sync/atomic"
	"time"

	"github.com/rs/zerolog"
)

// lineBudget is how many triggers a second get a warning line of their
// own; the others are counted in the summary line. An admin failing or
// refusing thousands of triggers a second wrote one line each (32 MB of log
// in 75 s at 4,000 jobs) while it was already out of CPU.
const lineBudget = 10

// tally counts what would otherwise be one log line per trigger under load
// — failed, refused, misfired and dropped triggers — for the pools' summary
// line, written at most once a second.
type tally struct {
	now func() time.Time

	mu      sync.Mutex
	second  int64
	lines   int
	counts  [countKinds]int64
	samples []int // first job ids counted since the last summary
}

// What a tally counts.
type countKind int

const (
	countFailedQuiet    countKind = iota // failed triggers beyond the line budget
	countRejected                        // refused by a full pool (recorded as failed rows)
	countRejectLost                      // refused and not even recorded
	countMisfireSkipped                  // schedule fires over MisfireAfter late, skipped (DO_NOTHING)
	countMisfireFired                    // … fired once now instead (FIRE_ONCE_NOW)
	countDropped                         // queued at shutdown, never prepared
	countKinds
)

var countNames = [countKinds]string{"failed_not_logged", "rejected_pool_full", "rejected_not_recorded",
	"misfire_skipped", "misfire_fired_once", "dropped_at_stop"}

const maxSamples = 10

func newTally(now func() time.Time) *tally { return &tally{now: now} }

// failed reports whether a failed trigger of job may get its own warning
// line; if not, it is counted for the summary.
func (t *tally) failed(jobID int) bool {
	sec := t.now().Unix()
	t.mu.Lock()
	defer t.mu.Unlock()
	if sec != t.second {
		t.second, t.lines = sec, 0
	}
	if t.lines < lineBudget {
		t.lines++
		return true
	}
	t.counts[countFailedQuiet]++
	t.sample(jobID)
	return false
}

// add counts n events of one kind, sampling their job ids.
func (t *tally) add(kind countKind, jobIDs ...int) {
	if len(jobIDs) == 0 {
		return
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	t.counts[kind] += int64(len(jobIDs))
	for _, id := range jobIDs {
		if !t.sample(id) {
			break
		}
	}
}

// sample keeps a job id for the summary; false once enough are kept.
func (t *tally) sample(id int) bool {
	if len(t.samples) >= maxSamples {
		return false
	}
	t.samples = append(t.samples, id)
	return true
}

// flush writes one summary line when anything was counted since the last
// one, and starts over.
func (t *tally) flush(log zerolog.Logger, extra func(*zerolog.Event)) {
	t.mu.Lock()
	counts, samples := t.counts, t.samples
	t.counts, t.samples = [countKinds]int64{}, nil
	t.mu.Unlock()
	var any bool
	for _, n := range counts {
		any = any || n > 0
	}
	if !any {
		return
	}
	ev := log.Warn()
	for k, n := range counts {
		if n > 0 {
			ev = ev.Int64(countNames[k], n)
		}
	}
	if extra != nil {
		extra(ev)
	}
	ev.Ints("job_ids", samples).Msg("triggers not run as planned (counts since the last summary; see docs/operations.md \"What overload looks like\")")
}

// writeStats counts log rows written and the statements that carried them.
type writeStats struct{ rows, statements atomic.Int64 }

func (w *writeStats) add(rows, statements int) {
	w.rows.Add(int64(rows))
	w.statements.Add(int64(statements))
}

func (w *writeStats) load() (rows, statements int64) { return w.rows.Load(), w.statements.Load() }

// statementsFor is how many statements the batched writes use for n rows
// on MySQL (one per 500 rows; a single row is one plain statement).
func statementsFor(n int) int { return (n + 499) / 500 }
