package schedule

import (
	"context"
	"github.com/xxl-admin-go/xxl-admin-go/core/trigger"
	"slices"
	"testing"
	"time"

	"github.com/xxl-admin-go/xxl-admin-go/core/clock"
)

// TestStopDrainsRing: Stop ends the loop first, then lets the ring fire
// what it holds before stopping it (scheduler.md §1 stop order); it waits
// only until the ring is empty.
func TestStopDrainsRing(t *testing.T) {
	st := sqliteDB(t)(t)
	clk := clock.NewFake(t0)
	rec := &recorder{clock: clk}
	s := newScheduler(t, st, rec, clk)
	if err := s.Start(context.Background()); err != nil {
		t.Fatal(err)
	}
	newDriver(t, clk).settle()
	s.ring.push(entry{42, ms(3 * time.Second), "DO_NOTHING"})
	stopDriving(t, s, clk)
	got := rec.take()
	// Submitted PrepareLead before its second, planned for the second.
	sent := t0.Add(3*time.Second - trigger.PrepareLead)
	if len(got) != 1 || got[0].req.JobID != 42 || !got[0].at.Equal(sent) || !got[0].req.At.Equal(t0.Add(3*time.Second)) {
		t.Errorf("fired %+v, want job 42 at %v for 3 s", got, sent)
	}
	if !clk.Now().Equal(sent) {
		t.Errorf("Stop returned at %v, want soon after the ring was empty (%v)", clk.Now(), sent)
	}
	s.Stop() // twice is safe
}

// TestStopGivesUpAfter8s: entries for a second more than 8 s away are
// dropped when the drain wait ends (Java sleeps 8 s, then stops the ring).
func TestStopGivesUpAfter8s(t *testing.T) {
	st := sqliteDB(t)(t)
	clk := clock.NewFake(t0)
	rec := &recorder{clock: clk}
	s := newScheduler(t, st, rec, clk)
	if err := s.Start(context.Background()); err != nil {
		t.Fatal(err)
	}
	newDriver(t, clk).settle()
	s.ring.push(entry{42, ms(30 * time.Second), "DO_NOTHING"})
	stopDriving(t, s, clk)
	if got := rec.take(); len(got) != 0 {
		t.Errorf("fired %v, want nothing", firedOf(got))
	}
	// The drain starts at 0 s or after a ring tick or two that the driver
	// advanced while Stop was still waiting for the loop (a loaded machine
	// schedules the drain goroutine late against the fake clock); what
	// matters is that Stop gave up at the limit instead of waiting for the
	// entry's second (30 s).
	if got := clk.Now().Sub(t0); got < ringDrainWait || got >= 20*time.Second {
		t.Errorf("Stop returned after %v, want the 8 s drain limit, well before the entry at 30 s", got)
	}
	if !slices.Equal(s.ring.snapshot(), []entry{{42, ms(30 * time.Second), "DO_NOTHING"}}) {
		t.Error("entry should remain unfired")
	}
}

// TestStopBeforeStart and restart: Stop is safe before Start, and a
// stopped Scheduler can start again.
func TestStopBeforeStartAndRestart(t *testing.T) {
	st := sqliteDB(t)(t)
	clk := clock.NewFake(t0)
	s := newScheduler(t, st, &recorder{}, clk)
	s.Stop()
	for range 2 {
		if err := s.Start(context.Background()); err != nil {
			t.Fatal(err)
		}
		if err := s.Start(context.Background()); err == nil {
			t.Error("second Start succeeded")
		}
		newDriver(t, clk).settle()
		s.Stop()
	}
}
