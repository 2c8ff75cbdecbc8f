package schedule

import (
	"context"
	"errors"
	"maps"
	"slices"
	"strconv"
	"testing"
	"time"

	"github.com/xxl-admin-go/xxl-admin-go/compat/schema"
	"github.com/xxl-admin-go/xxl-admin-go/core/clock"
	"github.com/xxl-admin-go/xxl-admin-go/core/trigger"
)

// TestRoundWritesBack runs one round against a real store: the three cases
// and a stopped job side by side, then checks the Submit calls, the ring and
// the stored trigger fields (scheduler.md §3.2 steps 3–5, schema.md §4.2
// scheduleJobQuery / scheduleUpdate).
func TestRoundWritesBack(t *testing.T) {
	forEachBackend(t, func(t *testing.T, open opener) {
		st := open(t)
		now := 10 * time.Second
		clk := clock.NewFake(t0.Add(now))
		rec := &recorder{}
		s := newScheduler(t, st, rec, clk)

		ringJob := addJob(t, st, jobSpec{typ: "FIX_RATE", conf: "1", status: 1, next: ms(12 * time.Second)})
		lateJob := addJob(t, st, jobSpec{typ: "CRON", conf: "*/5 * * * * ?", status: 1, next: ms(8 * time.Second)})
		fireOnce := addJob(t, st, jobSpec{typ: "FIX_RATE", conf: "60", misfire: "FIRE_ONCE_NOW", status: 1, next: ms(-20 * time.Second)})
		doNothing := addJob(t, st, jobSpec{typ: "FIX_RATE", conf: "60", status: 1, next: ms(-20 * time.Second)})
		noneJob := addJob(t, st, jobSpec{typ: "NONE", status: 1, next: ms(14 * time.Second)})
		expired := addJob(t, st, jobSpec{typ: "CRON", conf: "0 0 0 1 1 ? 2020", status: 1, next: ms(9 * time.Second)})
		notDue := addJob(t, st, jobSpec{typ: "FIX_RATE", conf: "1", status: 1, next: ms(15*time.Second + time.Millisecond)})
		stopped := addJob(t, st, jobSpec{typ: "FIX_RATE", conf: "1", status: 0, next: ms(11 * time.Second)})

		n, err := s.round(context.Background())
		if err != nil {
			t.Fatalf("round: %v", err)
		}
		if n != 6 {
			t.Errorf("read %d jobs, want 6 (status 1 and next <= now+5s)", n)
		}
		wantFired := []fired{{lateJob, trigger.TypeCron}, {fireOnce, trigger.TypeMisfire}, {expired, trigger.TypeCron}}
		if got := firedOf(rec.take()); !slices.Equal(got, wantFired) {
			t.Errorf("submitted %v, want %v", got, wantFired)
		}
		// The late cron's next time (15 s) is not < now+5s, so it is not pushed.
		wantRing := []entry{{ringJob, ms(12 * time.Second), "DO_NOTHING"}, {noneJob, ms(14 * time.Second), "DO_NOTHING"}}
		gotRing := s.ring.snapshot()
		slices.SortFunc(gotRing, func(a, b entry) int { return int(a.planned - b.planned) })
		if !slices.Equal(gotRing, wantRing) {
			t.Errorf("ring %v, want %v", gotRing, wantRing)
		}
		for _, c := range []struct {
			name string
			id   int
			want triggerState
		}{
			{"ring", ringJob, triggerState{1, ms(12 * time.Second), ms(13 * time.Second)}},
			{"late", lateJob, triggerState{1, ms(8 * time.Second), ms(15 * time.Second)}},
			{"fire once", fireOnce, triggerState{1, ms(-20 * time.Second), ms(70 * time.Second)}},
			{"do nothing", doNothing, triggerState{1, ms(-20 * time.Second), ms(70 * time.Second)}},
			{"none", noneJob, triggerState{0, 0, 0}},
			{"expired", expired, triggerState{0, 0, 0}},
			{"not due", notDue, triggerState{1, 0, ms(15*time.Second + time.Millisecond)}},
			{"stopped", stopped, triggerState{0, 0, ms(11 * time.Second)}},
		} {
			if got := loadState(t, st, c.id); got != c.want {
				t.Errorf("%s job: stored %+v, want %+v", c.name, got, c.want)
			}
		}

		// A second round at the same instant reads the jobs still inside the
		// window (ring job at 13 s, late job at 15 s): case C, ring only.
		if _, err := s.round(context.Background()); err != nil {
			t.Fatalf("second round: %v", err)
		}
		if got := rec.take(); len(got) != 0 {
			t.Errorf("second round submitted %v, want nothing (all times advanced)", firedOf(got))
		}
		if got := s.ring.len(); got != 4 {
			t.Errorf("ring holds %d after the second round, want 4", got)
		}
	})
}

