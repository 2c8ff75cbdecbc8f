package app

import (
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/rs/zerolog"

	"github.com/xxl-admin-go/xxl-admin-go/core/jobs"
	"github.com/xxl-admin-go/xxl-admin-go/core/transfer"
)

// TestImportProgressLine: on a terminal the line is redrawn at most once
// a second and not in the first second, then cleared; elsewhere nothing is
// written.
func TestImportProgressLine(t *testing.T) {
	for _, terminal := range []bool{true, false} {
		start := time.Date(2026, 11, 29, 2, 0, 0, 0, time.UTC)
		now := start
		var b strings.Builder
		line := newProgressLine(&b, terminal, time.Second, func() time.Time { return now })
		progress := importProgress(line, start)
		for _, step := range []struct {
			after time.Duration
			p     transfer.ImportProgress
		}{
			{0, transfer.ImportProgress{Pass: 1, Done: 0, Total: 5000}},
			{500 * time.Millisecond, transfer.ImportProgress{Pass: 1, Done: 900, Total: 5000}},
			{1200 * time.Millisecond, transfer.ImportProgress{Pass: 1, Done: 2000, Total: 5000}},
			{1700 * time.Millisecond, transfer.ImportProgress{Pass: 1, Done: 3000, Total: 5000}},
			{3100 * time.Millisecond, transfer.ImportProgress{Pass: 2, Done: 100, Total: 5000}},
		} {
			now = start.Add(step.after)
			progress(step.p)
		}
		line.Clear()
		want := "\rjobs import: pass 1/2, creating the new jobs: 2000 of 5000 jobs, 1s\033[K" +
			"\rjobs import: pass 2/2, writing every job: 100 of 5000 jobs, 3s\033[K\r\033[K"
		if !terminal {
			want = ""
		}
		if got := b.String(); got != want {
			t.Errorf("terminal %v: %q, want %q", terminal, got, want)
		}
	}
}

// TestLogImport: the summary line has the mode, each kind's outcome
// counts and the time taken, at info level under a warn-level log.
func TestLogImport(t *testing.T) {
	var b strings.Builder
	log := zerolog.New(&b).Level(zerolog.WarnLevel)
	rep := transfer.Report{Mode: transfer.Merge, Changes: []transfer.Change{
		{Kind: "group", Outcome: jobs.Created}, {Kind: "job", Outcome: jobs.Created}, {Kind: "job", Outcome: jobs.Created},
		{Kind: "job", Outcome: jobs.Kept}, {Kind: "job", Outcome: jobs.Unchanged},
	}}
	logImport(log, rep, 2500*time.Millisecond)
	var got map[string]any
	if err := json.Unmarshal([]byte(b.String()), &got); err != nil {
		t.Fatalf("%q: %v", b.String(), err)
	}
	want := map[string]any{"level": "info", "message": "jobs import", "mode": "merge", "dry_run": false, "seconds": 2.5,
		"groups_created": 1.0, "groups_updated": 0.0, "groups_unchanged": 0.0, "groups_kept": 0.0,
		"jobs_created": 2.0, "jobs_updated": 0.0, "jobs_unchanged": 1.0, "jobs_kept": 1.0,
		"workflows_created": 0.0, "workflows_updated": 0.0, "workflows_unchanged": 0.0, "workflows_kept": 0.0}
	for k, v := range want {
		if got[k] != v {
			t.Errorf("%s = %v, want %v (line %s)", k, got[k], v, b.String())
		}
	}
	if len(got) != len(want) {
		t.Errorf("fields %v, want %v", got, want)
	}
}
