package schema

import (
	"context"
	"errors"
	"os"
	"reflect"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// forEachPrepared3 is forEachBackend on a database Prepare has created as
// xxl-job 3.4.2's (spec/schema-3.4.2.sql).
func forEachPrepared3(t *testing.T, fn func(t *testing.T, s *Store)) {
	t.Helper()
	forEachBackend(t, func(t *testing.T, s *Store) {
		if _, err := s.Prepare(context.Background(), PrepareOptions{Create: Gen3}); err != nil {
			t.Fatalf("Prepare: %v", err)
		}
		fn(t, s)
	})
}

// TestPrepareCreates34 creates the 3.4.2 tables and seed rows on an empty
// database and finds them again as a 3.4 database with nothing to warn.
func TestPrepareCreates34(t *testing.T) {
	forEachBackend(t, func(t *testing.T, s *Store) {
		ctx := context.Background()
		res, err := s.Prepare(ctx, PrepareOptions{Create: Gen3})
		mustNoErr(t, err)
		if !reflect.DeepEqual(res, PrepareResult{Generation: Gen3, Created: true, PendingCreated: true}) {
			t.Fatalf("first Prepare = %+v", res)
		}
		if s.Generation() != Gen3 {
			t.Fatalf("Generation = %s", s.Generation())
		}
		res, err = s.Prepare(ctx, PrepareOptions{}) // the option only applies to an empty database
		mustNoErr(t, err)
		if !reflect.DeepEqual(res, PrepareResult{Generation: Gen3}) {
			t.Fatalf("second Prepare = %+v, want a 3.4 database without warnings", res)
		}
		if !s.shape.RegistryUnique {
			t.Error("the 3.4 registry key is not unique")
		}

		groups, err := s.GroupFindAll(ctx)
		mustNoErr(t, err)
		var titles []string
		for _, g := range groups {
			titles = append(titles, g.AppName+"="+g.Title)
		}
		if want := []string{"xxl-job-executor-sample=通用执行器Sample", "xxl-job-executor-sample-ai=AI执行器Sample"}; !slices.Equal(titles, want) {
			t.Errorf("groups = %q, want %q", titles, want)
		}
		jobs, total, err := s.JobPageList(ctx, 0, 10, JobFilter{})
		mustNoErr(t, err)
		if total != 4 {
			t.Fatalf("%d seed jobs, want 4 (spec/schema-3.4.2.sql)", total)
		}
		for _, j := range jobs {
			if j.ID == 3 && (j.ExecutorParam == nil || !strings.Contains(*j.ExecutorParam, `"baseUrl": "http://localhost/v1"`)) {
				t.Errorf("Dify sample parameter = %v", j.ExecutorParam)
			}
		}
		u, err := s.UserLoadByName(ctx, "admin")
		mustNoErr(t, err)
		// SHA-256 of 123456, as the 3.4.2 script and Sha256Tool write it.
		if u.Password != "8d969eef6ecad3c29a3a629280e686cf0c3f5d5a86aff3ca12020c923adc6c92" || u.Token != nil {
			t.Errorf("admin = %+v", u)
		}
		n, err := s.UserUpdateToken(ctx, u.ID, "0123456789abcdef0123456789abcdef")
		mustNoErr(t, err)
		u2, err := s.UserLoadByID(ctx, u.ID)
		mustNoErr(t, err)
		if n != 1 || u2.Token == nil || *u2.Token != "0123456789abcdef0123456789abcdef" {
			t.Errorf("token after update = %v (%d rows)", u2.Token, n)
		}
		// A new password ends the user's sessions (the token is cleared).
		u2.Password = strings.Repeat("a", 64)
		_, err = s.UserUpdate(ctx, u2)
		mustNoErr(t, err)
		u3, err := s.UserLoadByID(ctx, u.ID)
		mustNoErr(t, err)
		if u3.Token == nil || *u3.Token != "" {
			t.Errorf("token after a password change = %v, want empty", u3.Token)
		}
	})
}

// TestUserTokenOn24 checks the token statements refuse a 2.4 database
// clearly instead of failing on a missing column.
func TestUserTokenOn24(t *testing.T) {
	forEachPrepared(t, func(t *testing.T, s *Store) {
		if _, err := s.UserUpdateToken(context.Background(), 1, "x"); err == nil || !strings.Contains(err.Error(), "no token column") {
			t.Errorf("UserUpdateToken on 2.4 = %v", err)
		}
	})
}

// javaScript34 is the 3.4.2 release's doc/db/tables_xxl_job.sql
// (spec/schema-3.4.2.sql) as statements, without its CREATE DATABASE / use
// lines, so it can run in a test database.
func javaScript34(t *testing.T) []string {
	t.Helper()
	raw, err := os.ReadFile("testdata/tables_xxl_job-3.4.2.sql")
	mustNoErr(t, err)
	var out []string
	for _, stmt := range strings.SplitAfter(string(raw), ";\n") {
		var lines []string
		for _, line := range strings.Split(stmt, "\n") {
			if trimmed := strings.TrimSpace(line); trimmed == "" || strings.HasPrefix(trimmed, "#") {
				continue
			}
			lines = append(lines, line)
		}
		stmt = strings.TrimSuffix(strings.TrimSpace(strings.Join(lines, "\n")), ";")
		lower := strings.ToLower(stmt)
		if stmt == "" || strings.HasPrefix(lower, "create database") || strings.HasPrefix(lower, "use ") || lower == "commit" {
			continue
		}
		out = append(out, stmt)
	}
	return out
}

// TestCreate34MatchesJavaScript compares, on MySQL/MariaDB, the tables our
// 3.4 creation makes with those the 3.4.2 release's own script makes:
// every column's type, nullability and default, and every index.
func TestCreate34MatchesJavaScript(t *testing.T) {
	if os.Getenv(mysqlDSNEnv) == "" {
		t.Skip(mysqlDSNEnv + " not set")
	}
	t.Parallel()
	ours, java := openMySQL(t), openMySQL(t)
	// Our own table is left out: the comparison is of Java's tables
	// (TestPendingTablePrepared covers ours beside them).
	_, err := ours.Prepare(context.Background(), PrepareOptions{Create: Gen3, SkipPendingTable: true})
	mustNoErr(t, err)
	for _, stmt := range javaScript34(t) {
		rawExec(t, java, stmt)
	}
	describe := func(s *Store) []string {
		var out []string
		rows, err := s.db.Query(`SELECT table_name, column_name, column_type, is_nullable, COALESCE(column_default, 'NULL'), extra
			FROM information_schema.columns WHERE table_schema = DATABASE() ORDER BY table_name, column_name`)
		mustNoErr(t, err)
		for rows.Next() {
			var c [6]string
			mustNoErr(t, rows.Scan(&c[0], &c[1], &c[2], &c[3], &c[4], &c[5]))
			out = append(out, strings.Join(c[:], " "))
		}
		mustNoErr(t, rows.Err())
		rows, err = s.db.Query(`SELECT table_name, index_name, seq_in_index, column_name, non_unique
			FROM information_schema.statistics WHERE table_schema = DATABASE() ORDER BY table_name, index_name, seq_in_index`)
		mustNoErr(t, err)
		for rows.Next() {
			var c [5]string
			mustNoErr(t, rows.Scan(&c[0], &c[1], &c[2], &c[3], &c[4]))
			out = append(out, "index "+strings.Join(c[:], " "))
		}
		return out
	}
	got, want := describe(ours), describe(java)
	if !slices.Equal(got, want) {
		t.Errorf("our 3.4 schema differs from the 3.4.2 script's:\nours: %q\njava: %q", got, want)
	}
	// And the script's database is a 3.4 database to Prepare, with
	// nothing to warn about.
	res, err := java.Prepare(context.Background(), PrepareOptions{})
	mustNoErr(t, err)
	if !reflect.DeepEqual(res, PrepareResult{Generation: Gen3, PendingCreated: true}) {
		t.Errorf("Prepare of the 3.4.2 script's database = %+v", res)
	}
}

// createByHand34 makes the 3.4.2 tables without seed rows, with optional
// edits of the statements.
func createByHand34(t *testing.T, s *Store, edit func(stmt string) string) {
	t.Helper()
	for _, stmt := range s.d.createTables(Gen3) {
		if edit != nil {
			stmt = edit(stmt)
		}
		if stmt != "" {
			rawExec(t, s, stmt)
		}
	}
}

// TestPrepare34AsUpgradedUpstream: a 3.x database upgraded by the
// upstream release notes alone (3.2.0's user columns, 3.4.0's widenings and
// I_jobgroup, but not I_jobid nor the unique registry key) is a 3.4
// database; what it lacks is named in warnings, and registrations then
// insert without the upsert.
func TestPrepare34AsUpgradedUpstream(t *testing.T) {
	forEachBackend(t, func(t *testing.T, s *Store) {
		unique := regexp.MustCompile(`(?i)UNIQUE (KEY|INDEX)( IF NOT EXISTS)? .?i_g_k_v`)
		createByHand34(t, s, func(stmt string) string {
			if strings.Contains(stmt, "I_jobid ON") {
				return ""
			}
			stmt = strings.Replace(stmt, ", KEY `I_jobid` (`job_id`)", "", 1)
			return unique.ReplaceAllStringFunc(stmt, func(m string) string {
				return regexp.MustCompile(`(?i)UNIQUE `).ReplaceAllString(m, "")
			})
		})
		res, err := s.Prepare(context.Background(), PrepareOptions{})
		mustNoErr(t, err)
		if res.Generation != Gen3 || s.shape.RegistryUnique {
			t.Fatalf("Prepare = %+v, unique %v", res, s.shape.RegistryUnique)
		}
		joined := strings.Join(res.Warnings, "\n")
		for _, want := range []string{"lacks the index i_jobid", "i_g_k_v is not unique"} {
			if !strings.Contains(joined, want) {
				t.Errorf("warnings %q lack %q", res.Warnings, want)
			}
		}
		ctx := context.Background()
		for range 2 {
			_, err := s.RegistryUpsert(ctx, "EXECUTOR", "app", "http://a:9999/", at(s, 2024, 1, 1, 0, 0, 0))
			mustNoErr(t, err)
		}
		if got := rawString(t, s, "SELECT CAST(count(1) AS CHAR) FROM xxl_job_registry"); *got != "1" {
			t.Errorf("%s registry rows after two beats", *got)
		}
	})
}

// TestPrepare34Narrower: a 3.x database whose columns are narrower than
// 3.4.2's (a 3.2/3.3 schema that skipped 3.4.0's notes) is accepted with a
// warning per column; a token column beside a password column too narrow
// for SHA-256 is a half-upgraded database and refused.
func TestPrepare34Narrower(t *testing.T) {
	forEachBackend(t, func(t *testing.T, s *Store) {
		title := regexp.MustCompile("(`?title`?) varchar\\(64\\)")
		createByHand34(t, s, func(stmt string) string { return title.ReplaceAllString(stmt, "$1 varchar(12)") })
		res, err := s.Prepare(context.Background(), PrepareOptions{})
		mustNoErr(t, err)
		if len(res.Warnings) != 1 {
			t.Errorf("warnings = %q, want one", res.Warnings)
		}
		want := "column xxl_job_group.title is varchar(12), xxl-job 3.4.2 declares varchar(64) (longer values are refused; `xxl-admin-go db upgrade --to 3.4` widens it)"
		if !slices.Contains(res.Warnings, want) {
			t.Errorf("warnings %q lack %q", res.Warnings, want)
		}
	})
}

// TestPrepareRefusesUnknownColumns: a column neither generation has stops
// the admin, naming it, unless allowed.
func TestPrepareRefusesUnknownColumns(t *testing.T) {
	forEachBackend(t, func(t *testing.T, s *Store) {
		createByHand(t, s, nil)
		rawExec(t, s, "ALTER TABLE xxl_job_info ADD COLUMN team_owner varchar(64) DEFAULT NULL")
		_, err := s.Prepare(context.Background(), PrepareOptions{})
		if !errors.Is(err, ErrUnsupportedSchema) || !strings.Contains(err.Error(), "table xxl_job_info has a column team_owner that neither xxl-job 2.4 nor 3.4 has") {
			t.Fatalf("Prepare = %v", err)
		}
		res, err := s.Prepare(context.Background(), PrepareOptions{AllowUnknownColumns: true})
		mustNoErr(t, err)
		if !slices.Contains(res.Warnings, "table xxl_job_info has a column team_owner that no xxl-job release has (accepted: xxl.job.schema.allow-unknown-columns)") {
			t.Errorf("warnings = %q", res.Warnings)
		}
	})
}

// TestPrepareRefusesHalfUpgraded34: the token column of 3.2.0 added
// without widening the password column cannot store a SHA-256 hash.
func TestPrepareRefusesHalfUpgraded34(t *testing.T) {
	forEachBackend(t, func(t *testing.T, s *Store) {
		createByHand(t, s, nil)
		rawExec(t, s, "ALTER TABLE xxl_job_user ADD COLUMN token varchar(100) DEFAULT NULL")
		_, err := s.Prepare(context.Background(), PrepareOptions{})
		if !errors.Is(err, ErrUnsupportedSchema) || !strings.Contains(err.Error(), "column xxl_job_user.password is varchar(50) beside the 3.x token column") {
			t.Fatalf("Prepare = %v", err)
		}
	})
}
