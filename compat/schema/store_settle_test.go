package schema

import (
	"context"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// TestLogFindUnsettled: only rows without any result, triggered by the
// cutoff and not covered by a pending trigger, are found, oldest first.
func TestLogFindUnsettled(t *testing.T) {
	forEachPrepared(t, func(t *testing.T, s *Store) {
		ctx := context.Background()
		cutoff := time.Date(2026, 11, 28, 10, 0, 0, 0, time.Local)
		save := func(at time.Time, trigger, handle int) int64 {
			t.Helper()
			id, err := s.LogSave(ctx, JobLog{JobGroup: 1, JobID: 1, TriggerTime: &at, TriggerCode: trigger, HandleCode: handle})
			mustNoErr(t, err)
			return id
		}
		old := cutoff.Add(-time.Minute)
		orphan := save(old, 0, 0)
		atCutoff := save(cutoff, 0, 0)
		save(cutoff.Add(time.Second), 0, 0) // within the grace
		save(old, 200, 0)                   // running: the callback or the lost monitor finishes it
		save(old, 0, 200)                   // called back before its trigger result was stored
		save(old, 500, 500)                 // failed
		covered := save(old, 0, 0)
		p := pendingRow(covered, 0, 41, old)
		p.Stage, p.LogID, p.ShardTotal = PendingLogged, covered, 1
		mustNoErr(t, s.PendingInsert(ctx, []PendingTrigger{p}))

		got, err := s.LogFindUnsettled(ctx, cutoff, 10)
		mustNoErr(t, err)
		if len(got) != 2 || got[0].ID != orphan || got[1].ID != atCutoff {
			t.Fatalf("found %+v, want logs %d and %d", got, orphan, atCutoff)
		}
		if got[0].TriggerTime == nil || !got[0].TriggerTime.Equal(old) || got[0].JobID != 1 {
			t.Errorf("row read back as %+v", got[0])
		}
		if got, err := s.LogFindUnsettled(ctx, cutoff, 1); err != nil || len(got) != 1 || got[0].ID != orphan {
			t.Fatalf("size 1: %+v, %v", got, err)
		}
	})
}

// TestLogSettleOnce: a settlement is a compare-and-set: of settlers racing
// on the same row one writes it, and none writes a row its trigger result
// or callback finished meanwhile; the pending trigger decided with it is
// stored exactly when it wins.
func TestLogSettleOnce(t *testing.T) {
	forEachPrepared(t, func(t *testing.T, s *Store) {
		ctx := context.Background()
		at := time.Date(2026, 11, 28, 10, 0, 0, 0, time.Local)
		id, err := s.LogSave(ctx, JobLog{JobGroup: 1, JobID: 1, TriggerTime: &at})
		mustNoErr(t, err)
		msg := "settled"
		var wins atomic.Int32
		var wg sync.WaitGroup
		for i := range 4 {
			wg.Go(func() {
				err := s.WithTx(ctx, func(tx *Store) error {
					won, err := tx.LogSettle(ctx, JobLog{ID: id, TriggerCode: 500, TriggerMsg: &msg, HandleTime: &at,
						HandleCode: 500, HandleMsg: &msg, AlarmStatus: 1})
					if err != nil || !won {
						return err
					}
					wins.Add(1)
					return tx.PendingInsert(ctx, []PendingTrigger{pendingRow(id, 0, int64(100+i), at)})
				})
				if err != nil && !IsConflict(err) {
					t.Error(err)
				}
			})
		}
		wg.Wait()
		if wins.Load() != 1 {
			t.Fatalf("%d settlers won, want 1", wins.Load())
		}
		if n, err := s.PendingCount(ctx); err != nil || n != 1 {
			t.Fatalf("PendingCount = %d, %v; want the winner's one", n, err)
		}
		l, err := s.LogLoad(ctx, id)
		mustNoErr(t, err)
		if l.TriggerCode != 500 || l.HandleCode != 500 || deref(l.HandleMsg) != msg || l.AlarmStatus != 1 ||
			l.HandleTime == nil || !l.HandleTime.Equal(at) {
			t.Fatalf("settled row = %+v", l)
		}

		// A row its trigger finished meanwhile is not settled.
		run, err := s.LogSave(ctx, JobLog{JobGroup: 1, JobID: 1, TriggerTime: &at, TriggerCode: 200})
		mustNoErr(t, err)
		if won, err := s.LogSettle(ctx, JobLog{ID: run, TriggerCode: 500}); err != nil || won {
			t.Fatalf("LogSettle on a running row = %v, %v; want false", won, err)
		}
	})
}
