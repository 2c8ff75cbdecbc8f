package apidiff

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/xxl-admin-go/xxl-admin-go/compat/schema"
	"github.com/xxl-admin-go/xxl-admin-go/conformance/cluster"
	"github.com/xxl-admin-go/xxl-admin-go/conformance/javaadmin"
	"github.com/xxl-admin-go/xxl-admin-go/internal/testsupport/storetest"
)

// GoldenFile holds the Java admin's answers, by request name.
const GoldenFile = "../testdata/java-admin-api.json"

// envUpdate rewrites GoldenFile from the live Java admin.
const envUpdate = "XXL_TEST_UPDATE_GOLDEN"

// TestSameAnswers sends every request of Requests to the Java admin and to
// ours, each on a fresh database of its own with the same log row 1, and
// wants the same status, headers and body from both; it checks the Java
// answers against GoldenFile, and that both databases end with the same
// registry rows and the same log row 1.
func TestSameAnswers(t *testing.T) {
	jar := javaadmin.Require(t)
	if os.Getenv(storetest.EnvMySQL) == "" {
		t.Skip("[suite-off] the API comparison needs " + storetest.EnvMySQL)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 4*time.Minute)
	defer cancel()
	bin, err := cluster.BuildAdmin(ctx, t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	type side struct {
		target javaadmin.Target
		db     *cluster.DB
		admin  *javaadmin.Admin
		out    *os.File
		err    error
	}
	sides := []*side{{target: javaadmin.Java{Jar: jar}}, {target: javaadmin.Ours{Bin: bin}}}
	done := make(chan *side, len(sides))
	for _, s := range sides {
		url, user, pass := storetest.MySQLURLZone(t, javaadmin.Zone)
		url += "&useUnicode=true&characterEncoding=UTF-8"
		if s.db, err = cluster.OpenDB(ctx, url, user, pass); err != nil {
			t.Fatal(err)
		}
		t.Cleanup(s.db.Close)
		now := time.Now().Truncate(time.Second)
		if _, err := s.db.Store.LogSave(ctx, schema.JobLog{JobGroup: 1, JobID: 1, TriggerTime: &now, TriggerCode: 200}); err != nil {
			t.Fatal(err)
		}
		work := t.TempDir()
		if s.out, err = os.Create(filepath.Join(work, "admin.log")); err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { s.out.Close() })
		go func() {
			s.admin, s.err = javaadmin.Start(ctx, s.target, javaadmin.Settings{DatasourceURL: url, User: user, Password: pass,
				AccessToken: Token, WorkDir: work}, s.out, 2*time.Minute)
			done <- s
		}()
	}
	for range sides {
		if s := <-done; s.err != nil {
			t.Error(s.err)
		} else {
			t.Cleanup(s.admin.Kill)
		}
	}
	if t.Failed() {
		return
	}
	java, ours := sides[0], sides[1]
	golden := readGolden(t)
	answers := map[string]Answer{}
	deviations := map[string]int{}
	for _, r := range Requests() {
		ja, err := Send(strings.TrimPrefix(java.admin.BaseURL, "http://"), javaadmin.ContextPath, r)
		if err != nil {
			t.Fatalf("%s to java: %v", r.Name, err)
		}
		oa, err := Send(strings.TrimPrefix(ours.admin.BaseURL, "http://"), javaadmin.ContextPath, r)
		if err != nil {
			t.Fatalf("%s to ours: %v", r.Name, err)
		}
		answers[r.Name] = ja
		d, known := Diff(ja, oa, r.CodeOnly)
		if len(d) > 0 {
			t.Errorf("%s: java and ours differ: %s", r.Name, strings.Join(d, "; "))
		}
		for _, k := range known {
			deviations[k]++
		}
		if g, ok := golden[r.Name]; ok && os.Getenv(envUpdate) == "" {
			if d, _ := Diff(g, ja, r.CodeOnly); len(d) > 0 {
				t.Errorf("%s: the Java admin no longer answers as %s says: %s (%s=1 rewrites it)", r.Name, GoldenFile,
					strings.Join(d, "; "), envUpdate)
			}
		} else if !ok && os.Getenv(envUpdate) == "" {
			t.Errorf("%s: not in %s (%s=1 writes it)", r.Name, GoldenFile, envUpdate)
		}
		t.Logf("%-30s %d %s", r.Name, ja.Status, ja.Body)
	}
	for why, n := range deviations {
		t.Logf("known deviation in %d answers (reported, not failed): %s", n, why)
	}
	if os.Getenv(envUpdate) != "" {
		writeGolden(t, answers)
	}
	// Java handles callbacks on a pool after answering: give it a moment.
	time.Sleep(time.Second)
	jr, or := state(ctx, t, java.db), state(ctx, t, ours.db)
	if jr != or {
		t.Errorf("the databases differ after the requests:\n  java: %s\n  ours: %s", jr, or)
	}
	if t.Failed() {
		for _, s := range sides {
			b, _ := os.ReadFile(s.out.Name())
			t.Logf("%s output:\n%s", s.target.Name(), tailLines(string(b), 30))
		}
	}
}

// state is what the requests may have changed: registry rows and log 1.
func state(ctx context.Context, t *testing.T, db *cluster.DB) string {
	t.Helper()
	var b strings.Builder
	rows, err := db.SQL.QueryContext(ctx, "SELECT registry_group, registry_key, registry_value FROM xxl_job_registry ORDER BY id")
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	for rows.Next() {
		var g, k, v string
		if err := rows.Scan(&g, &k, &v); err != nil {
			t.Fatal(err)
		}
		fmt.Fprintf(&b, "registry %s/%s/%s; ", g, k, v)
	}
	var code int
	var msg *string
	if err := db.SQL.QueryRowContext(ctx, "SELECT handle_code, handle_msg FROM xxl_job_log WHERE id = 1").Scan(&code, &msg); err != nil {
		t.Fatal(err)
	}
	m := "NULL"
	if msg != nil {
		m = *msg
	}
	fmt.Fprintf(&b, "log 1 handle %d %q", code, m)
	return b.String()
}

func readGolden(t *testing.T) map[string]Answer {
	t.Helper()
	if _, err := os.Stat(GoldenFile); os.IsNotExist(err) {
		return map[string]Answer{}
	}
	out, err := LoadGolden(GoldenFile)
	if err != nil {
		t.Fatal(err)
	}
	return out
}

func writeGolden(t *testing.T, answers map[string]Answer) {
	t.Helper()
	b, err := json.MarshalIndent(answers, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(GoldenFile, append(b, '\n'), 0o644); err != nil {
		t.Fatal(err)
	}
	t.Logf("wrote %s", GoldenFile)
}

func tailLines(s string, n int) string {
	lines := strings.Split(s, "\n")
	if len(lines) > n {
		lines = lines[len(lines)-n:]
	}
	return strings.Join(lines, "\n")
}
