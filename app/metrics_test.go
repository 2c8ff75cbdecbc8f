package app_test

import (
	"net/http"
	"strings"
	"testing"

	"github.com/xxl-admin-go/xxl-admin-go/app"
)

// TestMetricsEndpoint: /actuator/prometheus exists only when
// management.endpoints.web.exposure.include names it, and then reports
// what the admin does.
func TestMetricsEndpoint(t *testing.T) {
	off := startAdmin(t, app.Options{}, "--xxl.job.accessToken=s3cret-token")
	resp, body := get(t, off.base+"/xxl-job-admin/actuator/prometheus")
	if resp.StatusCode == http.StatusOK && strings.Contains(body, "xxl_job_") {
		t.Fatal("metrics served without being exposed")
	}

	on := startAdmin(t, app.Options{}, "--xxl.job.accessToken=s3cret-token",
		"--management.endpoints.web.exposure.include=health,prometheus")
	if got := post(t, on.base+"/xxl-job-admin/api/callback", "s3cret-token",
		`[{"logId":424242,"logDateTim":0,"handleCode":200}]`); got != success {
		t.Fatalf("callback %s", got)
	}
	resp, body = get(t, on.base+"/xxl-job-admin/actuator/prometheus")
	if resp.StatusCode != http.StatusOK || !strings.HasPrefix(resp.Header.Get("Content-Type"), "text/plain") {
		t.Fatalf("prometheus: %d %s", resp.StatusCode, resp.Header.Get("Content-Type"))
	}
	for _, want := range []string{
		`xxl_job_callback_items_total{result="unknown"} 1`,
		`xxl_job_trigger_pool_queued{pool="fast"} 0`,
		`xxl_job_http_connections_open `,
		`xxl_job_database_errors_total 0`,
		`xxl_job_database_up 1`,
		`xxl_job_build_info{`,
	} {
		if !strings.Contains(body, want) {
			t.Errorf("missing %s", want)
		}
	}
}
