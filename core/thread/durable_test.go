package thread

import (
	"context"
	"errors"
	"sync"
	"testing"
	"time"

	"github.com/rs/zerolog"

	"github.com/xxl-admin-go/xxl-admin-go/compat/api"
	"github.com/xxl-admin-go/xxl-admin-go/compat/i18n"
	"github.com/xxl-admin-go/xxl-admin-go/compat/schema"
	"github.com/xxl-admin-go/xxl-admin-go/core/trigger"
	"github.com/xxl-admin-go/xxl-admin-go/internal/testsupport/storetest"
)

// requestRecorder records whole requests; refuse makes Submit fail as a
// full pool does.
type requestRecorder struct {
	mu     sync.Mutex
	reqs   []trigger.Request
	refuse bool
}

func (r *requestRecorder) Submit(req trigger.Request) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.reqs = append(r.reqs, req)
	if r.refuse {
		return trigger.ErrPoolFull
	}
	return nil
}

func (r *requestRecorder) all() []trigger.Request {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]trigger.Request(nil), r.reqs...)
}

func testLeases() *trigger.Durable {
	return &trigger.Durable{Owner: "admin-a", Lease: time.Minute, SendLease: 2 * time.Minute}
}

// allPending reads every pending row, by claim.
func allPending(t *testing.T, s *schema.Store) map[int64]schema.PendingTrigger {
	t.Helper()
	rows, err := s.PendingExpired(context.Background(), time.UnixMilli(1<<62), 1000)
	if err != nil {
		t.Fatal(err)
	}
	out := map[int64]schema.PendingTrigger{}
	for _, p := range rows {
		out[p.Claim] = p
	}
	return out
}

// TestCompleterDecidesDurably: a successful callback stores one pending
// row per child (a child named twice is two), with the parent's log and
// the child's position, in its own transaction; each child is submitted
// under its row's claim; a full pool leaves the rows for a sweeper; a
// repeated callback decides nothing more.
func TestCompleterDecidesDurably(t *testing.T) {
	storetest.ForEach(t, func(t *testing.T, s *schema.Store) {
		ctx := context.Background()
		job, _ := s.JobLoad(ctx, 1)
		job.ChildJobID = schema.Ptr("7,8,7")
		if _, err := s.JobUpdate(ctx, job); err != nil {
			t.Fatal(err)
		}
		rec := &requestRecorder{refuse: true}
		c := NewCompleter(CompleterConfig{Store: s, Texts: i18n.Load("en"), Trigger: rec, Log: zerolog.Nop(), Durable: testLeases()})
		parent := newRunningLog(t, s, 1, nil)
		failed := newRunningLog(t, s, 1, nil)
		items := []api.HandleCallbackParam{{LogID: parent, HandleCode: 200}, {LogID: failed, HandleCode: 500}}
		if err := c.Callback(ctx, items); err != nil {
			t.Fatal(err)
		}
		rows := allPending(t, s)
		reqs := rec.all()
		if len(rows) != 3 || len(reqs) != 3 {
			t.Fatalf("pending rows %+v, submitted %+v; want 3 of each", rows, reqs)
		}
		for i, req := range reqs {
			p, ok := rows[req.Pending]
			if !ok || p.Kind != "PARENT" || p.JobID != req.JobID || p.SourceLogID != parent || p.Seq != i ||
				p.Stage != schema.PendingDecided || p.FailRetryCount != -1 || p.Owner != "admin-a" {
				t.Errorf("child %d: request %+v, row %+v", i, req, p)
			}
		}
		if err := c.Callback(ctx, items); err != nil {
			t.Fatal(err)
		}
		if n := len(allPending(t, s)); n != 3 || len(rec.all()) != 3 {
			t.Fatalf("a repeated callback decided again: %d rows, %d submitted", n, len(rec.all()))
		}
		// Finish (the lost-job monitor, a console kill) decides the same way.
		other := newRunningLog(t, s, 1, nil)
		if won, err := c.Finish(ctx, schema.JobLog{ID: other, JobID: 1, HandleCode: 200}); err != nil || !won {
			t.Fatalf("Finish = %v, %v", won, err)
		}
		if n := len(allPending(t, s)); n != 6 {
			t.Fatalf("%d pending rows after Finish, want 6", n)
		}
	})
}

