package thread

import (
	"context"
	"errors"
	"testing"

	"github.com/rs/zerolog"

	"github.com/xxl-admin-go/xxl-admin-go/compat/api"
	"github.com/xxl-admin-go/xxl-admin-go/compat/i18n"
	"github.com/xxl-admin-go/xxl-admin-go/compat/schema"
	"github.com/xxl-admin-go/xxl-admin-go/core/trigger"
	"github.com/xxl-admin-go/xxl-admin-go/internal/testsupport/storetest"
)

// hookRecorder is a FinishHook: it records the logs it saw, checks that
// it runs inside a transaction, and returns one trigger per log (or fails).
type hookRecorder struct {
	seen []int64
	fail error
}

func (h *hookRecorder) Finished(ctx context.Context, tx *schema.Store, logs []schema.JobLog) ([]trigger.Request, error) {
	if h.fail != nil {
		return nil, h.fail
	}
	var reqs []trigger.Request
	for _, l := range logs {
		h.seen = append(h.seen, l.ID)
		reqs = append(reqs, trigger.Request{JobID: 2, Type: "WORKFLOW", ExecutorParam: schema.Ptr("from hook")})
	}
	return reqs, nil
}

// TestFinishHook: the hook sees each log a callback or Finish finished,
// once, with its result; what it returns is submitted after the commit; a
// hook that fails fails the callback and nothing of it is stored (the
// executor sends it again).
func TestFinishHook(t *testing.T) {
	storetest.ForEach(t, func(t *testing.T, s *schema.Store) {
		ctx := context.Background()
		rec := &requestRecorder{}
		h := &hookRecorder{}
		c := NewCompleter(CompleterConfig{Store: s, Texts: i18n.Load("en"), Trigger: rec, Log: zerolog.Nop(), Hook: h})
		a, b := newRunningLog(t, s, 1, nil), newRunningLog(t, s, 1, nil)
		items := []api.HandleCallbackParam{{LogID: a, HandleCode: 200}, {LogID: b, HandleCode: 500}}
		if err := c.Callback(ctx, items); err != nil {
			t.Fatal(err)
		}
		if err := c.Callback(ctx, items); err != nil { // repeated: nothing new
			t.Fatal(err)
		}
		other := newRunningLog(t, s, 1, nil)
		if won, err := c.Finish(ctx, schema.JobLog{ID: other, JobID: 1, HandleCode: 500}); err != nil || !won {
			t.Fatalf("Finish = %v, %v", won, err)
		}
		if len(h.seen) != 3 || h.seen[0] != a || h.seen[1] != b || h.seen[2] != other {
			t.Fatalf("the hook saw %v, want [%d %d %d]", h.seen, a, b, other)
		}
		if reqs := rec.all(); len(reqs) != 3 || reqs[0].Type != "WORKFLOW" || *reqs[0].ExecutorParam != "from hook" {
			t.Fatalf("submitted %+v", reqs)
		}

		h.fail = errors.New("hook down")
		late := newRunningLog(t, s, 1, nil)
		if err := c.Callback(ctx, []api.HandleCallbackParam{{LogID: late, HandleCode: 200}}); err == nil {
			t.Fatal("a callback whose hook failed was acknowledged")
		}
		if l := loadLog(t, s, late); l.HandleCode != 0 {
			t.Fatalf("a callback whose hook failed stored its result: %+v", l)
		}
	})
}
