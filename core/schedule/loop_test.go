package schedule

import (
	"context"
	"database/sql"
	"path/filepath"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/xxl-admin-go/xxl-admin-go/compat/schema"
	"github.com/xxl-admin-go/xxl-admin-go/core/clock"
	"github.com/xxl-admin-go/xxl-admin-go/core/trigger"
)

// driver moves a FakeClock and waits until the loop and the ring (n
// sleepers) have done what the move woke them for.
type driver struct {
	t   *testing.T
	ctx context.Context
	clk *clock.Fake
	n   int
}

func newDriver(t *testing.T, clk *clock.Fake) *driver {
	return &driver{t: t, ctx: testCtx(t), clk: clk, n: 2}
}

func (d *driver) settle() {
	d.t.Helper()
	if err := d.clk.WaitSleepers(d.ctx, d.n); err != nil {
		d.t.Fatalf("loop and ring did not go back to sleep: %v (deadlines %v)", err, d.clk.Deadlines())
	}
}

func (d *driver) to(tm time.Time) {
	d.t.Helper()
	d.clk.Set(tm)
	d.settle()
}

// until steps from wake-up to wake-up up to tm.
func (d *driver) until(tm time.Time) {
	d.t.Helper()
	for {
		w, ok := d.clk.NextWake()
		if !ok || w.After(tm) {
			d.to(tm)
			return
		}
		d.to(w)
	}
}

// stopDriving calls Stop while advancing the clock, so a drain wait on the
// fake clock ends. Once the loop has ended, the ring and the drain wait are
// the only sleepers; the clock moves only while both sleep, so no ring tick
// is skipped.
func stopDriving(t *testing.T, s *Scheduler, clk *clock.Fake) {
	s.mu.Lock()
	loopDone := s.loopDone
	s.mu.Unlock()
	done := make(chan struct{})
	go func() { s.Stop(); close(done) }()
	if loopDone != nil {
		<-loopDone
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	go func() {
		<-done
		cancel()
	}()
	// An empty ring ends the drain by itself; moving the clock then would
	// only race the drain noticing it.
	for clk.WaitSleepers(ctx, 2) == nil && s.ring.len() > 0 {
		if w, ok := clk.NextWake(); ok {
			clk.Set(w)
		}
	}
	<-done
}

func startFake(t *testing.T, st *schema.Store, start time.Time) (*Scheduler, *recorder, *driver) {
	clk := clock.NewFake(start)
	rec := &recorder{clock: clk}
	s := newScheduler(t, st, rec, clk)
	if err := s.Start(context.Background()); err != nil {
		t.Fatalf("Start: %v", err)
	}
	t.Cleanup(func() { stopDriving(t, s, clk) })
	d := newDriver(t, clk)
	d.settle()
	return s, rec, d
}

// TestStartAlignment: the loop's first round waits 5000 - now%1000 ms and
// the ring wakes PrepareLead before the next whole second (scheduler.md
// §3.1, §3.3; the lead lets the pools prepare the second's triggers).
func TestStartAlignment(t *testing.T) {
	st := sqliteDB(t)(t)
	_, _, d := startFake(t, st, t0.Add(300*time.Millisecond))
	want := []time.Time{t0.Add(time.Second - trigger.PrepareLead), t0.Add(5 * time.Second)}
	if got := d.clk.Deadlines(); !slices.EqualFunc(got, want, time.Time.Equal) {
		t.Errorf("first wake-ups %v, want ring %v and loop %v", got, want[0], want[1])
	}
}

// TestPacing: after a round that read jobs the loop wakes on the next
// whole second; after an empty one ≈5 s later, on a whole second; a
// round of a second or more is followed at once (scheduler.md §3.2 step 7).
func TestPacing(t *testing.T) {
	st := sqliteDB(t)(t)
	addJob(t, st, jobSpec{typ: "FIX_RATE", conf: "600", status: 1, next: ms(7 * time.Second)})
	_, _, d := startFake(t, st, t0.Add(300*time.Millisecond))
	d.to(t0.Add(5*time.Second + 400*time.Millisecond)) // late wake-up: job read, pushed
	if got := d.clk.Deadlines(); !hasTime(got, t0.Add(6*time.Second)) {
		t.Errorf("after a busy round deadlines %v, want loop at %v", got, t0.Add(6*time.Second))
	}
	d.to(t0.Add(6 * time.Second)) // nothing due now
	if got := d.clk.Deadlines(); !hasTime(got, t0.Add(11*time.Second)) {
		t.Errorf("after an idle round deadlines %v, want loop at %v", got, t0.Add(11*time.Second))
	}
}

// TestSlowRoundNoWait: a round whose cost is ≥ 1 s starts the next one at
// once. The submitter moves the clock, standing in for a slow round.
func TestSlowRoundNoWait(t *testing.T) {
	st := sqliteDB(t)(t)
	clk := clock.NewFake(t0)
	slow := &clockPusher{clk: clk, by: 1500 * time.Millisecond}
	s := newScheduler(t, st, slow, clk)
	addJob(t, st, jobSpec{typ: "FIX_RATE", conf: "600", status: 1, next: ms(4 * time.Second)})
	if err := s.Start(context.Background()); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { stopDriving(t, s, clk) })
	d := newDriver(t, clk)
	d.settle()
	d.to(t0.Add(5 * time.Second)) // round: case B fire, submit moves clock to 6.5 s → next round at once (idle) → sleeps to 11 s
	if got := d.clk.Deadlines(); !hasTime(got, t0.Add(11*time.Second)) {
		t.Errorf("deadlines %v, want the idle wait after an immediate second round (11 s)", got)
	}
}

