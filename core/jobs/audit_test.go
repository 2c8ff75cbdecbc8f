package jobs

import (
	"bytes"
	"context"
	"encoding/json"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/rs/zerolog"

	"github.com/xxl-admin-go/xxl-admin-go/compat/i18n"
	"github.com/xxl-admin-go/xxl-admin-go/compat/schema"
	"github.com/xxl-admin-go/xxl-admin-go/internal/testsupport/storetest"
)

// syncBuffer collects log lines written from any goroutine.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

// auditLines are the logged operation lines, decoded.
func (s *syncBuffer) auditLines(t *testing.T) []map[string]any {
	t.Helper()
	s.mu.Lock()
	defer s.mu.Unlock()
	var out []map[string]any
	for line := range strings.SplitSeq(strings.TrimSpace(s.b.String()), "\n") {
		var m map[string]any
		if err := json.Unmarshal([]byte(line), &m); err != nil {
			t.Fatalf("log line %q: %v", line, err)
		}
		if msg, _ := m["message"].(string); strings.HasPrefix(msg, "xxl-job operation log:") {
			out = append(out, m)
		}
	}
	return out
}

// TestAuditLines: every change of a job writes one operation line, as the
// 3.4.2 admin does from 3.3.0 on (XxlJobServiceImpl.java lines 172, 312,
// 336, 384, 412, 439; JobCodeController.java line 117): the message Java
// writes, "xxl-job operation log: operator = <user>, type = <action>,
// content = <job id>", and the fields user, action and job_id.
func TestAuditLines(t *testing.T) {
	s := storetest.SQLite(t)
	var buf syncBuffer
	now := time.Date(2026, 11, 27, 10, 0, 0, 0, time.UTC)
	svc := New(Config{Store: s, Texts: i18n.Load("en"), Loc: time.UTC, Now: func() time.Time { return now },
		Log: zerolog.New(&buf)})
	ctx := WithOperator(context.Background(), "alice")

	id, err := svc.Add(ctx, formJob(1), nil)
	if err != nil {
		t.Fatal(err)
	}
	j, err := s.JobLoad(ctx, id)
	if err != nil {
		t.Fatal(err)
	}
	j.JobDesc = "rec job 2"
	steps := []struct {
		action string
		do     func() error
	}{
		{ActionJobSave, func() error { return nil }}, // the Add above
		{ActionJobUpdate, func() error { return svc.Update(ctx, j, nil) }},
		{ActionJobStart, func() error { return svc.Start(ctx, id) }},
		{ActionJobStop, func() error { return svc.Stop(ctx, id) }},
		{ActionJobTrigger, func() error { svc.AuditTrigger(ctx, id); return nil }},
		{ActionGlueUpdate, func() error { return svc.SaveGlue(ctx, id, schema.Ptr("echo hi"), schema.Ptr("v2 remark"), nil) }},
		{ActionJobRemove, func() error { return svc.Remove(ctx, id) }},
	}
	for _, st := range steps {
		if err := st.do(); err != nil {
			t.Fatalf("%s: %v", st.action, err)
		}
	}
	lines := buf.auditLines(t)
	if len(lines) != len(steps) {
		t.Fatalf("%d audit lines, want %d:\n%s", len(lines), len(steps), buf.b.String())
	}
	for i, st := range steps {
		m := lines[i]
		want := "xxl-job operation log: operator = alice, type = " + st.action + ", content = " + jsonInt(id)
		if m["message"] != want || m["user"] != "alice" || m["action"] != st.action || m["job_id"] != float64(id) || m["level"] != "info" {
			t.Errorf("line %d = %v, want message %q", i, m, want)
		}
	}
	if job, _ := lines[0]["job"].(map[string]any); job["jobDesc"] != "rec job" || job["scheduleConf"] != "0 0 1 * * ?" {
		t.Errorf("save line's job = %v", lines[0]["job"])
	}
	if lines[5]["glueSource"] != "echo hi" || lines[5]["glueRemark"] != "v2 remark" {
		t.Errorf("glue line = %v", lines[5])
	}

	// A refused change writes none; no operator named reads "(unknown)".
	before := len(buf.auditLines(t))
	if _, err := svc.Add(ctx, schema.JobInfo{JobGroup: 1}, nil); err == nil {
		t.Fatal("an empty job was added")
	}
	svc.AuditTrigger(context.Background(), 7)
	lines = buf.auditLines(t)
	if len(lines) != before+1 || lines[before]["user"] != "(unknown)" || lines[before]["job_id"] != float64(7) {
		t.Errorf("after a refusal and an anonymous trigger: %v", lines[before:])
	}
}

// TestAuditApply: an apply that creates or changes a job writes its line
// after the commit, one that keeps it and a dry run write none.
func TestAuditApply(t *testing.T) {
	s := storetest.SQLite(t)
	var buf syncBuffer
	now := time.Date(2026, 11, 27, 10, 0, 0, 0, time.UTC)
	svc := New(Config{Store: s, Texts: i18n.Load("en"), Loc: time.UTC, Now: func() time.Time { return now },
		Log: zerolog.New(&buf)})
	ctx := WithOperator(context.Background(), "pipeline")
	sp := Spec{Job: formJob(1), Key: "nightly"}
	created, err := svc.Apply(ctx, sp, Overwrite, nil)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := svc.Apply(ctx, sp, Overwrite, nil); err != nil { // kept
		t.Fatal(err)
	}
	sp.Job.ExecutorParam = schema.Ptr("x")
	if err := svc.DryRun(ctx, func(b *Batch) error { _, err := b.Apply(sp, Overwrite, nil); return err }); err != nil {
		t.Fatal(err)
	}
	if _, err := svc.Apply(ctx, sp, Overwrite, nil); err != nil { // updated
		t.Fatal(err)
	}
	lines := buf.auditLines(t)
	if len(lines) != 2 || lines[0]["action"] != ActionJobSave || lines[1]["action"] != ActionJobUpdate ||
		lines[1]["job_id"] != float64(created.ID) || lines[1]["user"] != "pipeline" {
		t.Fatalf("audit lines %v", lines)
	}
	if changed, _ := lines[1]["changed"].([]any); len(changed) != 1 || changed[0] != "executorParam" {
		t.Errorf("changed = %v", lines[1]["changed"])
	}
}

func jsonInt(n int) string { b, _ := json.Marshal(n); return string(b) }
