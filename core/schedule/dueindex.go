package schedule

import (
	"context"
	"slices"
	"time"

	"github.com/xxl-admin-go/xxl-admin-go/compat/schema"
)

// Defaults of the due index (issue 27 §3).
const (
	// DefaultIndexMinJobs is the highest job id from which rounds use the
	// due index: below it, Java's pre-read (a scan of xxl_job_info) costs
	// less than keeping the index.
	DefaultIndexMinJobs = 10000
	// DefaultIndexRefresh is how often the index is read again whole: the
	// longest a job started or moved earlier by another process (a Java
	// admin's console, a person's UPDATE) stays unseen by this admin. A
	// whole read of 1M jobs took 1.6 s on a busy 2-core MariaDB
	// (BenchmarkGrowthPreRead), about what Java's pre-read costs every second.
	DefaultIndexRefresh = 30 * time.Second
	// indexPage is how many jobs one statement of a full read reads.
	indexPage = 10000
)

// dueIndex lets a round find the due jobs of a large xxl_job_info without
// scanning it: xxl_job_info has no index but its primary key in either
// generation, so Java's pre-read (trigger_status = 1 AND trigger_next_time
// <= ? ORDER BY id LIMIT n FOR UPDATE) reads, and on MySQL locks, every row
// each round. The index holds, in memory and per process, the next trigger
// time of every running job; a round reads by key only the jobs it says are
// due, plus the jobs this process wrote since (schema.JobWritesTaken) and
// any job above the highest id it knows, and locks only the due ones. What
// other processes do is seen as follows: their rounds move jobs later,
// which the key lookups correct; their consoles (start, an earlier time)
// are seen at the next full read, every refresh. Nothing is stored; a
// dropped index is read again whole.
type dueIndex struct {
	minJobs int
	refresh time.Duration

	on       bool      // the table is large enough for the index
	readAt   time.Time // the last full read, or check of the table's size
	maxID    int
	next     map[int]int64 // running jobs' trigger_next_time
	written  []int         // taken from the store, kept until a round commits
	dueCache []int
}

func newDueIndex(minJobs int, refresh time.Duration) *dueIndex {
	if minJobs == 0 {
		minJobs = DefaultIndexMinJobs
	}
	if refresh <= 0 {
		refresh = DefaultIndexRefresh
	}
	return &dueIndex{minJobs: minJobs, refresh: refresh, next: map[int]int64{}}
}

// prepare reads the index whole when the refresh is due, outside the
// schedule lock (a plain read, which blocks no other admin's round).
func (x *dueIndex) prepare(ctx context.Context, store *schema.Store, now time.Time) error {
	if x.minJobs < 0 || (!x.readAt.IsZero() && now.Sub(x.readAt) < x.refresh) {
		return nil
	}
	maxID, err := store.JobMaxID(ctx)
	if err != nil {
		return err
	}
	x.readAt = now
	if x.on = maxID >= x.minJobs; !x.on {
		clear(x.next)
		return nil
	}
	next := make(map[int]int64, len(x.next))
	after := 0
	for {
		got, err := store.JobDueFrom(ctx, after, indexPage)
		if err != nil {
			x.on = false
			return err
		}
		for _, j := range got {
			if j.Status == 1 {
				next[j.ID] = j.Next
			}
			after = j.ID
		}
		if len(got) < indexPage {
			break
		}
	}
	x.next, x.maxID = next, max(after, maxID)
	return nil
}

// read is the index's pre-read inside the round's transaction: the jobs due
// by maxNext among the index's, the written ones and the new ones, at most
// size in id order, read by key and locked.
func (x *dueIndex) read(ctx context.Context, tx *schema.Store, maxNext int64, size int) ([]schema.JobInfo, error) {
	x.written = append(x.written, tx.JobWritesTaken()...)
	newer, err := tx.JobDueFrom(ctx, x.maxID, indexPage)
	if err != nil {
		return nil, err
	}
	for _, j := range newer { // more than a page: the rest next round
		x.set(j)
		x.maxID = max(x.maxID, j.ID)
	}
	cands := slices.Clone(x.written)
	for id, next := range x.next {
		if next <= maxNext {
			cands = append(cands, id)
		}
	}
	if len(cands) == 0 {
		return nil, nil
	}
	slices.Sort(cands)
	cands = slices.Compact(cands)
	states, err := tx.JobDueByID(ctx, cands)
	if err != nil {
		return nil, err
	}
	for _, id := range cands {
		delete(x.next, id) // gone unless read below
	}
	due := x.dueCache[:0]
	for _, j := range states {
		x.set(j)
		if j.Status == 1 && j.Next <= maxNext {
			due = append(due, j.ID)
		}
	}
	slices.Sort(due)
	x.dueCache = due
	if len(due) > size {
		due = due[:size]
	}
	if len(due) == 0 {
		return nil, nil
	}
	return tx.JobScheduleQueryIDs(ctx, due, maxNext)
}

func (x *dueIndex) set(j schema.JobDue) {
	if j.Status == 1 {
		x.next[j.ID] = j.Next
	} else {
		delete(x.next, j.ID)
	}
}

// moved records a committed round's write-back.
func (x *dueIndex) moved(moves []schema.ScheduleMove) {
	x.written = x.written[:0]
	for _, m := range moves {
		x.set(schema.JobDue{ID: m.ID, Status: m.Status, Next: m.Next})
	}
}
