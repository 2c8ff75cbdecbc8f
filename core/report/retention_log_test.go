package report

import (
	"context"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/rs/zerolog"
)

// pagedStore serves ids 1…n to retention's keyset pages and deletes them.
type pagedStore struct {
	countingStore
	n int64
}

func (s *pagedStore) LogClearBound(context.Context, time.Time) (int64, bool, error) {
	return s.n, s.n > 0, nil
}

func (s *pagedStore) LogFindClearIDsAfter(_ context.Context, after, bound int64, _ time.Time, limit int) ([]int64, error) {
	var ids []int64
	for id := after + 1; id <= bound && len(ids) < limit; id++ {
		ids = append(ids, id)
	}
	return ids, nil
}

func (s *pagedStore) LogClear(_ context.Context, ids []int64) (int64, error) {
	return int64(len(ids)), nil
}

// TestRetentionLog: a pass of more than one page writes a progress line
// every 10 s while it runs and a summary with rows, pages, seconds and
// rows/s; a one-page pass only its count.
func TestRetentionLog(t *testing.T) {
	lines := func(t *testing.T, n int64, batch int) []map[string]any {
		var b strings.Builder
		now := time.Date(2024, 6, 30, 12, 0, 0, 0, time.UTC)
		r := New(Config{Store: &pagedStore{n: n}, Loc: time.UTC, RetentionDays: 7, BatchSize: batch,
			Now: func() time.Time { return now }, Log: zerolog.New(&b)})
		r.noRest = true
		step := now
		r.clock = func() time.Time { step = step.Add(6 * time.Second); return step } // each look: 6 s later
		if got, err := r.CleanNow(context.Background()); err != nil || got != int(n) {
			t.Fatalf("CleanNow = %d, %v; want %d", got, err, n)
		}
		var out []map[string]any
		for _, l := range strings.Split(strings.TrimSpace(b.String()), "\n") {
			var m map[string]any
			if err := json.Unmarshal([]byte(l), &m); err != nil {
				t.Fatalf("%q: %v", l, err)
			}
			out = append(out, m)
		}
		return out
	}
	// 25 rows in pages of 10: looks at 6 s (began), 12 s, 18 s (a line:
	// 12 s since began) and 24 s (the end, after the short page).
	got := lines(t, 25, 10)
	if len(got) != 2 {
		t.Fatalf("lines %v, want a progress line and the summary", got)
	}
	note, sum := got[0], got[1]
	if note["message"] != "log retention catching up" || note["deleted"] != 20.0 || note["pages"] != 2.0 || note["seconds"] != 12.0 {
		t.Errorf("progress line %v", note)
	}
	if sum["message"] != "log retention removed old logs" || sum["deleted"] != 25.0 || sum["pages"] != 3.0 ||
		sum["seconds"] != 18.0 || sum["rows_per_second"] != 25.0/18 || sum["before"] == nil {
		t.Errorf("summary %v", sum)
	}
	one := lines(t, 5, 10)
	if len(one) != 1 || one[0]["deleted"] != 5.0 || one[0]["pages"] != nil {
		t.Errorf("one page: %v, want only its count", one)
	}
}
