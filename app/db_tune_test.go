package app_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/xxl-admin-go/xxl-admin-go/compat/schema"
)

// TestDBTune runs `db tune` on a 2.4 database of every backend: it prints
// 3.4.2's two log indexes with the backend's DDL (online on MariaDB and
// PostgreSQL) and changes nothing; --apply builds them with the table in
// use, and a second run has nothing to do.
func TestDBTune(t *testing.T) {
	ddl := map[string][]string{
		"sqlite":   {"CREATE INDEX IF NOT EXISTS I_jobid ON xxl_job_log (job_id);", "the database refuses writes while it builds"},
		"mysql":    {"ALTER TABLE xxl_job_log ADD INDEX I_jobid (job_id), ALGORITHM=INPLACE, LOCK=NONE;", "ALTER TABLE xxl_job_log ADD INDEX I_jobgroup (job_group), ALGORITHM=INPLACE, LOCK=NONE;", "the table stays readable and writable"},
		"postgres": {"CREATE INDEX CONCURRENTLY IF NOT EXISTS i_jobid ON xxl_job_log (job_id);", "CREATE INDEX CONCURRENTLY IF NOT EXISTS i_jobgroup ON xxl_job_log (job_group);", "the table stays readable and writable"},
	}
	for _, db := range databases {
		t.Run(db.name, func(t *testing.T) {
			t.Parallel()
			args := db.args(t)
			s := open24(t, args)
			ctx := context.Background()
			now := time.Now()
			for i := range 30 {
				if _, err := s.LogSave(ctx, schema.JobLog{JobGroup: 1, JobID: 1 + i%3, TriggerTime: &now}); err != nil {
					t.Fatal(err)
				}
			}
			run := func(words ...string) (int, string, string) { return runMain(t, append(words, args...)...) }
			code, out, stderr := run("db", "tune")
			if code != 0 || !strings.Contains(out, "index I_jobid (job_id), as xxl-job 3.4.2 has it") ||
				!strings.Contains(out, "index I_jobgroup (job_group)") || !strings.Contains(out, "nothing changed: run `xxl-admin-go db tune --apply`") {
				t.Fatalf("db tune: %d %s\n%s", code, stderr, out)
			}
			for _, want := range ddl[db.name] {
				if !strings.Contains(out, want) {
					t.Errorf("db tune lacks %q:\n%s", want, out)
				}
			}
			if code, out, _ := run("db", "tune"); code != 0 || !strings.Contains(out, "index I_jobid") {
				t.Fatalf("db tune changed the database: %s", out)
			}
			code, out, stderr = run("db", "tune", "--apply")
			if code != 0 || !strings.Contains(out, "built I_jobid in ") || !strings.Contains(out, "built I_jobgroup in ") {
				t.Fatalf("db tune --apply: %d %s\n%s", code, stderr, out)
			}
			code, out, _ = run("db", "tune")
			if code != 0 || !strings.Contains(out, "present: I_jobid\npresent: I_jobgroup\nnothing to do") {
				t.Fatalf("db tune after --apply: %d %s", code, out)
			}
			// The admin still reads the database as a 2.4 one.
			if code, out, _ := run("db", "check"); code != 0 || !strings.Contains(out, "schema: 2.4") || !strings.Contains(out, "warnings: none") {
				t.Errorf("db check after tune: %d %s", code, out)
			}
		})
	}
	if code, _, stderr := runMain(t, "db", "tune", "--dry-run"); code != 2 || !strings.Contains(stderr, "tune takes only --apply") {
		t.Errorf("tune --dry-run: %d %s", code, stderr)
	}
}
