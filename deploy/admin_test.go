package deploy

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	dto "github.com/prometheus/client_model/go"
	"github.com/prometheus/common/expfmt"
	"github.com/prometheus/common/model"

	"github.com/xxl-admin-go/xxl-admin-go/app"
	"github.com/xxl-admin-go/xxl-admin-go/compat/schema"
	"github.com/xxl-admin-go/xxl-admin-go/core/trigger"
	"github.com/xxl-admin-go/xxl-admin-go/internal/testsupport/admintest"
	"github.com/xxl-admin-go/xxl-admin-go/internal/testsupport/storetest"
)

const (
	accessToken = "deploy-test-access-token"
	apiToken    = "deploy-test-openapi-token"
	appname     = "xxl-job-executor-sample" // the seed group, automatic registration
)

// executor is a stand-in executor: /run of handler "failing" answers 500,
// any other run is accepted and its log id handed to the test.
type executor struct {
	*httptest.Server
	runs chan int64
}

func newExecutor(t *testing.T) *executor {
	e := &executor{runs: make(chan int64, 1000)}
	e.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var p struct {
			LogID   int64  `json:"logId"`
			Handler string `json:"executorHandler"`
		}
		_ = json.NewDecoder(r.Body).Decode(&p)
		w.Header().Set("Content-Type", "application/json")
		if r.URL.Path == "/run" && p.Handler == "failing" {
			_, _ = io.WriteString(w, `{"code":500,"msg":"handler failing refuses"}`)
			return
		}
		if r.URL.Path == "/run" {
			select {
			case e.runs <- p.LogID:
			default:
			}
		}
		_, _ = io.WriteString(w, `{"code":200,"msg":null}`)
	}))
	t.Cleanup(e.Close)
	return e
}

// busyAdmin starts an admin with the metrics exposed and gives every
// family the dashboard and the rules read a series: an executor registers,
// a job fires every second (success, lateness, schedule rounds), a failing
// job is triggered (fail, and its alarm), callbacks arrive (finished,
// unknown), and a pending child trigger left by another admin is taken over. It returns the exposition once all of those show.
func busyAdmin(t *testing.T) map[string]*dto.MetricFamily {
	exec := newExecutor(t)
	// A child trigger an admin that is gone decided and left: this one
	// takes it over (xxl_job_pending_triggers_taken_over_total).
	url := storetest.SQLiteURL(t, "")
	s := storetest.Open(t, url, "", "")
	left := trigger.Request{JobID: 1, Type: trigger.TypeParent, FailRetryCount: -1} // the seed job
	gone := &trigger.Durable{Owner: "admin-gone", Lease: -time.Second}              // its lease ran out
	if err := s.PendingInsert(context.Background(), []schema.PendingTrigger{gone.Decision(&left, 77, 0)}); err != nil {
		t.Fatal(err)
	}
	base := admintest.StartTuned(t, app.Tuning{RegistryInterval: 100 * time.Millisecond, FailInterval: 100 * time.Millisecond,
		SweepInterval: 100 * time.Millisecond},
		"--spring.datasource.url="+url,
		"--management.endpoints.web.exposure.include=health,prometheus",
		"--xxl.job.accessToken="+accessToken,
		"--xxl.job.openapi.token="+apiToken)
	admin := base + "/xxl-job-admin"

	send(t, "POST", admin+"/api/registry", "XXL-JOB-ACCESS-TOKEN", accessToken,
		fmt.Sprintf(`{"registryGroup":"EXECUTOR","registryKey":%q,"registryValue":%q}`, appname, exec.URL))
	send(t, "POST", admin+"/openapi/v1/jobs", "Authorization", "Bearer "+apiToken,
		fmt.Sprintf(`{"appname":%q,"jobDesc":"every second","author":"deploy test","scheduleType":"CRON",`+
			`"scheduleConf":"* * * * * ?","executorHandler":"ok","running":true}`, appname))
	var failing struct {
		Data struct {
			ID int `json:"id"`
		} `json:"data"`
	}
	if err := json.Unmarshal([]byte(send(t, "POST", admin+"/openapi/v1/jobs", "Authorization", "Bearer "+apiToken,
		fmt.Sprintf(`{"appname":%q,"jobDesc":"failing","author":"deploy test","scheduleType":"NONE",`+
			`"executorHandler":"failing"}`, appname))), &failing); err != nil || failing.Data.ID == 0 {
		t.Fatalf("create failing job: %v %+v", err, failing)
	}
	send(t, "POST", fmt.Sprintf("%s/openapi/v1/jobs/%d/trigger", admin, failing.Data.ID), "Authorization", "Bearer "+apiToken, `{}`)

	var logID int64
	select {
	case logID = <-exec.runs:
	case <-time.After(30 * time.Second):
		t.Fatal("the every-second job never reached the executor")
	}
	for _, body := range []string{
		fmt.Sprintf(`[{"logId":%d,"logDateTim":%d,"handleCode":200,"handleMsg":"done"}]`, logID, time.Now().UnixMilli()),
		`[{"logId":987654321,"logDateTim":0,"handleCode":200}]`,
	} {
		if got := send(t, "POST", admin+"/api/callback", "XXL-JOB-ACCESS-TOKEN", accessToken, body); !strings.Contains(got, `"code":200`) {
			t.Fatalf("callback %s: %s", body, got)
		}
	}

	deadline := time.Now().Add(30 * time.Second)
	tick := time.NewTicker(100 * time.Millisecond)
	defer tick.Stop()
	for {
		mfs := scrapeFamilies(t, admin+"/actuator/prometheus")
		missing := missingWorkload(mfs)
		if len(missing) == 0 {
			return mfs
		}
		if time.Now().After(deadline) {
			t.Fatalf("after 30 s the exposition still lacks: %s", strings.Join(missing, "; "))
		}
		<-tick.C
	}
}