// TestFailMonitorDecidesDurably: a retry is stored as a pending row with
// the retry marker, in one transaction, carrying the failed log's
// parameter, shard and retry count less one; the retry is submitted under
// its claim.
func TestFailMonitorDecidesDurably(t *testing.T) {
	storetest.ForEach(t, func(t *testing.T, s *schema.Store) {
		ctx := context.Background()
		r := &requestRecorder{}
		m := NewFailMonitor(FailMonitorConfig{Store: s, Texts: i18n.Load("en"), Trigger: r, Alarm: &alarmRecorder{result: true},
			Log: zerolog.Nop(), Durable: testLeases()})
		id := failedLog(t, s, 1, 2, "1/3")
		if err := m.Pass(ctx); err != nil {
			t.Fatal(err)
		}
		reqs := r.all()
		rows := allPending(t, s)
		if len(reqs) != 1 || len(rows) != 1 {
			t.Fatalf("submitted %+v, pending %+v", reqs, rows)
		}
		p := rows[reqs[0].Pending]
		if p.Kind != "RETRY" || p.SourceLogID != id || p.JobID != 1 || p.FailRetryCount != 1 || str(p.ExecutorParam) != "p" ||
			str(p.ShardingParam) != "1/3" || p.Seq != 0 {
			t.Fatalf("pending retry %+v", p)
		}
		if got := trigger.Pending(p, 5); got.Type != trigger.TypeRetry || got.FailRetryCount != 1 || got.ShardingParam != "1/3" ||
			str(got.ExecutorParam) != "p" || got.Pending != 5 {
			t.Fatalf("request of the pending row %+v", got)
		}
		if l := loadLog(t, s, id); len(str(l.TriggerMsg)) <= len("trigger failed") {
			t.Fatalf("no retry marker: %q", str(l.TriggerMsg))
		}
	})
}

// TestFailMonitorDurableRollback: when the decision's transaction fails,
// neither the marker nor the pending row is stored and nothing is
// submitted; the claim is taken back at the next pass and the retry
// decided then.
func TestFailMonitorDurableRollback(t *testing.T) {
	s := storetest.SQLite(t)
	ctx := context.Background()
	r := &requestRecorder{}
	flaky := &txFailing{Store: s, fail: true}
	m := NewFailMonitor(FailMonitorConfig{Store: flaky, Texts: i18n.Load("en"), Trigger: r, Alarm: &alarmRecorder{result: true},
		Log: zerolog.Nop(), Durable: testLeases()})
	id := failedLog(t, s, 1, 1, "")
	if err := m.Pass(ctx); err == nil {
		t.Fatal("Pass with a failing transaction succeeded")
	}
	if len(r.all()) != 0 || len(allPending(t, s)) != 0 || str(loadLog(t, s, id).TriggerMsg) != "trigger failed" {
		t.Fatalf("a failed decision left traces: submitted %+v, pending %+v, log %q", r.all(), allPending(t, s), str(loadLog(t, s, id).TriggerMsg))
	}
	flaky.fail = false
	if err := m.Pass(ctx); err != nil {
		t.Fatal(err)
	}
	if len(r.all()) != 1 || len(allPending(t, s)) != 1 {
		t.Fatalf("the retry was not decided at the next pass: submitted %+v", r.all())
	}
}

// txFailing fails every transaction while fail is set.
type txFailing struct {
	*schema.Store
	fail bool
}

func (f *txFailing) WithTx(ctx context.Context, fn func(tx *schema.Store) error) error {
	if f.fail {
		return errors.New("database gone")
	}
	return f.Store.WithTx(ctx, fn)
}
