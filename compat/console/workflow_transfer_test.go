package console

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"github.com/xxl-admin-go/xxl-admin-go/core/workflow"
)

// TestWorkflowExport: with workflows on, the job list's export carries the
// group's workflows with its jobs (as `jobs export` and the job API do) and
// its import brings them into another admin; with them off the export
// carries none and the document is what it was.
func TestWorkflowExport(t *testing.T) {
	bothConsoles(t, func(t *testing.T, gen3 bool) {
		for _, on := range []bool{true, false} {
			e := newWfEnv(t, gen3, on)
			admin := e.login("admin")
			if on {
				if id, body := admin.save(e.g2.ID, "nightly etl", []string{"1:" + itoa(e.j2a.ID) + ":extract", "2:" + itoa(e.j2b.ID) + ":load"}, "1 -> 2"); id == 0 {
					t.Fatalf("save refused: %s", body)
				}
			}
			path := ctxPath + "/jobinfo/export"
			if gen3 {
				path = ctxPath + exportPath34
			}
			status, _, body := admin.post(path, url.Values{"jobGroup": {itoa(e.g2.ID)}})
			if status != 200 {
				t.Fatalf("export: %d %s", status, body)
			}
			var doc struct {
				Jobs      []json.RawMessage `json:"jobs"`
				Workflows []struct {
					Name string `json:"name"`
				} `json:"workflows"`
			}
			if err := json.Unmarshal([]byte(body), &doc); err != nil {
				t.Fatalf("export is not a document: %v: %.200s", err, body)
			}
			if len(doc.Jobs) == 0 {
				t.Fatalf("export without jobs: %.300s", body)
			}
			if on && (len(doc.Workflows) != 1 || doc.Workflows[0].Name != "nightly etl") {
				t.Errorf("workflows on: exported %+v", doc.Workflows)
			}
			if on {
				importInto(t, newWfEnv(t, gen3, true), body, "nightly etl")
			}
			if !on && len(doc.Workflows) != 0 {
				t.Errorf("workflows off: exported %+v", doc.Workflows)
			}
		}
	})
}

// importInto posts an exported document to another admin's job-list
// import (as the import button does) and checks the workflow arrived.
func importInto(t *testing.T, e *wfEnv, doc, name string) {
	t.Helper()
	c := e.login("admin")
	path := ctxPath + "/jobinfo/import?mode=overwrite"
	if e.gen3 {
		path = ctxPath + importPath34 + "?mode=overwrite"
	}
	req, _ := http.NewRequest(http.MethodPost, e.srv.URL+path, strings.NewReader(doc))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("X-Requested-With", "XMLHttpRequest")
	resp, err := c.http.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	if resp.StatusCode != 200 || !strings.Contains(string(b), `"code":200`) {
		t.Fatalf("import: %d %s", resp.StatusCode, b)
	}
	list, _, err := workflow.List(context.Background(), e.store, workflow.ListQuery{Name: name, Size: 10})
	if err != nil {
		t.Fatal(err)
	}
	if len(list) != 1 {
		t.Fatalf("after the import: %d workflows named %q", len(list), name)
	}
}
