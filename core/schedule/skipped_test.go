package schedule

import (
	"context"
	"errors"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/xxl-admin-go/xxl-admin-go/compat/schema"
	"github.com/xxl-admin-go/xxl-admin-go/core/clock"
	"github.com/xxl-admin-go/xxl-admin-go/core/trigger"
)

// observed records what a Scheduler tells its Observer.
type observed struct {
	mu      sync.Mutex
	skipped []int
	fired   int
}

func (o *observed) Fired(time.Duration)      { o.mu.Lock(); o.fired++; o.mu.Unlock() }
func (o *observed) LockWaited(time.Duration) {}
func (o *observed) Skipped(n int)            { o.mu.Lock(); o.skipped = append(o.skipped, n); o.mu.Unlock() }

func (o *observed) take() (skipped []int, fired int) {
	o.mu.Lock()
	defer o.mu.Unlock()
	skipped, fired = o.skipped, o.fired
	o.skipped, o.fired = nil, 0
	return skipped, fired
}

// TestRoundReportsSkippedMisfires: the fires a round drops as misfired
// (read over 5 s late, DO_NOTHING or an unknown strategy: scheduler.md
// §3.2 case A) reach the observer once the round committed, and only then;
// FIRE_ONCE_NOW and merely late jobs fire instead.
func TestRoundReportsSkippedMisfires(t *testing.T) {
	forEachBackend(t, func(t *testing.T, open opener) {
		st := open(t)
		clk := clock.NewFake(t0.Add(10 * time.Second))
		rec := &recorder{}
		s := newScheduler(t, st, rec, clk)
		obs := &observed{}
		s.cfg.Observer = obs

		addJob(t, st, jobSpec{typ: "FIX_RATE", conf: "60", status: 1, next: ms(-20 * time.Second)})
		addJob(t, st, jobSpec{typ: "FIX_RATE", conf: "60", misfire: "SOMETIMES", status: 1, next: ms(-6 * time.Second)})
		fireOnce := addJob(t, st, jobSpec{typ: "FIX_RATE", conf: "60", misfire: "FIRE_ONCE_NOW", status: 1, next: ms(-20 * time.Second)})
		late := addJob(t, st, jobSpec{typ: "CRON", conf: "*/5 * * * * ?", status: 1, next: ms(8 * time.Second)})

		s.beforeWrite = func(context.Context, *schema.Store) error { return errors.New("injected: write-back failed") }
		if _, err := s.round(context.Background()); err == nil {
			t.Fatal("round with a failing write-back succeeded")
		}
		if skipped, fired := obs.take(); len(skipped) != 0 || fired != 0 {
			t.Errorf("rolled-back round reported skipped %v, fired %d", skipped, fired)
		}

		s.beforeWrite = nil
		if _, err := s.round(context.Background()); err != nil {
			t.Fatalf("round: %v", err)
		}
		if skipped, fired := obs.take(); !slices.Equal(skipped, []int{2}) || fired != 2 {
			t.Errorf("skipped %v fired %d, want [2] and 2", skipped, fired)
		}
		want := []fired{{fireOnce, trigger.TypeMisfire}, {late, trigger.TypeCron}}
		if got := firedOf(rec.take()); !slices.Equal(got, want) {
			t.Errorf("submitted %v, want %v", got, want)
		}

		// The skipped jobs moved on (next fire in 50 s): nothing more to skip.
		if _, err := s.round(context.Background()); err != nil {
			t.Fatalf("second round: %v", err)
		}
		if skipped, _ := obs.take(); len(skipped) != 0 {
			t.Errorf("second round skipped %v", skipped)
		}
	})
}
