package console

import (
	"encoding/json"
	"net/url"
	"testing"
)

// TestWorkflowExport: with workflows on, the job list's export carries the
// group's workflows with its jobs (as `jobs export` and the job API do);
// with them off it carries none and the document is what it was.
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
			if !on && len(doc.Workflows) != 0 {
				t.Errorf("workflows off: exported %+v", doc.Workflows)
			}
		}
	})
}
