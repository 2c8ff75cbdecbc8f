package schema

import (
	"context"
	"sync"
	"sync/atomic"
	"time"
)

// groupCommitTimeout bounds one shared transaction; it is detached from the
// callers' contexts because a batch carries several callers' writes.
const groupCommitTimeout = 30 * time.Second

// GroupCommit runs small write units from concurrent callers in shared
// transactions, so that N callers pay one commit (one log flush on InnoDB)
// instead of N. Each caller still waits until its own unit is committed,
// so "answered" still means "stored".
//
// There is no background goroutine: the caller that finds no commit in
// flight leads one batch (up to MaxBatch units queued meanwhile), then
// hands the lead to the oldest waiting caller. A lone caller pays no wait.
// If a shared transaction fails (a deadlock, one bad row), every unit of it
// is run again on its own, so one unit cannot fail others;
// units must therefore only touch the database through tx and keep their
// results in variables they overwrite.
type GroupCommit struct {
	store    *Store
	maxBatch int

	mu      sync.Mutex
	pending []*unit
	leading bool

	units   atomic.Int64
	commits atomic.Int64
}

type unit struct {
	fn   func(ctx context.Context, tx *Store) error
	err  error
	wake chan bool // false: done; true: this caller leads the next batch
}

// NewGroupCommit creates a group committer; maxBatch <= 1 disables grouping.
func (s *Store) NewGroupCommit(maxBatch int) *GroupCommit {
	return &GroupCommit{store: s, maxBatch: maxBatch}
}

// Stats reports the units run and the transactions committed so far.
func (g *GroupCommit) Stats() (units, commits int64) { return g.units.Load(), g.commits.Load() }

// Do runs fn in a transaction shared with concurrent callers and returns
// once it is committed (or failed on its own).
func (g *GroupCommit) Do(ctx context.Context, fn func(ctx context.Context, tx *Store) error) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	u := &unit{fn: fn}
	if g.maxBatch <= 1 {
		g.runAlone(ctx, u)
		return u.err
	}
	u.wake = make(chan bool, 1)
	g.mu.Lock()
	g.pending = append(g.pending, u)
	lead := !g.leading
	g.leading = true
	g.mu.Unlock()
	if !lead {
		lead = <-u.wake
	}
	if lead {
		g.lead()
		<-u.wake // our own unit was in the batch just written
	}
	return u.err
}

func (g *GroupCommit) lead() {
	g.mu.Lock()
	n := min(len(g.pending), g.maxBatch)
	batch := g.pending[:n:n]
	g.pending = g.pending[n:]
	g.mu.Unlock()

	g.flush(batch)

	g.mu.Lock()
	if len(g.pending) == 0 {
		g.leading = false
	} else {
		g.pending[0].wake <- true
	}
	g.mu.Unlock()
	for _, u := range batch {
		u.wake <- false
	}
}

func (g *GroupCommit) flush(batch []*unit) {
	ctx, cancel := context.WithTimeout(context.Background(), groupCommitTimeout)
	defer cancel()
	if len(batch) == 1 {
		g.runAlone(ctx, batch[0])
		return
	}
	err := g.store.WithTx(ctx, func(tx *Store) error {
		for _, u := range batch {
			g.units.Add(1)
			if u.err = u.fn(ctx, tx); u.err != nil {
				return u.err
			}
		}
		return nil
	})
	if err == nil {
		g.commits.Add(1)
		return
	}
	for _, u := range batch {
		u.err = nil
		g.runAlone(ctx, u)
	}
}

// runAlone runs a unit on the pool without a transaction of its own: its
// statements autocommit, which for the single-statement units that are the
// common case saves the BEGIN and COMMIT round trips.
func (g *GroupCommit) runAlone(ctx context.Context, u *unit) {
	g.units.Add(1)
	u.err = u.fn(ctx, g.store)
	g.commits.Add(1)
}
