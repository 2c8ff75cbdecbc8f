package schema

import (
	"context"
	"strings"
	"testing"
	"time"
)

// TestNULInText: a text value holding U+0000 (an executor's message, a
// console field) is stored on every backend, through single statements and
// the batched CASE updates alike; MySQL and SQLite keep the NUL, PostgreSQL,
// whose text cannot hold it, keeps U+FFFD in its place.
func TestNULInText(t *testing.T) {
	forEachPrepared(t, func(t *testing.T, s *Store) {
		ctx := context.Background()
		msg := "before\x00after"
		want := msg
		if s.Backend() == Postgres {
			want = strings.ReplaceAll(msg, "\x00", "\uFFFD")
		}
		now := time.Now()
		ids, err := s.LogSaveMany(ctx, []JobLog{
			{JobGroup: 1, JobID: 1, TriggerTime: &now},
			{JobGroup: 1, JobID: 1, TriggerTime: &now},
			{JobGroup: 1, JobID: 1, TriggerTime: &now},
		})
		mustNoErr(t, err)
		// One row alone, two through the batched statements.
		mustNoErr(t, s.LogUpdateTriggerInfo(ctx, JobLog{ID: ids[0], TriggerTime: &now, TriggerCode: 200, TriggerMsg: Ptr(msg)}))
		mustNoErr(t, s.LogUpdateTriggerInfoMany(ctx, []JobLog{
			{ID: ids[1], TriggerTime: &now, TriggerCode: 200, TriggerMsg: Ptr(msg)},
			{ID: ids[2], TriggerTime: &now, TriggerCode: 200, TriggerMsg: Ptr(msg)},
		}))
		n, err := s.LogFinishMany(ctx, []JobLog{
			{ID: ids[1], HandleTime: &now, HandleCode: 200, HandleMsg: Ptr(msg)},
			{ID: ids[2], HandleTime: &now, HandleCode: 200, HandleMsg: Ptr(msg)},
		})
		mustNoErr(t, err)
		if n != 2 {
			t.Fatalf("finished %d logs, want 2", n)
		}
		for i, id := range ids {
			l, err := s.LogLoad(ctx, id)
			mustNoErr(t, err)
			if l.TriggerMsg == nil || *l.TriggerMsg != want {
				t.Errorf("log %d trigger_msg %q, want %q", i, deref(l.TriggerMsg), want)
			}
			if i > 0 && (l.HandleMsg == nil || *l.HandleMsg != want) {
				t.Errorf("log %d handle_msg %q, want %q", i, deref(l.HandleMsg), want)
			}
		}
	})
}

func deref(p *string) string {
	if p == nil {
		return "<nil>"
	}
	return *p
}