// TestRoundIdle: nothing due → 0 jobs read, no error.
func TestRoundIdle(t *testing.T) {
	st := sqliteDB(t)(t)
	s := newScheduler(t, st, &recorder{}, clock.NewFake(t0))
	addJob(t, st, jobSpec{typ: "FIX_RATE", conf: "1", status: 1, next: ms(6 * time.Second)})
	if n, err := s.round(context.Background()); err != nil || n != 0 {
		t.Errorf("round = %d, %v; want 0, nil", n, err)
	}
}

// TestRoundFailureChangesNothing: when the store fails the round is rolled
// back and nothing fires or enters the ring (package doc: stricter than
// scheduler.md §3.2 step 6).
func TestRoundFailureChangesNothing(t *testing.T) {
	st := sqliteDB(t)(t)
	rec := &recorder{}
	s := newScheduler(t, st, rec, clock.NewFake(t0))
	id := addJob(t, st, jobSpec{typ: "FIX_RATE", conf: "1", status: 1, next: ms(-time.Second)})
	_ = st.Close()
	if _, err := s.round(context.Background()); err == nil {
		t.Fatal("round on a closed store succeeded")
	}
	if got := rec.take(); len(got) != 0 || s.ring.len() != 0 {
		t.Errorf("failed round fired %v, ring %d; want nothing", got, s.ring.len())
	}
	_ = id
}

// TestSubmitRejectionIsLogged: a full pool does not stop the round or the
// write-back (scheduler.md §4: the pool never blocks the loop).
func TestSubmitRejectionIsLogged(t *testing.T) {
	st := sqliteDB(t)(t)
	rec := &recorder{err: errors.New("pool full")}
	s := newScheduler(t, st, rec, clock.NewFake(t0))
	id := addJob(t, st, jobSpec{typ: "FIX_RATE", conf: "10", status: 1, next: ms(-time.Second)})
	if _, err := s.round(context.Background()); err != nil {
		t.Fatalf("round: %v", err)
	}
	if got := loadState(t, st, id); got.next != ms(10*time.Second) {
		t.Errorf("next = %d, want %d", got.next, ms(10*time.Second))
	}
	if len(rec.take()) != 1 {
		t.Error("want one submit attempt")
	}
}

// TestRoundManyJobs: a round over more jobs than one write-back statement
// carries (compat/schema JobScheduleUpdateBatch chunks by 200) stores every
// job's own new times, and the pre-read honours PreReadCount in id order
// (schema.md §4.2 scheduleJobQuery ORDER BY id LIMIT).
func TestRoundManyJobs(t *testing.T) {
	forEachBackend(t, func(t *testing.T, open opener) {
		st := open(t)
		const n = 450
		planned := map[int]int64{}
		err := st.WithTx(context.Background(), func(tx *schema.Store) error {
			for i := range n {
				p := ms(time.Second + time.Duration(i*7)*time.Millisecond)
				planned[addJob(t, tx, jobSpec{typ: "FIX_RATE", conf: strconv.Itoa(1 + i%3), status: 1, next: p})] = p
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
		clk := clock.NewFake(t0)
		s, err := New(Config{Store: st, Submit: &recorder{}, PreReadCount: 400, Loc: time.UTC, Clock: clk})
		if err != nil {
			t.Fatal(err)
		}
		if read, err := s.round(context.Background()); err != nil || read != 400 {
			t.Fatalf("round read %d, %v; want 400", read, err)
		}
		ids := slices.Sorted(maps.Keys(planned))
		for i, id := range ids {
			p := planned[id]
			want := triggerState{1, p, p + int64(1+i%3)*1000}
			if i >= 400 {
				want = triggerState{1, 0, p} // beyond PreReadCount: untouched
			}
			if got := loadState(t, st, id); got != want {
				t.Errorf("job %d stored %+v, want %+v", id, got, want)
			}
		}
	})
}

// TestNewValidates: the required wiring is checked up front.
func TestNewValidates(t *testing.T) {
	st := sqliteDB(t)(t)
	for _, c := range []struct {
		name string
		cfg  Config
		ok   bool
	}{
		{"complete", Config{Store: st, Submit: &recorder{}, PreReadCount: 6000}, true},
		{"no store", Config{Submit: &recorder{}, PreReadCount: 6000}, false},
		{"no submitter", Config{Store: st, PreReadCount: 6000}, false},
		{"no pre-read count", Config{Store: st, Submit: &recorder{}}, false},
	} {
		s, err := New(c.cfg)
		if (err == nil) != c.ok {
			t.Errorf("%s: New error %v, want ok=%v", c.name, err, c.ok)
		}
		if err == nil && (s.cfg.Loc != time.Local || s.cfg.Clock != (clock.System{})) {
			t.Errorf("%s: defaults not applied", c.name)
		}
	}
}
