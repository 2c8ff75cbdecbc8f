package console

import (
	"encoding/json"
	"net/http"
	"strings"
	"testing"

	"github.com/xxl-admin-go/xxl-admin-go/compat/schema"
	"github.com/xxl-admin-go/xxl-admin-go/internal/testsupport/storetest"
)

// postJSON sends a JSON body the way the job list's import button does.
func (c *client) postJSON(path, body string) answer {
	c.e.t.Helper()
	req, _ := http.NewRequest(http.MethodPost, c.e.srv.URL+ctxPath+path, strings.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("X-Requested-With", "XMLHttpRequest")
	return c.do(req)
}

// TestExportImport: the job list's export downloads the document of the
// user's groups; an admin's import (dry run, then real) answers the report
// in a ReturnT, a refused document the message naming the job; a normal
// user may not import.
func TestExportImport(t *testing.T) {
	storetest.ForEach(t, func(t *testing.T, s *schema.Store) {
		e := newEnv(t, s, "en", false)
		f := seed(t, s)
		admin := e.login("admin", "123456")
		r := admin.get("/jobinfo/export")
		if r.status != 200 || !strings.HasPrefix(r.header.Get("Content-Disposition"), `attachment; filename="xxl-job-jobs-20261123-070228.json"`) {
			t.Fatalf("export: %d %v", r.status, r.header)
		}
		var doc struct {
			Format string
			Groups []map[string]any
			Jobs   []map[string]any
		}
		if err := json.Unmarshal([]byte(r.body), &doc); err != nil || doc.Format != "xxl-admin-go/jobs" || len(doc.Groups) != 3 || len(doc.Jobs) != 3 {
			t.Fatalf("document %s", r.body)
		}
		normal := e.login("normal1", "123456")
		if r := normal.get("/jobinfo/export"); !strings.Contains(r.body, `"jobs": [`) || strings.Count(r.body, `"appname"`) != 1 {
			t.Errorf("normal user's export: %s", r.body)
		}
		if r := normal.getAJAX("/jobinfo/export?jobGroup=" + itoa(f.g3.ID)); !strings.Contains(r.body, "Permission limit[username=normal1]") {
			t.Errorf("foreign group: %s", r.body)
		}
		if r := normal.postJSON("/jobinfo/import", `{}`); r.msg() != "java.lang.RuntimeException: Permission limit" {
			t.Errorf("normal user's import: %s", r.body)
		}

		in := `{"format":"xxl-admin-go/jobs","version":1,"groups":[{"appname":"app-new","title":"New","addressType":0,"addressList":[]}],
			"jobs":[{"group":"app-new","jobDesc":"imported","author":"me","scheduleType":"CRON","scheduleConf":"0 0 1 * * ?",
			"misfireStrategy":"DO_NOTHING","executorRouteStrategy":"FIRST","executorHandler":"h","executorBlockStrategy":"SERIAL_EXECUTION",
			"glueType":"BEAN","childJobs":[],"running":false}]}`
		r = admin.postJSON("/jobinfo/import?dryRun=true", in)
		content, _ := r.json()["content"].(map[string]any)
		if r.json()["code"] != float64(200) || content["dryRun"] != true || len(content["changes"].([]any)) != 2 {
			t.Fatalf("dry run: %s", r.body)
		}
		if r := admin.postJSON("/jobinfo/import?mode=overwrite", in); r.json()["code"] != float64(200) {
			t.Fatalf("import: %s", r.body)
		}
		if r := admin.postJSON("/jobinfo/import?mode=overwrite", strings.Replace(in, "0 0 1 * * ?", "bad", 1)); r.body != `{"code":500,"msg":"job 1 (app-new / h / \"imported\"): Cronillegal","content":null}` {
			t.Errorf("refused: %s", r.body)
		}
		if r := admin.postJSON("/jobinfo/import?mode=replace", in); r.msg() != `import mode "replace": use merge or overwrite` {
			t.Errorf("bad mode: %s", r.body)
		}
		if r := admin.postJSON("/jobinfo/import", `{"format":"x"}`); r.msg() != `not a jobs document: format "x", want "xxl-admin-go/jobs"` {
			t.Errorf("not a document: %s", r.body)
		}
	})
}
