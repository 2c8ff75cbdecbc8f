package javaexec

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"slices"
	"strings"
	"testing"
	"time"
)

// adminRequest is one request the real executor made to the stand-in admin.
type adminRequest struct {
	path  string
	token string
	body  []byte
	at    time.Time
}

// newRecordingAdmin plays the minimal admin of the recordings
// (conformance/testdata/recordings/java-executor-2.4.2/README.md): every <contextPath>/api/* call
// gets {"code":200,"msg":null,"content":null} and is handed to the test over the returned channel.
func newRecordingAdmin(t *testing.T, contextPath string) (*httptest.Server, <-chan adminRequest) {
	t.Helper()
	reqs := make(chan adminRequest, 64)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, err := io.ReadAll(r.Body)
		if err != nil {
			http.Error(w, err.Error(), http.StatusBadRequest)
			return
		}
		if !strings.HasPrefix(r.URL.Path, contextPath+"/api/") {
			http.NotFound(w, r)
			return
		}
		reqs <- adminRequest{path: r.URL.Path, token: r.Header.Get("XXL-JOB-ACCESS-TOKEN"), body: body, at: time.Now()}
		w.Header().Set("Content-Type", "application/json;charset=UTF-8")
		_, _ = io.WriteString(w, `{"code":200,"msg":null,"content":null}`)
	}))
	t.Cleanup(srv.Close)
	return srv, reqs
}

// nextRequest waits for the next admin call to path, skipping others (e.g. periodic registry beats).
func nextRequest(t *testing.T, reqs <-chan adminRequest, path string, within time.Duration) adminRequest {
	t.Helper()
	timer := time.NewTimer(within)
	defer timer.Stop()
	for {
		select {
		case r := <-reqs:
			if r.path == path {
				return r
			}
		case <-timer.C:
			t.Fatalf("no %s request within %s", path, within)
			return adminRequest{}
		}
	}
}

// postExecutor sends an admin->executor call and decodes the envelope.
func postExecutor(t *testing.T, e *Executor, uri, token, body string) map[string]any {
	t.Helper()
	req, err := http.NewRequestWithContext(t.Context(), http.MethodPost,
		strings.TrimSuffix(e.Address(), "/")+uri, strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/json;charset=UTF-8")
	req.Header.Set("XXL-JOB-ACCESS-TOKEN", token)
	req.Close = true // no idle keep-alive connection outlives the executor
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatalf("POST %s: %v", uri, err)
	}
	defer func() { _ = resp.Body.Close() }()
	raw, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	var out map[string]any
	if err := json.Unmarshal(raw, &out); err != nil {
		t.Fatalf("POST %s: body %q is not JSON: %v", uri, raw, err)
	}
	return out
}

type callbackParam struct {
	LogID      int64  `json:"logId"`
	LogDateTim int64  `json:"logDateTim"`
	HandleCode int    `json:"handleCode"`
	HandleMsg  string `json:"handleMsg"`
}

// TestLiveExecutors runs every built Java executor against the recording admin under the 2.x context
// path. It needs a JDK and the jars from conformance/java/build.sh, so it only runs with XXL_TEST_JAVA=1.
func TestLiveExecutors(t *testing.T) {
	if os.Getenv(EnvEnabled) != "1" {
		t.Skip("set " + EnvEnabled + "=1 (and run conformance/java/build.sh) to start real Java executors")
	}
	for _, version := range Versions() {
		t.Run(version, func(t *testing.T) { testLiveExecutor(t, version, "/xxl-job-admin") })
	}
	// A 3.4 admin serves at its root, and 3.4.1+ executors are given its address without a context
	// path: the library appends "/api/<method>" to whatever address it is given, with or without one.
	t.Run("3.4.2/root", func(t *testing.T) { testLiveExecutor(t, "3.4.2", "") })
}

