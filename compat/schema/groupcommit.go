package schema

import (
	"context"
	"fmt"
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
// Up to Lanes batches are written at the same time, each on its own
// connection: one lane would serialise every statement of every caller
// behind one round trip at a time. There is no background goroutine: a
// caller that finds a free lane leads one batch (up to MaxBatch queued
// units, oldest first), then hands its lane to the oldest waiting caller. A
// lone caller pays no wait.
//
// If a shared transaction fails (a deadlock, one bad row), every unit of it
// is run again on its own (and again after a lost write conflict), so one
// unit cannot fail others; units must
// therefore only touch the database through tx and keep their results in
// variables they overwrite.
type GroupCommit struct {
	store    *Store
	maxBatch int
	lanes    int

	mu      sync.Mutex
	pending []*unit
	leaders int

	units     atomic.Int64
	commits   atomic.Int64
	abandoned atomic.Int64
}

type unit struct {
	ctx    context.Context // the caller's: a unit whose caller gave up is not run
	fn     func(ctx context.Context, tx *Store) error
	err    error
	wake   chan bool // false: done; true: this caller leads the next batch
	handed bool      // a lane was handed to this caller (at most once: wake holds 2)
}

// NewGroupCommit creates a group committer; maxBatch <= 1 disables grouping.
// MySQL gets 8 lanes; SQLite has a single writer, so one lane.
func (s *Store) NewGroupCommit(maxBatch int) *GroupCommit {
	lanes := 8
	if s.d.backend() == SQLite {
		lanes = 1
	}
	return &GroupCommit{store: s, maxBatch: maxBatch, lanes: lanes}
}

// Abandoned reports the units not run because their callers had given up.
func (g *GroupCommit) Abandoned() int64 { return g.abandoned.Load() }

// Stats reports the units run and the transactions committed so far.
func (g *GroupCommit) Stats() (units, commits int64) { return g.units.Load(), g.commits.Load() }

// Do runs fn in a transaction shared with concurrent callers and returns
// once it is committed (or failed on its own).
func (g *GroupCommit) Do(ctx context.Context, fn func(ctx context.Context, tx *Store) error) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	u := &unit{ctx: ctx, fn: fn}
	if g.maxBatch <= 1 {
		g.runAlone(ctx, u)
		return u.err
	}
	u.wake = make(chan bool, 2)
	g.mu.Lock()
	g.pending = append(g.pending, u)
	lead := g.leaders < g.lanes
	if lead {
		g.leaders++
	}
	g.mu.Unlock()
	for {
		if lead {
			g.lead()
		}
		if lead = <-u.wake; !lead {
			return u.err
		}
	}
}

// lead writes one batch from the front of the queue, then passes the lane
// to the oldest waiting caller not yet handed one, or frees it. A caller
// handed a lane whose unit another lane has meanwhile written still leads
// once (perhaps an empty batch) and so passes the lane on.
func (g *GroupCommit) lead() {
	g.mu.Lock()
	n := min(len(g.pending), g.maxBatch)
	batch := g.pending[:n:n]
	g.pending = g.pending[n:]
	g.mu.Unlock()

	if live := g.abandon(batch); len(live) > 0 {
		g.flush(live)
	}

	g.mu.Lock()
	var next *unit
	for _, u := range g.pending {
		if !u.handed {
			next = u
			break
		}
	}
	if next == nil {
		g.leaders--
	} else {
		next.handed = true
		next.wake <- true
	}
	g.mu.Unlock()
	for _, u := range batch {
		u.wake <- false
	}
}

// abandon fails the units whose callers have given up (their context
// ended while they queued: an /api/callback answered at its time limit)
// and returns the others. Running them would be work nobody waits for:
// the caller already answered failure, so the executor sends the same
// callback again, and under overload such units piled up behind the ones
// still wanted.
func (g *GroupCommit) abandon(batch []*unit) []*unit {
	live := make([]*unit, 0, len(batch))
	for _, u := range batch {
		if err := u.ctx.Err(); err != nil {
			u.err = fmt.Errorf("not run, its caller gave up while it queued: %w", err)
			g.abandoned.Add(1)
			continue
		}
		live = append(live, u)
	}
	return live
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

// aloneAttempts bounds the runs of a unit that lost a write conflict (a
// deadlock with another transaction): the loser's work was rolled back, so
// running it again is what the server asks for, and cheaper for everyone
// than failing the caller (an executor re-sends a failed callback POST
// whole, later).
const aloneAttempts = 3

// runAlone runs a unit on the pool without a transaction of its own: its
// statements autocommit, which for the single-statement units that are the
// common case saves the BEGIN and COMMIT round trips.
func (g *GroupCommit) runAlone(ctx context.Context, u *unit) {
	for range aloneAttempts {
		g.units.Add(1)
		u.err = u.fn(ctx, g.store)
		if !IsConflict(u.err) || ctx.Err() != nil {
			break
		}
	}
	g.commits.Add(1)
}
