package apidiff

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/xxl-admin-go/xxl-admin-go/compat/schema"
	"github.com/xxl-admin-go/xxl-admin-go/conformance/cluster"
	"github.com/xxl-admin-go/xxl-admin-go/conformance/javaadmin"
	"github.com/xxl-admin-go/xxl-admin-go/internal/testsupport/storetest"
)

// GoldenFile holds the 2.4.2 jar's answers, by request name.
const GoldenFile = "../testdata/java-admin-api.json"

// GoldenFile342 holds the 3.4.2 jar's answers, by request name.
const GoldenFile342 = "../testdata/java-admin-3.4.2-api.json"

// envUpdate rewrites the golden files from the live Java admins.
const envUpdate = "XXL_TEST_UPDATE_GOLDEN"

// generation is one Java admin release the comparison runs against, and
// how both admins are set up for it.
type generation struct {
	name    string
	require func(testing.TB) string // the jar, or a [suite-off] skip
	// create is the schema both fresh databases are created as; our
	// admin behaves as the generation the database holds.
	create schema.Generation
	// contextPath is where both admins serve /api/ (3.4.2: the root, and
	// ours defaults to it on a 3.x database).
	contextPath string
	readyPath   string // "" for javaadmin's 2.4.2 default
	golden      string
	requests    []Request
	deviations  []Deviation
}

var (
	gen242 = generation{name: "2.4.2", require: javaadmin.Require, create: schema.Gen2,
		contextPath: javaadmin.ContextPath, golden: GoldenFile, requests: Requests(), deviations: Deviations}
	gen342 = generation{name: "3.4.2", require: javaadmin.Require342, create: schema.Gen3,
		contextPath: "", readyPath: javaadmin.ReadyPath342, golden: GoldenFile342, requests: Requests342(),
		deviations: Deviations342}
)

// TestSameAnswers sends every request of Requests to the Java admin 2.4.2
// and to ours, each on a fresh 2.x database of its own with the same log
// row 1, and wants the same status, headers and body from both; it checks
// the Java answers against GoldenFile, and that both databases end with
// the same registry rows and the same log row 1.
func TestSameAnswers(t *testing.T) { sameAnswers(t, gen242) }

// TestSameAnswers342 is TestSameAnswers against the 3.4.2 jar, both
// admins on fresh 3.x databases at the root context path, with
// Requests342 (3.4.2's check order) and GoldenFile342; the differences
// ours makes on purpose are Deviations342, reported by name.
func TestSameAnswers342(t *testing.T) { sameAnswers(t, gen342) }

func sameAnswers(t *testing.T, g generation) {
	jar := g.require(t)
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
		if s.db, err = cluster.OpenDBAs(ctx, url, user, pass, g.create); err != nil {
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
				AccessToken: Token, WorkDir: work, ReadyPath: g.readyPath}, s.out, 2*time.Minute)
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
	update := os.Getenv(envUpdate) != ""
	golden := readGolden(t, g.golden)
	answers := map[string]Answer{}
	deviations := map[string][]string{}
	for _, r := range g.requests {
		ja, err := Send(strings.TrimPrefix(java.admin.BaseURL, "http://"), g.contextPath, r)
		if err != nil {
			t.Fatalf("%s to java: %v", r.Name, err)
		}
		oa, err := Send(strings.TrimPrefix(ours.admin.BaseURL, "http://"), g.contextPath, r)
		if err != nil {
			t.Fatalf("%s to ours: %v", r.Name, err)
		}
		answers[r.Name] = ja
		d, known := DiffWith(ja, oa, r, g.deviations)
		if len(d) > 0 {
			t.Errorf("%s: java %s and ours differ: %s", r.Name, g.name, strings.Join(d, "; "))
		}
		for _, k := range known {
			if !slices.Contains(deviations[k], r.Name) {
				deviations[k] = append(deviations[k], r.Name)
			}
		}
		if gold, ok := golden[r.Name]; ok && !update {
			if d, _ := DiffWith(gold, ja, r, nil); len(d) > 0 {
				t.Errorf("%s: the Java admin no longer answers as %s says: %s (%s=1 rewrites it)", r.Name, g.golden,
					strings.Join(d, "; "), envUpdate)
			}
		} else if !ok && !update {
			t.Errorf("%s: not in %s (%s=1 writes it)", r.Name, g.golden, envUpdate)
		}
		t.Logf("%-36s %d %s %s", r.Name, ja.Status, ja.Headers["Content-Type"], ja.Body)
	}
	for why, names := range deviations {
		t.Logf("known deviation in %v (reported, not failed): %s", names, why)
	}
	if update {
		writeGolden(t, g.golden, answers)
	}
	// Java stores registrations and callbacks on a pool after answering:
	// wait until the databases agree (or report what differs).
	var jr, or string
	for deadline := time.Now().Add(10 * time.Second); ; {
		jr, or = state(ctx, t, java.db), state(ctx, t, ours.db)
		if jr == or || time.Now().After(deadline) {
			break
		}
		time.Sleep(100 * time.Millisecond)
	}
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

func readGolden(t *testing.T, path string) map[string]Answer {
	t.Helper()
	if _, err := os.Stat(path); os.IsNotExist(err) {
		return map[string]Answer{}
	}
	out, err := LoadGolden(path)
	if err != nil {
		t.Fatal(err)
	}
	return out
}

func writeGolden(t *testing.T, path string, answers map[string]Answer) {
	t.Helper()
	b, err := json.MarshalIndent(answers, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, append(b, '\n'), 0o644); err != nil {
		t.Fatal(err)
	}
	t.Logf("wrote %s", path)
}

func tailLines(s string, n int) string {
	lines := strings.Split(s, "\n")
	if len(lines) > n {
		lines = lines[len(lines)-n:]
	}
	return strings.Join(lines, "\n")
}