func testLiveExecutor(t *testing.T, version, contextPath string) {
	const (
		token   = "conformance-token"
		appName = "javaexec-live"
	)
	admin, reqs := newRecordingAdmin(t, contextPath)
	port, err := FreePort()
	if err != nil {
		t.Fatal(err)
	}
	begin := time.Now()
	e, err := Start(t.Context(), Options{Version: version, AdminAddress: admin.URL + contextPath,
		AccessToken: token, AppName: appName, Port: port, LogDir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = e.Kill() })
	defer func() {
		if t.Failed() {
			t.Logf("executor output:\n%s", e.Output())
		}
	}()

	// executor-protocol.md §2.1/§2.3: the registry thread POSTs {ctx}/api/registry right after the
	// server binds, with the token header and RegistryParam{EXECUTOR, appname, address}.
	reg := nextRequest(t, reqs, contextPath+"/api/registry", 15*time.Second)
	t.Logf("%s: started line after %s, registry after %s", version, e.StartupTime().Round(time.Millisecond),
		reg.at.Sub(begin).Round(time.Millisecond))
	wantRegistry := map[string]string{"registryGroup": "EXECUTOR", "registryKey": appName, "registryValue": e.Address()}
	assertRegistry(t, reg, token, wantRegistry)

	// executor-protocol.md §3.2: /beat with the right token answers code 200.
	if got := postExecutor(t, e, "/beat", token, ""); got["code"] != float64(200) {
		t.Errorf("/beat = %v, want code 200", got)
	}

	// The handlers of conformance/java report through /api/callback (§2.5).
	runs := []struct {
		handler, params string
		index, total    int
		wantCode        int
		wantMsg         string
	}{
		{"successHandler", "p1", 0, 1, 200, "success param=p1"},
		{"failHandler", "", 0, 1, 500, "boom"},
		{"shardingHandler", "", 1, 3, 200, "shard 1/3"},
	}
	for i, r := range runs {
		logID := int64(1000 + i)
		trigger := fmt.Sprintf(`{"jobId":%d,"executorHandler":%q,"executorParams":%q,"executorBlockStrategy":"SERIAL_EXECUTION",`+
			`"executorTimeout":0,"logId":%d,"logDateTime":%d,"glueType":"BEAN","glueSource":"","glueUpdatetime":0,`+
			`"broadcastIndex":%d,"broadcastTotal":%d}`, i+1, r.handler, r.params, logID, time.Now().UnixMilli(), r.index, r.total)
		if got := postExecutor(t, e, "/run", token, trigger); got["code"] != float64(200) {
			t.Fatalf("/run %s = %v, want code 200", r.handler, got)
		}
		cb := nextRequest(t, reqs, contextPath+"/api/callback", 15*time.Second)
		var params []callbackParam
		if err := json.Unmarshal(cb.body, &params); err != nil || len(params) != 1 {
			t.Fatalf("callback body %s: %v", cb.body, err)
		}
		if p := params[0]; p.LogID != logID || p.HandleCode != r.wantCode || p.HandleMsg != r.wantMsg {
			t.Errorf("%s callback = %+v, want logId %d code %d msg %q", r.handler, p, logID, r.wantCode, r.wantMsg)
		}
	}
	// The run ledger holds each run once, under its log id, written before its callback left.
	ran, err := e.Runs()
	if err != nil {
		t.Fatal(err)
	}
	wantRuns := make([]Run, len(runs))
	for i, r := range runs {
		wantRuns[i] = Run{LogID: int64(1000 + i), Handler: r.handler}
	}
	if !slices.Equal(ran, wantRuns) {
		t.Errorf("run ledger %v, want %v", ran, wantRuns)
	}

	// SIGTERM runs the library's destroy(), which deregisters before the JVM exits (§2.1).
	stopBegin := time.Now()
	if err := e.Stop(); err != nil {
		t.Fatal(err)
	}
	t.Logf("%s: stopped in %s", version, time.Since(stopBegin).Round(time.Millisecond))
	remove := nextRequest(t, reqs, contextPath+"/api/registryRemove", 5*time.Second)
	assertRegistry(t, remove, token, wantRegistry)
	if !strings.Contains(e.Output(), stoppedMarker) {
		t.Error("shutdown hook did not finish (no stopped line)")
	}
}

func assertRegistry(t *testing.T, r adminRequest, token string, want map[string]string) {
	t.Helper()
	if r.token != token {
		t.Errorf("%s token header = %q, want %q", r.path, r.token, token)
	}
	var got map[string]string
	if err := json.Unmarshal(bytes.TrimSpace(r.body), &got); err != nil {
		t.Fatalf("%s body %q: %v", r.path, r.body, err)
	}
	for k, v := range want {
		if got[k] != v {
			t.Errorf("%s %s = %q, want %q (body %s)", r.path, k, got[k], v, r.body)
		}
	}
}
