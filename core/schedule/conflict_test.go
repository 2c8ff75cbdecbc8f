package schedule

import (
	"bytes"
	"context"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/rs/zerolog"
	"github.com/xxl-admin-go/xxl-admin-go/compat/schema"
	"github.com/xxl-admin-go/xxl-admin-go/core/clock"
)

// TestRoundConflictFiresNothing: a job moved by another writer between the
// round's read and its write-back (as a write committed on another Galera
// node can be) makes the compare-and-set refuse the whole round: nothing
// fires, nothing enters the ring, no row changes, and the error is a
// conflict. The next round reads the winner's times and goes on.
func TestRoundConflictFiresNothing(t *testing.T) {
	forEachBackend(t, func(t *testing.T, open opener) {
		st := open(t)
		clk := clock.NewFake(t0.Add(10 * time.Second))
		rec := &recorder{}
		s := newScheduler(t, st, rec, clk)
		ringJob := addJob(t, st, jobSpec{typ: "FIX_RATE", conf: "1", status: 1, next: ms(12 * time.Second)})
		lateJob := addJob(t, st, jobSpec{typ: "FIX_RATE", conf: "1", status: 1, next: ms(9 * time.Second)})
		before := map[int]triggerState{ringJob: loadState(t, st, ringJob), lateJob: loadState(t, st, lateJob)}

		// The other writer moves the late job on to 14 s.
		s.beforeWrite = func(ctx context.Context, tx *schema.Store) error {
			return tx.JobScheduleUpdate(ctx, schema.JobInfo{ID: lateJob, TriggerStatus: 1,
				TriggerLastTime: ms(9 * time.Second), TriggerNextTime: ms(14 * time.Second)})
		}
		_, err := s.round(context.Background())
		if !schema.IsConflict(err) {
			t.Fatalf("round = %v, want a conflict", err)
		}
		if got := rec.take(); len(got) != 0 || s.ring.len() != 0 {
			t.Errorf("conflicting round fired %v, ring %d; want nothing", firedOf(got), s.ring.len())
		}
		for id, want := range before {
			if got := loadState(t, st, id); got != want {
				t.Errorf("job %d stored %+v after a conflicting round, want %+v", id, got, want)
			}
		}

		// The other writer's move committed: the next round fires what is
		// still due from the times it now reads.
		s.beforeWrite = nil
		if err := st.JobScheduleUpdate(context.Background(), schema.JobInfo{ID: lateJob, TriggerStatus: 1,
			TriggerLastTime: ms(9 * time.Second), TriggerNextTime: ms(14 * time.Second)}); err != nil {
			t.Fatal(err)
		}
		if _, err := s.round(context.Background()); err != nil {
			t.Fatalf("next round: %v", err)
		}
		want := []entry{{ringJob, ms(12 * time.Second), "DO_NOTHING"}, {lateJob, ms(14 * time.Second), "DO_NOTHING"}}
		if got := s.ring.snapshot(); !sameEntries(got, want) || len(rec.take()) != 0 {
			t.Errorf("ring %v, want %v and no immediate fire", got, want)
		}
	})
}

func sameEntries(a, b []entry) bool {
	if len(a) != len(b) {
		return false
	}
	seen := map[entry]int{}
	for _, e := range a {
		seen[e]++
	}
	for _, e := range b {
		seen[e]--
	}
	for _, n := range seen {
		if n != 0 {
			return false
		}
	}
	return true
}

// TestRoundSeesConcurrentEdit: on one MariaDB or PostgreSQL server, a job
// edited by a writer outside the schedule lock (a Java admin's console, an
// SQL client) while a round starts is read after the edit commits, never
// from the round's snapshot: the round waits for the edit, does not fire
// the job at its old time and does not write the old schedule back over
// the edit.
func TestRoundSeesConcurrentEdit(t *testing.T) {
	forEachServer(t, true, testRoundSeesConcurrentEdit)
}

