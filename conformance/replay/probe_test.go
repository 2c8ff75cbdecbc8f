package replay_test

import (
	"bytes"
	"context"
	"encoding/json"
	"net/http/httptest"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/xxl-admin-go/xxl-admin-go/compat/api"
)

// TestClientRequestsMatchJavaAdmin checks the Go client's requests against
// the Java admin-side client's (recording admin_client_probe, spec §3.1):
// method, path, Content-Type, token header and the JSON body with its
// member order; the values listed in volatile_fields (the clock-derived
// logDateTime, logDateTim, glueUpdatetime) are not compared.
func TestClientRequestsMatchJavaAdmin(t *testing.T) {
	var probe recording
	for _, r := range loadRecordings(t) {
		if r.Scenario == "admin_client_probe" {
			probe = r
		}
	}
	if probe.file == "" {
		t.Fatal("admin_client_probe.json not loaded")
	}
	volatile := volatileBodyKeys(probe.VolatileFields)
	now := time.Now().UnixMilli() // stands for the volatile clock values
	ctx := context.Background()
	// The calls a Java admin made in the probe, built from the values the
	// scenario describes, not from the recorded bodies.
	calls := []struct {
		path string
		call func(c *api.Client, address string)
	}{
		{"/beat", func(c *api.Client, a string) { c.Beat(ctx, a) }},
		{"/idleBeat", func(c *api.Client, a string) { c.IdleBeat(ctx, a, api.IdleBeatParam{JobID: 401}) }},
		{"/run", func(c *api.Client, a string) {
			c.Run(ctx, a, api.TriggerParam{
				JobID: 401, ExecutorHandler: ptr("demoJobHandler"), ExecutorParams: ptr("from-admin-client"),
				ExecutorBlockStrategy: ptr("SERIAL_EXECUTION"), LogID: 1051, LogDateTime: now,
				GlueType: "BEAN", GlueSource: ptr(""), GlueUpdatetime: now, BroadcastTotal: 1,
			})
		}},
		{"/log", func(c *api.Client, a string) {
			c.Log(ctx, a, api.LogParam{LogDateTim: now, LogID: 1051, FromLineNum: 1})
		}},
		{"/kill", func(c *api.Client, a string) { c.Kill(ctx, a, api.KillParam{JobID: 401}) }},
		// The sparse trigger: null handler params, strategy and glue source
		// are left out, as Gson does.
		{"/run", func(c *api.Client, a string) {
			c.Run(ctx, a, api.TriggerParam{JobID: 402, ExecutorHandler: ptr("demoJobHandler"), LogID: 1052, LogDateTime: now, GlueType: "BEAN"})
		}},
	}
	var recorded []exchange
	for _, ex := range probe.Exchanges {
		if ex.Direction == toExecutor {
			recorded = append(recorded, ex)
		}
	}
	if len(recorded) != len(calls) {
		t.Fatalf("%d recorded calls, %d replayed", len(recorded), len(calls))
	}
	client := api.NewClient(api.ClientConfig{AccessToken: probe.token(t)})
	t.Cleanup(client.CloseIdleConnections)
	for i, ex := range recorded {
		want := ex.Request
		if want.Path != calls[i].path {
			t.Fatalf("call %d: recorded %s, replaying %s", i, want.Path, calls[i].path)
		}
		fake := &recordedExecutor{resp: ex.Response}
		srv := httptest.NewServer(fake)
		calls[i].call(client, srv.URL)
		srv.Close()
		seen := fake.requests()
		if len(seen) != 1 {
			t.Fatalf("call %d: fake saw %d requests", i, len(seen))
		}
		got := seen[0]
		wantCT, _ := want.header("Content-Type")
		wantToken, _ := want.header(api.TokenHeader)
		if got.method != want.Method || got.path != want.Path || got.contentType != wantCT || !reflect.DeepEqual(got.token, []string{wantToken}) {
			t.Errorf("call %d: sent %s %s %q token %q; Java sent %s %s %q token %q",
				i, got.method, got.path, got.contentType, got.token, want.Method, want.Path, wantCT, wantToken)
		}
		assertSameJSON(t, got.body, want.Body, volatile)
	}
	t.Logf("compared %d client requests with %s", len(calls), probe.file)
}

// volatileBodyKeys returns the members of request bodies listed as
// volatile (paths "exchanges[*].request.body_json.<member>").
func volatileBodyKeys(paths []string) map[string]bool {
	keys := map[string]bool{}
	for _, p := range paths {
		if k, ok := strings.CutPrefix(p, "exchanges[*].request.body_json."); ok {
			keys[k] = true
		}
	}
	return keys
}

// assertSameJSON compares two bodies: non-objects byte for byte, objects
// member by member in order, skipping the values of volatile members.
func assertSameJSON(t *testing.T, got, want string, volatile map[string]bool) {
	t.Helper()
	if !strings.HasPrefix(want, "{") {
		if got != want {
			t.Errorf("body %s, Java sent %s", got, want)
		}
		return
	}
	gk, gv := members(t, got)
	wk, wv := members(t, want)
	if !reflect.DeepEqual(gk, wk) {
		t.Errorf("members %v, Java sent %v", gk, wk)
		return
	}
	for _, k := range wk {
		if !volatile[k] && !bytes.Equal(gv[k], wv[k]) {
			t.Errorf("member %s = %s, Java sent %s", k, gv[k], wv[k])
		}
	}
}

// members lists an object's member names in order with their raw values.
func members(t *testing.T, body string) ([]string, map[string]json.RawMessage) {
	t.Helper()
	dec := json.NewDecoder(strings.NewReader(body))
	if _, err := dec.Token(); err != nil {
		t.Fatalf("%s: %v", body, err)
	}
	var keys []string
	vals := map[string]json.RawMessage{}
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			t.Fatalf("%s: %v", body, err)
		}
		var raw json.RawMessage
		if err := dec.Decode(&raw); err != nil {
			t.Fatalf("%s: %v", body, err)
		}
		k := tok.(string)
		keys = append(keys, k)
		vals[k] = raw
	}
	return keys, vals
}

func ptr[T any](v T) *T { return &v }
