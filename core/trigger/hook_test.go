package trigger

import (
	"context"
	"testing"

	"github.com/xxl-admin-go/xxl-admin-go/compat/schema"
	"github.com/xxl-admin-go/xxl-admin-go/internal/testsupport/storetest"
)

// loggedRecorder is a PendingHook recording the rows it is shown and
// whether each one's log row is visible in the transaction.
type loggedRecorder struct {
	rows    []schema.PendingTrigger
	visible int
}

func (h *loggedRecorder) PendingLogged(ctx context.Context, tx *schema.Store, rows []schema.PendingTrigger) error {
	for _, p := range rows {
		if _, err := tx.LogLoad(ctx, p.LogID); err == nil {
			h.visible++
		}
	}
	h.rows = append(h.rows, rows...)
	return nil
}

// TestPendingHook: the hook sees, in the transaction that writes them,
// each durable trigger's log row with its decision and shard — a
// broadcast's shards each — and no trigger that is not durable.
func TestPendingHook(t *testing.T) {
	storetest.ForEach(t, func(t *testing.T, s *schema.Store) {
		exec := newFakeExecutor(t)
		two := exec.address() + "," + exec.address()
		job := seedJob(t, s, jobSpec{addressList: &two, route: "SHARDING_BROADCAST"})
		h := &loggedRecorder{}
		d := testDurable(s)
		d.Hook = h
		flow, _ := newTestFlow(t, s, flowOpts{durable: d})
		req := decide(t, s, d, job.ID, 901, 3)
		plain := Request{JobID: job.ID, Type: TypeManual, FailRetryCount: -1}
		fired, err := flow.prepare(context.Background(), []Request{req, plain})
		if err != nil || len(fired) != 4 {
			t.Fatalf("prepare = %d rows, %v", len(fired), err)
		}
		if len(h.rows) != 2 || h.visible != 2 {
			t.Fatalf("the hook saw %+v (%d log rows visible), want the durable trigger's two shards", h.rows, h.visible)
		}
		for i, p := range h.rows {
			if p.SourceLogID != 901 || p.Seq != 3 || p.ShardIndex != i || p.ShardTotal != 2 || p.LogID != fired[i].logID ||
				p.Stage != schema.PendingLogged {
				t.Errorf("shard %d: %+v (log %d)", i, p, fired[i].logID)
			}
		}
	})
}