func hasTime(ts []time.Time, t time.Time) bool {
	return slices.ContainsFunc(ts, t.Equal)
}

type clockPusher struct {
	clk *clock.Fake
	by  time.Duration
}

func (c *clockPusher) Submit(trigger.Request) error { c.clk.Advance(c.by); return nil }

// TestFixRateEverySecond: a FIX_RATE 1 s job fires once in every second,
// from the ring, handed to the pools PrepareLead before the second it was
// planned for, with that time (scheduler.md §3.2 C, §3.3).
func TestFixRateEverySecond(t *testing.T) {
	st := sqliteDB(t)(t)
	id := addJob(t, st, jobSpec{typ: "FIX_RATE", conf: "1", status: 1, next: ms(6*time.Second + 250*time.Millisecond)})
	_, rec, d := startFake(t, st, t0.Add(300*time.Millisecond))
	d.until(t0.Add(20 * time.Second))
	var secs []int
	for _, c := range rec.take() {
		if c.req.JobID != id || c.req.Type != trigger.TypeCron {
			t.Errorf("unexpected trigger %+v", c.req)
		}
		// Handed over PrepareLead before the planned time, with it.
		if sent := c.req.At.Add(-trigger.PrepareLead); !c.at.Equal(sent.Truncate(time.Second).Add(time.Second-trigger.PrepareLead)) && !c.at.Equal(sent) {
			t.Errorf("planned %v submitted at %v", c.req.At, c.at)
		}
		secs = append(secs, int(c.req.At.Sub(t0)/time.Second))
	}
	want := []int{6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20}
	if !slices.Equal(secs, want) {
		t.Errorf("fired at seconds %v, want %v", secs, want)
	}
}

// TestMisfireAfterPause: the loop is suspended for 30 s (the whole process
// stands still, then the clock jumps). FIRE_ONCE_NOW fires exactly one
// MISFIRE trigger for all the missed seconds and then resumes the grid;
// DO_NOTHING fires nothing for them (scheduler.md §3.2 case A). Seconds
// pushed before the pause stay in their slots (§3.3 "≈ 1 minute late") and
// are outside the observed window.
func TestMisfireAfterPause(t *testing.T) {
	for _, tc := range []struct {
		strategy    string
		wantMisfire int
	}{{"FIRE_ONCE_NOW", 1}, {"DO_NOTHING", 0}} {
		t.Run(tc.strategy, func(t *testing.T) {
			st := sqliteDB(t)(t)
			id := addJob(t, st, jobSpec{typ: "FIX_RATE", conf: "1", misfire: tc.strategy, status: 1, next: ms(6*time.Second + 250*time.Millisecond)})
			s, rec, d := startFake(t, st, t0)
			d.until(t0.Add(8 * time.Second))
			if before := rec.take(); len(before) != 3 { // 6.25, 7.25, 8.25
				t.Fatalf("before the pause fired %d times, want 3", len(before))
			}
			pushed := s.ring.len()
			d.to(t0.Add(40 * time.Second)) // 30 s+ later: a ring tick and a round
			got := rec.take()
			if len(got) != tc.wantMisfire || (len(got) == 1 && got[0].req.Type != trigger.TypeMisfire) {
				t.Errorf("after the pause fired %v, want %d MISFIRE and nothing else", firedOf(got), tc.wantMisfire)
			}
			if st1 := loadState(t, st, id); st1 != (triggerState{1, ms(10*time.Second + 250*time.Millisecond), ms(41 * time.Second)}) {
				t.Errorf("stored %+v, want the grid restarted from the refresh time (41 s)", st1)
			}
			d.until(t0.Add(50 * time.Second))
			// The restarted grid lies on whole seconds, the very second the
			// loop reads it: a fire pushed after its second's tick (PrepareLead
			// before the second) is handed over at once instead of waiting a
			// minute in its slot; either way each second is handed over once,
			// with its planned time, between its tick and the second after.
			var planned []int64
			for _, c := range rec.take() {
				if c.req.Type != trigger.TypeCron || c.req.At.IsZero() {
					t.Errorf("unexpected %+v", c.req)
					continue
				}
				planned = append(planned, c.req.At.UnixMilli())
				if early, late := c.req.At.Sub(c.at), c.at.Sub(c.req.At); early > trigger.PrepareLead || late > time.Second {
					t.Errorf("planned %v handed over at %v", c.req.At.Sub(t0), c.at.Sub(t0))
				}
			}
			for sec := 41; sec <= 49; sec++ {
				if n := countOf(planned, ms(time.Duration(sec)*time.Second)); n != 1 {
					t.Errorf("second %d fired %d times, want 1", sec, n)
				}
			}
			if pushed == 0 || s.ring.len() < pushed {
				t.Errorf("entries pushed before the pause (%d) should still wait in their slots, ring has %d", pushed, s.ring.len())
			}
		})
	}
}

