package report

import (
	"context"
	"maps"
	"slices"
	"time"

	"github.com/xxl-admin-go/xxl-admin-go/compat/schema"
)

// recountEvery is how often the report days are counted whole (Java's
// findLogReport, once per day instead of every minute); between, a refresh
// reads only the rows that changed.
const recountEvery = 10 * time.Minute

// tallyPage is how many new rows one read of the tail takes.
const tallyPage = 5000

// tally keeps the counts of the report days up to date from the rows that
// change (issue 27), instead of counting three days of xxl_job_log every
// minute: per day, the rows that are no longer running counted (a row
// leaves "running" once, and never returns), and the running ones listed
// by id, read again by key each refresh. Rows above a watermark (new since
// the last refresh) are read by a primary-key range and added to their day.
// What it cannot see — a finished row deleted (console clear, job delete)
// or rewritten by hand, an insert committing after a later id was read —
// is set right by the whole count every recountEvery and when the days
// change. It lives in memory; a start counts whole.
type tally struct {
	next    int64 // rows with id < next have been read
	days    [reportDays]dayTally
	from    [reportDays]time.Time // each day's first instant; zero before the first count
	to      [reportDays]time.Time
	counted time.Time // the last whole count
}

type dayTally struct {
	settled, success int
	running          map[int64]struct{}
}

// counts returns day i's report counts.
func (t *tally) counts(i int) schema.LogCounts {
	d := t.days[i]
	return schema.LogCounts{Total: d.settled + len(d.running), Running: len(d.running), Success: d.success}
}

// update brings the days [from[i], to[i]] up to date.
func (t *tally) update(ctx context.Context, store Store, now time.Time, from, to [reportDays]time.Time) error {
	if from != t.from || now.Sub(t.counted) >= recountEvery || now.Before(t.counted) {
		return t.recount(ctx, store, now, from, to)
	}
	// New rows: each goes to its day, or nowhere (older, or a planned fire
	// dated after the last day, counted when that day comes).
	for {
		got, err := store.LogStatesFrom(ctx, t.next, 0, tallyPage)
		if err != nil {
			return err
		}
		for _, l := range got {
			t.next = l.ID + 1
			if l.TriggerTime != nil {
				if i := t.dayOf(*l.TriggerTime); i >= 0 {
					t.add(i, l)
				}
			}
		}
		if len(got) < tallyPage {
			break
		}
	}
	// The running rows: finished, failed or deleted since.
	for i := range t.days {
		d := &t.days[i]
		if len(d.running) == 0 {
			continue
		}
		ids := slices.Sorted(maps.Keys(d.running))
		got, err := store.LogStatesByID(ctx, ids)
		if err != nil {
			return err
		}
		clear(d.running)
		for _, l := range got {
			t.add(i, l)
		}
	}
	return nil
}

// add counts a row read now into day i.
func (t *tally) add(i int, l schema.LogState) {
	d := &t.days[i]
	switch {
	case (l.TriggerCode == 0 || l.TriggerCode == 200) && l.HandleCode == 0:
		d.running[l.ID] = struct{}{}
	case l.HandleCode == 200:
		d.settled++
		d.success++
	default:
		d.settled++
	}
}

func (t *tally) dayOf(at time.Time) int {
	for i := range t.days {
		if !at.Before(t.from[i]) && !at.After(t.to[i]) {
			return i
		}
	}
	return -1
}

// recount counts the days whole, below the highest id now.
func (t *tally) recount(ctx context.Context, store Store, now time.Time, from, to [reportDays]time.Time) error {
	t.counted = time.Time{} // until it succeeds
	next, err := store.LogNextID(ctx)
	if err != nil {
		return err
	}
	for i := range t.days {
		c, err := store.LogDayTally(ctx, from[i], to[i], next)
		if err != nil {
			return err
		}
		d := dayTally{settled: c.Settled, success: c.Success, running: make(map[int64]struct{}, len(c.Running))}
		for _, id := range c.Running {
			d.running[id] = struct{}{}
		}
		t.days[i] = d
	}
	t.next, t.from, t.to, t.counted = next, from, to, now
	return nil
}
