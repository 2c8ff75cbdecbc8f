package live

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"time"
)

// The job API (/openapi/v1) of an admin started with workflowArgs.

// startRun starts a run of workflow id through the job API.
func (f *fixture) startRun(id any, params string) map[string]any {
	f.t.Helper()
	status, run := f.openapi("POST", fmt.Sprintf("/workflows/%v/runs", id), map[string]any{"params": params})
	if status != http.StatusCreated {
		f.t.Fatalf("start a run: %d %v", status, run)
	}
	return run
}

// awaitRun polls the run until it has ended.
func (f *fixture) awaitRun(run map[string]any, within time.Duration) map[string]any {
	f.t.Helper()
	f.eventually(fmt.Sprintf("workflow run %v ends", run["id"]), within, func() (bool, string) {
		var status int
		status, run = f.openapi("GET", fmt.Sprintf("/runs/%v", run["id"]), nil)
		return status == http.StatusOK && run["state"] != "RUNNING" && run["state"] != "QUEUED", fmt.Sprint(run)
	})
	return run
}

// openapi calls the admin's job API and returns the status and the
// answer's data (or the whole answer of an error).
func (f *fixture) openapi(method, path string, body any) (int, map[string]any) {
	f.t.Helper()
	var in io.Reader
	if body != nil {
		b, err := json.Marshal(body)
		if err != nil {
			f.t.Fatal(err)
		}
		in = bytes.NewReader(b)
	}
	req, err := http.NewRequest(method, f.admin+"/openapi/v1"+path, in)
	if err != nil {
		f.t.Fatal(err)
	}
	req.Header.Set("Authorization", "Bearer "+openapiToken)
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		f.t.Fatal(err)
	}
	defer res.Body.Close()
	var out map[string]any
	if err := json.NewDecoder(res.Body).Decode(&out); err != nil {
		f.t.Fatalf("%s %s: %d, not JSON: %v", method, path, res.StatusCode, err)
	}
	if data, ok := out["data"].(map[string]any); ok {
		return res.StatusCode, data
	}
	return res.StatusCode, out
}