func testRoundSeesConcurrentEdit(t *testing.T, open opener) {
	st := open(t)
	clk := clock.NewFake(t0.Add(10 * time.Second))
	rec := &recorder{}
	s := newScheduler(t, st, rec, clk)
	id := addJob(t, st, jobSpec{typ: "FIX_RATE", conf: "1", status: 1, next: ms(9 * time.Second)})
	other := addJob(t, st, jobSpec{typ: "FIX_RATE", conf: "1", status: 1, next: ms(12 * time.Second)})
	edited := ms(time.Hour)

	editor := open(t)
	locked, release := make(chan struct{}), make(chan struct{})
	var releaseOnce sync.Once
	letGo := func() { releaseOnce.Do(func() { close(release) }) }
	// A failed wait must still end the edit, or closing the stores waits
	// for its transaction until the package times out.
	t.Cleanup(letGo)
	editDone := make(chan error, 1)
	go func() {
		editDone <- editor.WithTx(context.Background(), func(tx *schema.Store) error {
			if err := tx.JobScheduleUpdate(context.Background(), schema.JobInfo{ID: id, TriggerStatus: 1, TriggerNextTime: edited}); err != nil {
				return err
			}
			close(locked)
			<-release
			return nil
		})
	}()
	<-locked
	roundDone := make(chan error, 1)
	go func() {
		_, err := s.round(context.Background())
		roundDone <- err
	}()
	waitForLockWait(t, editor)
	letGo()
	if err := <-editDone; err != nil {
		t.Fatal(err)
	}
	if err := <-roundDone; err != nil {
		t.Fatalf("round: %v", err)
	}
	if got := rec.take(); len(got) != 0 {
		t.Errorf("round fired %v; the edited job is no longer due", firedOf(got))
	}
	if got := s.ring.snapshot(); !sameEntries(got, []entry{{other, ms(12 * time.Second), "DO_NOTHING"}}) {
		t.Errorf("ring %v, want only the other job", got)
	}
	if got := loadState(t, st, id); got.next != edited {
		t.Errorf("edited job next %d, want the edit %d kept", got.next, edited)
	}
}

// waitForLockWait returns once another session of the database waits for a
// row lock: the round blocked on the edit.
func waitForLockWait(t *testing.T, st *schema.Store) {
	t.Helper()
	ctx := testCtx(t)
	tick := time.NewTicker(5 * time.Millisecond)
	defer tick.Stop()
	for {
		n, _, err := st.ScheduleLockWaiters(ctx)
		if err != nil {
			t.Fatal(err)
		}
		if n > 0 {
			return
		}
		select {
		case <-ctx.Done():
			t.Fatal("the round never waited for the edited row")
		case <-tick.C:
		}
	}
}

// syncBuffer is a log sink the loop goroutine writes while the test reads.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (b *syncBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.b.Write(p)
}

func (b *syncBuffer) lines() []string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return strings.Split(strings.TrimSpace(b.b.String()), "\n")
}

// TestLoopConflictIsNotAnOutage: rounds lost to another admin are logged
// once at info (then at debug), never as errors, and do not slow the loop
// down: the next round comes a second later, as after a busy round.
func TestLoopConflictIsNotAnOutage(t *testing.T) {
	st := sqliteDB(t)(t)
	addJob(t, st, jobSpec{typ: "FIX_RATE", conf: "1", status: 1, next: ms(7 * time.Second)})
	clk := clock.NewFake(t0)
	var logs syncBuffer
	s, err := New(Config{Store: st, Submit: &recorder{clock: clk}, PreReadCount: 6000, Loc: time.UTC, Clock: clk,
		Log: zerolog.New(&logs).Level(zerolog.DebugLevel)})
	if err != nil {
		t.Fatal(err)
	}
	lost := 3
	s.beforeWrite = func(context.Context, *schema.Store) error {
		if lost == 0 {
			return nil
		}
		lost--
		return schema.ErrScheduleConflict
	}
	if err := s.Start(context.Background()); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { stopDriving(t, s, clk) })
	d := newDriver(t, clk)
	d.settle()
	var rounds []time.Duration
	for range 4 {
		w := d.clk.Deadlines()
		loopAt := w[len(w)-1]
		rounds = append(rounds, loopAt.Sub(t0))
		d.until(loopAt)
	}
	want := []time.Duration{5 * time.Second, 6 * time.Second, 7 * time.Second, 8 * time.Second}
	if !slices.Equal(rounds, want) {
		t.Errorf("rounds at %v, want %v (no back-off after a conflict)", rounds, want)
	}
	var info, debug, errs int
	for _, l := range logs.lines() {
		switch {
		case strings.Contains(l, `"level":"error"`):
			errs++
		case strings.Contains(l, "lost a write conflict") && strings.Contains(l, `"level":"info"`):
			info++
		case strings.Contains(l, "lost a write conflict") && strings.Contains(l, `"level":"debug"`):
			debug++
		}
	}
	if info != 1 || debug != 2 || errs != 0 {
		t.Errorf("conflict lines: %d info, %d debug, %d errors; want 1, 2, 0\n%s", info, debug, errs,
			strings.Join(logs.lines(), "\n"))
	}
}
