package cron

import (
	"encoding/json"
	"os"
	"testing"
	"time"
)

// quartzVector is one row of conformance/testdata/cron/quartz-vectors.json
// (format in the conformance material's cron/README.md, ../shared/conformance in CI:
// the Quartz answers recorded from the Java 2.4.2 class).
type quartzVector struct {
	Expr   string  `json:"expr"`
	TZ     string  `json:"tz"`
	Valid  bool    `json:"valid"`
	FromMs int64   `json:"from_ms"`
	NextMs []int64 `json:"next_ms"`
	Error  string  `json:"error"`
}

func loadVectors(t testing.TB) []quartzVector {
	t.Helper()
	raw, err := os.ReadFile("../../conformance/testdata/cron/quartz-vectors.json")
	if err != nil {
		t.Fatalf("read vectors: %v", err)
	}
	var vs []quartzVector
	if err := json.Unmarshal(raw, &vs); err != nil {
		t.Fatalf("decode vectors: %v", err)
	}
	return vs
}

// TestQuartzVectors replays every reference answer of the Java 2.4.2 class:
// validity, the parser's message, and up to ten successive fire times,
// each computed from the previous one (scheduler.md §2.1).
func TestQuartzVectors(t *testing.T) {
	vs := loadVectors(t)
	passed := 0
	for _, v := range vs {
		if checkVector(t, v) {
			passed++
		}
	}
	t.Logf("quartz vectors passed: %d/%d", passed, len(vs))
	if passed != len(vs) {
		t.Fatalf("%d of %d vectors failed", len(vs)-passed, len(vs))
	}
}

func checkVector(t *testing.T, v quartzVector) bool {
	t.Helper()
	loc, err := time.LoadLocation(v.TZ)
	if err != nil {
		t.Errorf("%q: load zone %s: %v", v.Expr, v.TZ, err)
		return false
	}
	e, err := Parse(v.Expr)
	if (err == nil) != v.Valid {
		t.Errorf("%q: valid=%v, want %v (err %v)", v.Expr, err == nil, v.Valid, err)
		return false
	}
	if err != nil {
		if got := "ParseException: " + err.Error(); got != v.Error {
			t.Errorf("%q: error %q, want %q", v.Expr, got, v.Error)
			return false
		}
		return true
	}
	from := time.UnixMilli(v.FromMs)
	for i, want := range v.NextMs {
		got, ok := e.Next(from, loc)
		if !ok || got.UnixMilli() != want {
			t.Errorf("%q tz=%s from=%d: fire #%d = %v (ok=%v), want %v", v.Expr, v.TZ, v.FromMs, i,
				got, ok, time.UnixMilli(want).In(loc))
			return false
		}
		from = got
	}
	if len(v.NextMs) < 10 {
		if got, ok := e.Next(from, loc); ok {
			t.Errorf("%q tz=%s: fire #%d = %v, want none", v.Expr, v.TZ, len(v.NextMs), got)
			return false
		}
	}
	return true
}
