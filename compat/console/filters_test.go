package console

import (
	"fmt"
	"net/http"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/xxl-admin-go/xxl-admin-go/compat/schema"
	"github.com/xxl-admin-go/xxl-admin-go/internal/testsupport/storetest"
	"github.com/xxl-admin-go/xxl-admin-go/internal/testsupport/testfactory"
)

// metachars are SQL metacharacters and injection attempts, each short
// enough to fit the narrowest filtered column (xxl_job_group.title, 12)
// as "x<m>y".
var metachars = []string{"'", `"`, `\`, "%", "_", ";--", "/*", "*/", "\x00", "😀", "' OR 1=1--", "!", "[a]"}

// decoys are rows a filter interpreted as SQL or as a wildcard pattern
// would wrongly match.
var decoys = []string{"xy", "xZy", "x y", "x\\'y"}

// TestFilterMetachars: every text filter of every list endpoint takes SQL
// metacharacters (quotes, backslash, %, _, comments, NUL, emoji) literally,
// on MariaDB, PostgreSQL and SQLite: 200, and exactly the rows holding the
// literal text (PostgreSQL's text cannot hold NUL: the store writes U+FFFD
// for it, in rows and filters alike). A metacharacter in a time range is ignored like any unparsable
// time (Java's DateUtil.parseDateTime answers null); in an int parameter
// it is Spring's binding error (400), never a database error.
func TestFilterMetachars(t *testing.T) {
	storetest.ForEach(t, func(t *testing.T, s *schema.Store) {
		e := newEnv(t, s, "en", false)
		stored := func(v string) string { return v }
		if s.Backend() == schema.Postgres {
			stored = func(v string) string { return strings.ReplaceAll(v, "\x00", "\uFFFD") }
		}
		values := []string{}
		for _, m := range metachars {
			values = append(values, "x"+m+"y")
		}
		values = append(values, decoys...)
		ids := map[string]int{} // value -> job id
		for _, v := range values {
			j := testfactory.Job(t, s, testfactory.JobOpts{Desc: v, Author: v, Handler: v})
			ids[v] = j.ID
			testfactory.Group(t, s, testfactory.GroupOpts{AppName: v, Title: v})
			testfactory.User(t, s, testfactory.UserOpts{Username: v})
		}
		c := e.login("admin", "123456")

		// the rows whose field holds m, out of the values and the seed rows
		want := func(m string, seed ...string) []string {
			var out []string
			for _, v := range append(slices.Clone(values), seed...) {
				if strings.Contains(v, m) {
					out = append(out, stored(v))
				}
			}
			slices.Sort(out)
			return out
		}
		got := func(r answer, field string) []string {
			t.Helper()
			if r.status != http.StatusOK {
				t.Fatalf("status %d: %s", r.status, r.body)
			}
			var out []string
			for _, row := range r.json()["data"].([]any) {
				out = append(out, row.(map[string]any)[field].(string))
			}
			slices.Sort(out)
			return out
		}
		for _, m := range metachars {
			t.Run(fmt.Sprintf("%q", m), func(t *testing.T) {
				for _, f := range []struct{ param, field string }{
					{"jobDesc", "jobDesc"}, {"author", "author"}, {"executorHandler", "executorHandler"},
				} {
					r := c.post("/jobinfo/pageList", "jobGroup", "1", "triggerStatus", "-1", f.param, m, "start", "0", "length", "100")
					if g, w := got(r, f.field), want(m, "测试任务1", "XXL"); !slices.Equal(g, w) {
						t.Errorf("jobinfo %s=%q: %q, want %q", f.param, m, g, w)
					}
				}
				for _, f := range []struct{ param, field string }{{"appname", "appname"}, {"title", "title"}} {
					r := c.post("/jobgroup/pageList", f.param, m, "start", "0", "length", "100")
					if g, w := got(r, f.field), want(m, "xxl-job-executor-sample", "示例执行器"); !slices.Equal(g, w) {
						t.Errorf("jobgroup %s=%q: %q, want %q", f.param, m, g, w)
					}
				}
				r := c.post("/user/pageList", "username", m, "role", "-1", "start", "0", "length", "100")
				if g, w := got(r, "username"), want(m, "admin"); !slices.Equal(g, w) {
					t.Errorf("user username=%q: %q, want %q", m, g, w)
				}
			})
		}

		// time ranges and int parameters
		day := func(d int) time.Time { return time.Date(2026, 11, d, 12, 0, 0, 0, e.now.Location()) }
		testfactory.Log(t, s, testfactory.LogOpts{TriggerTime: day(20), TriggerCode: 200})
		testfactory.Log(t, s, testfactory.LogOpts{TriggerTime: day(22), TriggerCode: 200})
		logs := func(filterTime string) float64 {
			t.Helper()
			r := c.post("/joblog/pageList", "jobGroup", "0", "jobId", "0", "logStatus", "-1", "filterTime", filterTime)
			if r.status != http.StatusOK {
				t.Fatalf("filterTime %q: %d %s", filterTime, r.status, r.body)
			}
			return r.json()["recordsTotal"].(float64)
		}
		for _, m := range metachars {
			if n := logs(m); n != 2 {
				t.Errorf("filterTime %q: %v rows, want both", m, n)
			}
			if n := logs("2026-11-21 00:00:00" + m + " - 2026-11-21 00:00:00"); n != 1 {
				t.Errorf("filterTime with %q in its start: %v rows, want the one before the end", m, n)
			}
			if n := logs("2026-11-21 00:00:00 - " + m); n != 1 {
				t.Errorf("filterTime %q as its end: %v rows, want the one after the start", m, n)
			}
		}
		for _, m := range []string{"1'", "1 OR 1=1", "1;--", "1/*", "1\x00", "😀"} {
			for _, req := range [][]string{
				{"/joblog/getJobsByGroup", "jobGroup", m},
				{"/jobinfo/pageList", "jobGroup", m, "triggerStatus", "-1"},
				{"/joblog/pageList", "jobGroup", "0", "jobId", m, "logStatus", "-1"},
				{"/user/pageList", "role", m},
			} {
				if r := c.post(req[0], req[1:]...); r.status != http.StatusBadRequest {
					t.Errorf("%v: %d %s, want Spring's 400", req, r.status, r.body)
				}
			}
		}
		// getJobsByGroup of a group holding rows with metacharacters
		g := testfactory.Group(t, s, testfactory.GroupOpts{AppName: "metachar-group"})
		testfactory.Job(t, s, testfactory.JobOpts{Group: g.ID, Desc: "x';--\x00😀y"})
		r := c.post("/joblog/getJobsByGroup", "jobGroup", fmt.Sprint(g.ID))
		wantDesc := `"jobDesc":"x';--\u0000😀y"` // JSON escapes NUL
		if s.Backend() == schema.Postgres {
			wantDesc = `"jobDesc":"x';--` + "\uFFFD" + `😀y"`
		}
		if r.status != http.StatusOK || !strings.Contains(r.body, wantDesc) {
			t.Errorf("getJobsByGroup: %d %s", r.status, r.body)
		}
	})
}
