package app_test

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/xxl-admin-go/xxl-admin-go/app"
	"github.com/xxl-admin-go/xxl-admin-go/compat/schema"
	"github.com/xxl-admin-go/xxl-admin-go/internal/testsupport/storetest"
	"github.com/xxl-admin-go/xxl-admin-go/internal/testsupport/testfactory"
)

// database is a fresh database's command-line options, for each backend.
type database struct {
	name string
	args func(t *testing.T) []string
}

var databases = []database{
	{"sqlite", func(t *testing.T) []string {
		return []string{"--spring.datasource.url=" + storetest.SQLiteURL(t, "")}
	}},
	{"mysql", func(t *testing.T) []string {
		url, user, pass := storetest.MySQLURL(t)
		return []string{"--spring.datasource.url=" + url, "--spring.datasource.username=" + user, "--spring.datasource.password=" + pass}
	}},
	{"postgres", func(t *testing.T) []string {
		url, user, pass := storetest.PostgresURL(t)
		return []string{"--spring.datasource.url=" + url, "--spring.datasource.username=" + user, "--spring.datasource.password=" + pass}
	}},
}

func runMain(t *testing.T, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	var out, errOut bytes.Buffer
	code = app.Main(args, &out, &errOut)
	return code, out.String(), errOut.String()
}

// TestJobsExportImport runs `jobs export` on one database and `jobs
// import` (dry run, real, again) on a new one with the same options the
// server takes: the copy's export is the source's.
func TestJobsExportImport(t *testing.T) {
	for _, db := range databases {
		t.Run(db.name, func(t *testing.T) {
			src, dst := db.args(t), db.args(t)
			s := storetest.Open(t, strings.TrimPrefix(src[0], "--spring.datasource.url="), user(src), pass(src))
			g := testfactory.Group(t, s, testfactory.GroupOpts{AppName: "app-orders", Title: "Orders", AddressType: 1,
				AddressList: schema.Ptr("http://10.0.0.1:9999/")})
			testfactory.Job(t, s, testfactory.JobOpts{Group: g.ID, Desc: "cleanup [key:orders/cleanup]", GlueType: "GLUE_SHELL",
				GlueSource: "#!/bin/bash\necho clean\n", ScheduleType: "CRON", ScheduleConf: "0 0 3 * * ?"})

			code, exported, stderr := runMain(t, append([]string{"jobs", "export"}, src...)...)
			if code != 0 {
				t.Fatalf("export: %d %s", code, stderr)
			}
			file := filepath.Join(t.TempDir(), "jobs.json")
			if err := os.WriteFile(file, []byte(exported), 0o600); err != nil {
				t.Fatal(err)
			}
			code, out, stderr := runMain(t, append([]string{"jobs", "import", "--dry-run", file}, dst...)...)
			want := "dry run, mode merge: nothing was written\n" +
				"group created   app-orders\n" +
				"group unchanged xxl-job-executor-sample (id 1)\n" +
				"job   created   key \"orders/cleanup\"\n" +
				"job   unchanged xxl-job-executor-sample / demoJobHandler / \"测试任务1\" (id 1)\n" +
				"groups: 1 created, 1 unchanged\njobs: 1 created, 1 unchanged\n"
			if code != 0 || out != want {
				t.Fatalf("dry run: %d %s\n%s", code, stderr, out)
			}
			if code, out, stderr = runMain(t, append([]string{"jobs", "import", "--mode=overwrite", file}, dst...)...); code != 0 ||
				!strings.HasSuffix(out, "jobs: 1 created, 1 unchanged\n") {
				t.Fatalf("import: %d %s\n%s", code, stderr, out)
			}
			if code, out, _ = runMain(t, append([]string{"jobs", "import", file}, dst...)...); code != 0 ||
				!strings.HasSuffix(out, "groups: 2 unchanged\njobs: 2 unchanged\n") {
				t.Fatalf("second import: %d\n%s", code, out)
			}
			_, copied, _ := runMain(t, append([]string{"jobs", "export"}, dst...)...)
			if withoutTime(t, copied) != withoutTime(t, exported) {
				t.Errorf("copy's export differs:\n%s\nvs\n%s", copied, exported)
			}
			_, one, _ := runMain(t, append([]string{"jobs", "export", "--group", "app-orders"}, src...)...)
			if strings.Contains(one, "测试任务1") || !strings.Contains(one, "orders/cleanup") {
				t.Errorf("--group export: %s", one)
			}
		})
	}
}

func user(args []string) string { return optionValue(args, "--spring.datasource.username=") }
func pass(args []string) string { return optionValue(args, "--spring.datasource.password=") }

func optionValue(args []string, prefix string) string {
	for _, a := range args {
		if v, ok := strings.CutPrefix(a, prefix); ok {
			return v
		}
	}
	return ""
}

// withoutTime is an export without its exportedAt.
func withoutTime(t *testing.T, doc string) string {
	t.Helper()
	var m map[string]any
	if err := json.Unmarshal([]byte(doc), &m); err != nil {
		t.Fatalf("not JSON: %q", doc)
	}
	delete(m, "exportedAt")
	b, _ := json.Marshal(m)
	return string(b)
}

// TestJobsRefused: usage errors exit 2, a refused document 1 with the
// console's message naming the job, and nothing is written.
func TestJobsRefused(t *testing.T) {
	db := []string{"--spring.datasource.url=" + storetest.SQLiteURL(t, "")}
	for _, args := range [][]string{{"jobs"}, {"jobs", "sync"}, {"jobs", "import"}, {"jobs", "import", "--mode", "replace", "f.json"},
		{"jobs", "export", "f.json"}, {"jobs", "import", "--group", "x", "f.json"}} {
		if code, _, stderr := runMain(t, args...); code != 2 || !strings.Contains(stderr, "usage:") {
			t.Errorf("%v: %d %s", args, code, stderr)
		}
	}
	if code, out, _ := runMain(t, "jobs", "--help"); code != 0 || !strings.Contains(out, "jobs import") {
		t.Errorf("help: %d", code)
	}
	file := filepath.Join(t.TempDir(), "bad.json")
	_ = os.WriteFile(file, []byte(`{"format":"xxl-admin-go/jobs","version":1,"groups":[{"appname":"app-new","title":"New","addressType":0,"addressList":[]}],
		"jobs":[{"group":"app-new","jobDesc":"x","author":"me","scheduleType":"CRON","scheduleConf":"bad","misfireStrategy":"DO_NOTHING",
		"executorRouteStrategy":"FIRST","executorHandler":"h","executorBlockStrategy":"SERIAL_EXECUTION","glueType":"BEAN","childJobs":[],"running":false}]}`), 0o600)
	code, _, stderr := runMain(t, append([]string{"jobs", "import", file, "--xxl.job.i18n=en"}, db...)...)
	if code != 1 || stderr != "jobs import: job 1 (app-new / h / \"x\"): Cronillegal\n" {
		t.Errorf("refused: %d %q", code, stderr)
	}
	_, exported, _ := runMain(t, append([]string{"jobs", "export"}, db...)...)
	if strings.Contains(exported, "app-new") {
		t.Error("a refused import wrote its group")
	}
	if code, _, stderr := runMain(t, append([]string{"jobs", "export", "--group", "nope"}, db...)...); code != 1 || !strings.Contains(stderr, "no such executor group") {
		t.Errorf("unknown group: %d %s", code, stderr)
	}
}
