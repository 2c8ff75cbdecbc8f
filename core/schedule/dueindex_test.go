package schedule

import (
	"context"
	"slices"
	"testing"
	"time"

	"github.com/rs/zerolog"
	"github.com/xxl-admin-go/xxl-admin-go/compat/schema"
	"github.com/xxl-admin-go/xxl-admin-go/core/clock"
)

// TestDueIndexRounds (issue 27 §3): with the due index on, a round reads and
// locks only due jobs; a job this process starts is read by the next round,
// a new job at once; a job another process moves later is read by key and
// left alone, one it starts is seen at the next full read (the index's
// stated staleness).
func TestDueIndexRounds(t *testing.T) {
	forEachBackend(t, func(t *testing.T, open opener) {
		ctx := context.Background()
		st, other := open(t), open(t)
		clk := clock.NewFake(t0.Add(10 * time.Second))
		rec := &recorder{}
		s, err := New(Config{Store: st, Submit: rec, PreReadCount: 6000, Loc: time.UTC, Clock: clk, Log: zerolog.Nop(),
			IndexMinJobs: 1, IndexRefresh: time.Minute})
		if err != nil {
			t.Fatal(err)
		}
		due := addJob(t, st, jobSpec{typ: "FIX_RATE", conf: "60", status: 1, next: ms(11 * time.Second)})
		later := addJob(t, st, jobSpec{typ: "FIX_RATE", conf: "60", status: 1, next: ms(30 * time.Second)})
		stopped := addJob(t, st, jobSpec{typ: "FIX_RATE", conf: "60", status: 0, next: ms(12 * time.Second)})
		movedAway := addJob(t, st, jobSpec{typ: "FIX_RATE", conf: "60", status: 1, next: ms(13 * time.Second)})
		round := func(read int, want ...int) {
			t.Helper()
			rec.take()
			s.ring = ring{}
			n, err := s.round(ctx)
			if err != nil {
				t.Fatal(err)
			}
			var got []int
			for _, e := range s.ring.snapshot() {
				got = append(got, e.jobID)
			}
			slices.Sort(got)
			if n != read || !slices.Equal(got, want) {
				t.Fatalf("round read %d jobs and rang %v, want %d and %v", n, got, read, want)
			}
		}
		// Another admin's round moved this one away before ours.
		if err := other.JobScheduleUpdate(ctx, schema.JobInfo{ID: movedAway, TriggerStatus: 1, TriggerLastTime: ms(13 * time.Second), TriggerNextTime: ms(73 * time.Second)}); err != nil {
			t.Fatal(err)
		}
		round(1, due)
		if !s.index.on {
			t.Fatal("index off with IndexMinJobs 1")
		}
		// This process starts the stopped job: the next round reads it.
		j, err := st.JobLoad(ctx, stopped)
		if err != nil {
			t.Fatal(err)
		}
		j.TriggerStatus = 1
		if _, err := st.JobUpdate(ctx, j); err != nil {
			t.Fatal(err)
		}
		fresh := addJob(t, other, jobSpec{typ: "FIX_RATE", conf: "60", status: 1, next: ms(14 * time.Second)})
		round(2, stopped, fresh)
		// Another process moves a job earlier: unseen until the next full read.
		if err := other.JobScheduleUpdate(ctx, schema.JobInfo{ID: later, TriggerStatus: 1, TriggerNextTime: ms(12 * time.Second)}); err != nil {
			t.Fatal(err)
		}
		round(0)
		clk.Advance(time.Minute)
		// Now 70 s: the moved job is read (over 5 s late, DO_NOTHING: skipped
		// to its next time) beside the four due again from 71 to 74 s.
		round(5, due, stopped, movedAway, fresh)
	})
}