// missingWorkload lists the series busyAdmin waits for that are not there.
func missingWorkload(mfs map[string]*dto.MetricFamily) []string {
	has := func(name string, want map[string]string, min float64) bool {
		for _, m := range mfs[name].GetMetric() {
			ok := true
			for _, lp := range m.GetLabel() {
				if v, named := want[lp.GetName()]; named && v != lp.GetValue() {
					ok = false
				}
			}
			v := m.GetCounter().GetValue() + m.GetGauge().GetValue() + float64(m.GetHistogram().GetSampleCount())
			if ok && v >= min {
				return true
			}
		}
		return false
	}
	var missing []string
	for _, w := range []struct {
		name string
		want map[string]string
		min  float64
	}{
		{"xxl_job_triggers_total", map[string]string{"result": "success", "trigger_type": "CRON"}, 1},
		{"xxl_job_triggers_total", map[string]string{"result": "fail", "trigger_type": "API"}, 1},
		{"xxl_job_trigger_lateness_seconds", nil, 1},
		{"xxl_job_schedule_lock_wait_seconds", nil, 1},
		{"xxl_job_callback_items_total", map[string]string{"result": "finished"}, 1},
		{"xxl_job_callback_items_total", map[string]string{"result": "unknown"}, 1},
		{"xxl_job_group_executors", map[string]string{"appname": appname}, 1},
		{"xxl_job_alarms_total", nil, 1},
		{"xxl_job_database_up", nil, 1},
		{"xxl_job_pending_triggers_taken_over_total", map[string]string{"stage": "decided"}, 1},
	} {
		if !has(w.name, w.want, w.min) {
			missing = append(missing, fmt.Sprintf("%s%v >= %g", w.name, w.want, w.min))
		}
	}
	return missing
}

// scrapeFamilies reads /actuator/prometheus with Prometheus's own text
// parser.
func scrapeFamilies(t *testing.T, url string) map[string]*dto.MetricFamily {
	t.Helper()
	resp, err := http.Get(url)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("GET %s: %s", url, resp.Status)
	}
	p := expfmt.NewTextParser(model.UTF8Validation)
	mfs, err := p.TextToMetricFamilies(resp.Body)
	if err != nil {
		t.Fatalf("parse exposition: %v", err)
	}
	return mfs
}

// send makes one request with one auth header and returns the body; a
// status over 299 fails the test.
func send(t *testing.T, method, url, header, value, body string) string {
	t.Helper()
	req, err := http.NewRequest(method, url, bytes.NewBufferString(body))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set(header, value)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	if resp.StatusCode > 299 {
		t.Fatalf("%s %s: %s %s", method, url, resp.Status, b)
	}
	return string(b)
}
