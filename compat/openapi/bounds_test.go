package openapi

import (
	"testing"
	"time"

	"github.com/xxl-admin-go/xxl-admin-go/compat/schema"
	"github.com/xxl-admin-go/xxl-admin-go/internal/testsupport/storetest"
)

// TestListBounds: the job and log lists are bounded as the console's
// (issue 27): an exact total says so, a count past its bound leaves a
// lower bound flagged totalExact false, and a statement past its bound is
// a 503 "timeout" telling the caller to narrow the filter. Every exchange
// is checked against the document. The bounds are 1 ns where a test wants
// them hit (the first statement under them fails at once).
func TestListBounds(t *testing.T) {
	s := storetest.SQLite(t)
	e := newEnv(t, s, "")
	ctx := t.Context()
	// 150 logs: more than a 20-row page and its look-ahead (101 ids), so
	// the total needs a count.
	rows := make([]schema.JobLog, 150)
	for i := range rows {
		tt := e.now.Add(-time.Duration(i) * time.Minute)
		rows[i] = schema.JobLog{JobGroup: 1, JobID: 1, TriggerTime: &tt, TriggerCode: 200, HandleCode: 200}
	}
	if _, err := s.LogSaveMany(ctx, rows); err != nil {
		t.Fatal(err)
	}
	page := func(a answer) map[string]any {
		t.Helper()
		p, ok := a.json()["page"].(map[string]any)
		if a.status != 200 || !ok {
			t.Fatalf("%d %s", a.status, a.body)
		}
		return p
	}
	for _, path := range []string{"/logs", "/jobs"} {
		p := page(e.call("GET", path, nil))
		if p["totalExact"] != true {
			t.Errorf("%s: %v, want an exact total", path, p)
		}
	}
	if p := page(e.call("GET", "/logs?limit=20", nil)); p["total"] != float64(150) {
		t.Errorf("counted within its bound: %v", p)
	}

	e.api.cfg.ListBounds = schema.Bounds{Statement: 5 * time.Second, Count: time.Nanosecond}
	if p := page(e.call("GET", "/logs?limit=20", nil)); p["totalExact"] != false || p["total"] != float64(101) {
		t.Errorf("count past its bound: %v, want the lower bound 101 (the page and its look-ahead)", p)
	}
	// The list ends within the look-ahead: exact without a count.
	if p := page(e.call("GET", "/logs?limit=20&offset=100", nil)); p["totalExact"] != true || p["total"] != float64(150) {
		t.Errorf("end of the list: %v", p)
	}

	e.api.cfg.ListBounds = schema.Bounds{Statement: time.Nanosecond, Count: time.Nanosecond}
	for _, path := range []string{"/logs", "/jobs"} {
		a := e.call("GET", path, nil)
		if m := a.json(); a.status != 503 || m["code"] != "timeout" || m["message"] != statementTimeoutText {
			t.Errorf("%s past its time bound: %d %s", path, a.status, a.body)
		}
	}
}