func countOf(xs []int64, x int64) int {
	n := 0
	for _, v := range xs {
		if v == x {
			n++
		}
	}
	return n
}

// observation is one action seen through Scheduler.observe.
type observation struct {
	action
	fired bool // a ring fire (else: decided by a committed round)
	at    time.Time
}

type observations struct {
	mu   sync.Mutex
	list []observation
}

func (o *observations) add(clk clock.Clock) func(a action, fired bool) {
	return func(a action, fired bool) {
		o.mu.Lock()
		defer o.mu.Unlock()
		o.list = append(o.list, observation{a, fired, clk.Now()})
	}
}

func (o *observations) take() []observation {
	o.mu.Lock()
	defer o.mu.Unlock()
	out := o.list
	o.list = nil
	return out
}

// TestStopsJobWithoutNextTime: an expired cron and a NONE job are switched
// off by the loop (trigger_status 0, times 0), the NONE one after firing
// its pushed time (scheduler.md §3.2 refresh).
func TestStopsJobWithoutNextTime(t *testing.T) {
	st := sqliteDB(t)(t)
	expired := addJob(t, st, jobSpec{typ: "CRON", conf: "0 0 0 1 1 ? 2020", status: 1, next: ms(-time.Hour)})
	none := addJob(t, st, jobSpec{typ: "NONE", status: 1, next: ms(7 * time.Second)})
	_, rec, d := startFake(t, st, t0)
	d.until(t0.Add(10 * time.Second))
	if got := firedOf(rec.take()); !slices.Equal(got, []fired{{none, trigger.TypeCron}}) {
		t.Errorf("fired %v, want only the NONE job's pushed time", got)
	}
	for _, id := range []int{expired, none} {
		if got := loadState(t, st, id); got != (triggerState{}) {
			t.Errorf("job %d stored %+v, want switched off", id, got)
		}
	}
}

// TestDatabaseOutage: while the schedule lock cannot be taken the loop
// keeps running with a growing pause (1, 2, 4, 5, 5 s) and resumes when the
// database is back.
func TestDatabaseOutage(t *testing.T) {
	path := filepath.Join(t.TempDir(), "x.db")
	st := prepared(t, "jdbc:sqlite:"+path, "", "")(t)
	id := addJob(t, st, jobSpec{typ: "FIX_RATE", conf: "1", status: 1, next: ms(20 * time.Second)})
	target, err := schema.ParseJDBC("jdbc:sqlite:"+path, "", "")
	if err != nil {
		t.Fatal(err)
	}
	raw, err := sql.Open(target.Driver, target.DSN)
	if err != nil {
		t.Fatal(err)
	}
	defer raw.Close()
	unlock := func(present bool) {
		stmt := "DELETE FROM xxl_job_lock"
		if present {
			stmt = "INSERT INTO xxl_job_lock (lock_name) VALUES ('schedule_lock')"
		}
		if _, err := raw.Exec(stmt); err != nil {
			t.Fatal(err)
		}
	}
	unlock(false)
	_, rec, d := startFake(t, st, t0)
	var rounds []time.Duration
	for range 6 {
		w := d.clk.Deadlines()
		loopAt := w[len(w)-1]
		rounds = append(rounds, loopAt.Sub(t0))
		d.until(loopAt)
	}
	want := []time.Duration{5 * time.Second, 6 * time.Second, 8 * time.Second, 12 * time.Second, 17 * time.Second, 22 * time.Second}
	if !slices.Equal(rounds, want) {
		t.Errorf("rounds at %v, want %v", rounds, want)
	}
	unlock(true)
	d.until(t0.Add(30 * time.Second))
	if len(rec.take()) == 0 || loadState(t, st, id).next <= ms(30*time.Second) {
		t.Error("loop did not resume after the outage")
	}
}
