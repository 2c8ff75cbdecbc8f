package schedule

import (
	"slices"
	"testing"
	"time"

	"github.com/xxl-admin-go/xxl-admin-go/core/clock"
)

// TestSlotOf: a planned time goes to (epochMs/1000) mod 60, milliseconds
// ignored (scheduler.md §3.2 case C, §13 ring slot).
func TestSlotOf(t *testing.T) {
	for _, c := range []struct {
		ms   int64
		slot int
	}{{ms(0), 0}, {ms(999 * time.Millisecond), 0}, {ms(59*time.Second + 999*time.Millisecond), 59}, {ms(61 * time.Second), 1}, {-1, 59}} {
		if got := slotOf(c.ms); got != c.slot {
			t.Errorf("slotOf(%d) = %d, want %d", c.ms, got, c.slot)
		}
	}
}

// TestRingTakeLooksBack: a tick takes its own slot and the one before, so
// a tick that came a second late loses nothing; older slots wait for
// their second to come round again (scheduler.md §3.3).
func TestRingTakeLooksBack(t *testing.T) {
	var r ring
	for _, e := range []entry{{1, ms(5 * time.Second), "DO_NOTHING"}, {2, ms(6 * time.Second), "DO_NOTHING"}, {3, ms(6 * time.Second), "DO_NOTHING"}, {4, ms(3 * time.Second), "DO_NOTHING"}, {1, ms(0), "DO_NOTHING"}} {
		r.push(e)
	}
	if got := r.take(6); !slices.Equal(got, []entry{{2, ms(6 * time.Second), "DO_NOTHING"}, {3, ms(6 * time.Second), "DO_NOTHING"}, {1, ms(5 * time.Second), "DO_NOTHING"}}) {
		t.Errorf("take(6) = %v", got)
	}
	if got := r.take(6); len(got) != 0 {
		t.Errorf("slots are removed once taken, got %v", got)
	}
	if got := r.take(1); !slices.Equal(got, []entry{{1, ms(0), "DO_NOTHING"}}) {
		t.Errorf("take(1) = %v, want the slot-0 entry via look-back", got)
	}
	if r.len() != 1 {
		t.Errorf("len = %d, want 1 (slot 3 untouched)", r.len())
	}
	ch := r.emptied()
	select {
	case <-ch:
		t.Fatal("emptied closed while an entry waits")
	default:
	}
	r.take(4)
	<-ch
}

// TestRingTakeLooksBackTwoSeconds: a tick two seconds late still takes
// the slots it missed (3.3.0's look-back, JobScheduleHelper.java 3.4.2
// line 220); three seconds back waits for its second again.
func TestRingTakeLooksBackTwoSeconds(t *testing.T) {
	var r ring
	for _, e := range []entry{{1, ms(3 * time.Second), "DO_NOTHING"}, {2, ms(4 * time.Second), "DO_NOTHING"}, {3, ms(6 * time.Second), "DO_NOTHING"}} {
		r.push(e)
	}
	want := []entry{{3, ms(6 * time.Second), "DO_NOTHING"}, {2, ms(4 * time.Second), "DO_NOTHING"}}
	if got := r.take(6); !slices.Equal(got, want) {
		t.Errorf("take(6) = %v, want %v", got, want)
	}
	if r.len() != 1 {
		t.Errorf("len = %d, want 1 (the 3 s entry is three seconds back)", r.len())
	}
}

// TestRingTakeDropsRepeats: a (job, planned second) pushed twice fires
// once (3.3.0's time ring: "distinct" per slot, JobScheduleHelper.java
// 3.4.2 line 224); the same job planned for two seconds fires twice.
func TestRingTakeDropsRepeats(t *testing.T) {
	var r ring
	for _, e := range []entry{{1, ms(6 * time.Second), "DO_NOTHING"}, {2, ms(6 * time.Second), "DO_NOTHING"},
		{1, ms(6 * time.Second), "DO_NOTHING"}, {1, ms(5 * time.Second), "DO_NOTHING"}} {
		r.push(e)
	}
	want := []entry{{1, ms(6 * time.Second), "DO_NOTHING"}, {2, ms(6 * time.Second), "DO_NOTHING"}, {1, ms(5 * time.Second), "DO_NOTHING"}}
	if got := r.take(6); !slices.Equal(got, want) {
		t.Errorf("take(6) = %v, want %v", got, want)
	}
	if r.len() != 0 {
		t.Errorf("len = %d after the take, want 0 (the repeat is gone too)", r.len())
	}
}

// TestTickSubmitsCron: ring fires are CRON triggers with retry -1 and no
// overrides (scheduler.md §3.3).
func TestTickSubmitsCron(t *testing.T) {
	st := sqliteDB(t)(t)
	rec := &recorder{}
	s := newScheduler(t, st, rec, clock.NewFake(t0))
	s.ring.push(entry{7, ms(59 * time.Second), "DO_NOTHING"})
	s.ring.push(entry{8, ms(0), "DO_NOTHING"})
	s.tick(0)
	if got := firedOf(rec.take()); !slices.Equal(got, []fired{{8, "CRON"}, {7, "CRON"}}) {
		t.Errorf("tick(0) fired %v (second 0 then look-back to 59)", got)
	}
}

// TestRingPushAfterTick: a fire for a second the ring has already taken
// is refused (the caller submits it at once) instead of waiting a minute
// in its slot; later seconds are kept.
func TestRingPushAfterTick(t *testing.T) {
	var r ring
	if !r.push(entry{1, ms(5 * time.Second), "DO_NOTHING"}) {
		t.Fatal("push before any tick refused")
	}
	r.take(t0.Add(5 * time.Second).Unix())
	for _, tc := range []struct {
		at   time.Duration
		want bool
	}{{4 * time.Second, false}, {5*time.Second + 999*time.Millisecond, false}, {6 * time.Second, true}} {
		if got := r.push(entry{2, ms(tc.at), "DO_NOTHING"}); got != tc.want {
			t.Errorf("push for %v after the tick of 5 s = %v, want %v", tc.at, got, tc.want)
		}
	}
	if r.len() != 1 {
		t.Errorf("ring holds %d, want the one later fire", r.len())
	}
}
