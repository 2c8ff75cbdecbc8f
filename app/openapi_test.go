package app_test

import (
	"io"
	"net/http"
	"strings"
	"testing"

	"github.com/xxl-admin-go/xxl-admin-go/internal/testsupport/admintest"
	"github.com/xxl-admin-go/xxl-admin-go/internal/testsupport/storetest"
)

// TestJobAPIMounted: the job API answers under the context path when a
// token is configured, and is a JSON 404 when it is not.
func TestJobAPIMounted(t *testing.T) {
	on := admintest.Start(t, "--spring.datasource.url="+storetest.SQLiteURL(t, ""), "--server.servlet.context-path=/jobs-admin",
		"--xxl.job.openapi.token=0123456789abcdef-token")
	off := admintest.Start(t, "--spring.datasource.url="+storetest.SQLiteURL(t, ""))
	call := func(url, token string) (int, string) {
		req, _ := http.NewRequest(http.MethodGet, url, nil)
		if token != "" {
			req.Header.Set("Authorization", "Bearer "+token)
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		return resp.StatusCode, string(b)
	}
	if code, body := call(on+"/jobs-admin/openapi/v1/jobs", "0123456789abcdef-token"); code != 200 || !strings.Contains(body, `"jobDesc":"测试任务1"`) {
		t.Errorf("on: %d %s", code, body)
	}
	if code, body := call(on+"/jobs-admin/openapi/v1/openapi.json", ""); code != 200 || !strings.Contains(body, `"servers":[{"url":"/jobs-admin/openapi/v1"}]`) {
		t.Errorf("document: %d %.200s", code, body)
	}
	if code, _ := call(on+"/jobs-admin/openapi/v1/jobs", "wrong"); code != 401 {
		t.Errorf("wrong token: %d", code)
	}
	if code, body := call(off+"/xxl-job-admin/openapi/v1/jobs", "0123456789abcdef-token"); code != 404 || !strings.Contains(body, "the job API is off") {
		t.Errorf("off: %d %s", code, body)
	}
}

// TestWorkflowAPIMounted: the workflow endpoints exist with
// xxl.job.workflows.enabled=true and are a 404 without it.
func TestWorkflowAPIMounted(t *testing.T) {
	const token = "0123456789abcdef-token"
	on := admintest.Start(t, "--spring.datasource.url="+storetest.SQLiteURL(t, ""), "--xxl.job.openapi.token="+token,
		"--xxl.job.workflows.enabled=true")
	off := admintest.Start(t, "--spring.datasource.url="+storetest.SQLiteURL(t, ""), "--xxl.job.openapi.token="+token)
	for _, c := range []struct {
		base string
		want int
	}{{on, 200}, {off, 404}} {
		req, _ := http.NewRequest(http.MethodGet, c.base+"/xxl-job-admin/openapi/v1/workflows", nil)
		req.Header.Set("Authorization", "Bearer "+token)
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		b, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode != c.want {
			t.Errorf("%s: %d %s, want %d", c.base, resp.StatusCode, b, c.want)
		}
	}
}
