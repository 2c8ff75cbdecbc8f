package api

import (
	"bytes"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/rs/zerolog"
)

// recordingsDir holds the recorded Java traffic used as seed corpus.
const recordingsDir = "../../conformance/testdata/recordings/java-executor-2.4.2"

type seedExchange struct {
	Direction string `json:"direction"`
	Request   struct {
		Path    string      `json:"path"`
		Headers [][2]string `json:"headers"`
		Body    string      `json:"body"`
	} `json:"request"`
	Response struct {
		Body string `json:"body"`
	} `json:"response"`
}

// seeds returns the recorded bodies selected by pick, read from every
// recording file.
func seeds(f *testing.F, pick func(e seedExchange) []string) []string {
	f.Helper()
	files, err := filepath.Glob(filepath.Join(recordingsDir, "*.json"))
	if err != nil || len(files) == 0 {
		f.Fatalf("no recordings in %s: %v", recordingsDir, err)
	}
	var out []string
	for _, name := range files {
		b, err := os.ReadFile(name)
		if err != nil {
			f.Fatal(err)
		}
		var rec struct {
			Exchanges []seedExchange `json:"exchanges"`
		}
		if err := json.Unmarshal(b, &rec); err != nil {
			f.Fatalf("%s: %v", name, err)
		}
		for _, e := range rec.Exchanges {
			for _, s := range pick(e) {
				if len(s) < 1<<16 { // leave out the 5 MiB placeholder case
					out = append(out, s)
				}
			}
		}
	}
	return out
}

func requestsTo(suffixes ...string) func(seedExchange) []string {
	return func(e seedExchange) []string {
		for _, s := range suffixes {
			if strings.HasSuffix(e.Request.Path, s) {
				return []string{e.Request.Body}
			}
		}
		return nil
	}
}

func executorAnswers(e seedExchange) []string {
	if e.Direction != "admin->executor" {
		return nil
	}
	return []string{e.Response.Body}
}

func addSeeds(f *testing.F, bodies []string, extra ...string) {
	for _, s := range append(bodies, extra...) {
		f.Add([]byte(s))
	}
}

// roundTrip re-encodes a decoded value and decodes it again; leniency must
// not lose or invent data.
func roundTrip[T any](t *testing.T, v T, encode func(any) ([]byte, error)) {
	t.Helper()
	b, err := encode(v)
	if err != nil {
		t.Fatalf("encode %+v: %v", v, err)
	}
	var again T
	if err := json.Unmarshal(b, &again); err != nil {
		t.Fatalf("decode own output %s: %v", b, err)
	}
	if !reflect.DeepEqual(v, again) {
		t.Fatalf("round trip changed %+v to %+v via %s", v, again, b)
	}
}

func FuzzDecodeRegistry(f *testing.F) {
	addSeeds(f, seeds(f, requestsTo("/api/registry", "/api/registryRemove")),
		``, `null`, `{"registryGroup":1,"registryKey":true,"registryValue":" "}`)
	f.Fuzz(func(t *testing.T, data []byte) {
		p, err := DecodeRegistryParam(data)
		if err != nil {
			return
		}
		_ = p.Valid()
		roundTrip(t, p, json.Marshal)
	})
}

func FuzzDecodeCallback(f *testing.F) {
	addSeeds(f, seeds(f, requestsTo("/api/callback")), ``, `[null]`, `[{"logId":"1","handleCode":2.0}]`)
	f.Fuzz(func(t *testing.T, data []byte) {
		items, err := DecodeCallbackParams(data)
		if err != nil {
			return
		}
		for _, p := range items {
			roundTrip(t, p, json.Marshal)
		}
	})
}

func FuzzDecodeReturnT(f *testing.F) {
	addSeeds(f, seeds(f, executorAnswers), `{"code":200,"msg":null,"content":null}`,
		`{"code":200,"msg":"Success","data":"x"}`, `{"code":200,"data":{"isEnd":"true"}}`)
	f.Fuzz(func(t *testing.T, data []byte) {
		if r, err := DecodeReturnT[string](data); err == nil {
			roundTrip(t, r, json.Marshal)
		}
		if r, err := DecodeReturnT[LogResult](data); err == nil {
			roundTrip(t, r, json.Marshal)
			_ = ConsoleLog(r)
		}
	})
}

func FuzzDecodeTriggerParam(f *testing.F) {
	addSeeds(f, seeds(f, requestsTo("/run")))
	f.Fuzz(func(t *testing.T, data []byte) {
		var p TriggerParam
		if json.Unmarshal(data, &p) == nil {
			roundTrip(t, p, gsonJSON)
			if want, _ := gsonReflect(p); !bytes.Equal(p.appendGson(nil), want) {
				t.Fatalf("appendGson %s, gsonReflect %s", p.appendGson(nil), want)
			}
		}
	})
}

// FuzzTriggerParamEncoding holds the /run body's own encoder to the
// reflection one (encoding/json with Gson's two extra escapes), which the
// wire tests compare with the Java admin's bytes: any member values,
// invalid UTF-8, control characters and absent members included.
func FuzzTriggerParamEncoding(f *testing.F) {
	f.Add(401, "demoJobHandler", "中文 <b>&'\"= \\ tab\tend", "SERIAL_EXECUTION", 3, int64(1051), int64(1795328526855), "BEAN", "", int64(-1), 0, 1, uint8(0))
	f.Add(-7, "\x00\x1f\x7f", "\u2028\u2029\xff\xfe", "\b\f\r\n", -1, int64(-9), int64(0), "GLUE_SHELL", "#!/bin/sh\necho 'x=y'", int64(1<<62), -3, -4, uint8(0b10101))
	f.Fuzz(func(t *testing.T, job int, handler, param, block string, timeout int, logID, logTime int64, glue, source string, glueTime int64, index, total int, absent uint8) {
		p := TriggerParam{JobID: job, ExecutorHandler: &handler, ExecutorParams: &param, ExecutorBlockStrategy: &block,
			ExecutorTimeout: timeout, LogID: logID, LogDateTime: logTime, GlueType: glue, GlueSource: &source,
			GlueUpdatetime: glueTime, BroadcastIndex: index, BroadcastTotal: total}
		for bit, member := range []**string{&p.ExecutorHandler, &p.ExecutorParams, &p.ExecutorBlockStrategy, &p.GlueSource} {
			if absent&(1<<bit) != 0 {
				*member = nil
			}
		}
		want, err := gsonReflect(p)
		if err != nil {
			t.Fatal(err)
		}
		if got := p.appendGson(nil); !bytes.Equal(got, want) {
			t.Fatalf("appendGson\n got  %s\n want %s", got, want)
		}
		// Appending keeps what the buffer held.
		if got := p.appendGson([]byte("head")); string(got) != "head"+string(want) {
			t.Fatalf("appendGson after a prefix: %s", got)
		}
	})
}

func FuzzDecodeExecutorParams(f *testing.F) {
	addSeeds(f, seeds(f, requestsTo("/idleBeat", "/kill", "/log")))
	f.Fuzz(func(t *testing.T, data []byte) {
		var ib IdleBeatParam
		if json.Unmarshal(data, &ib) == nil {
			roundTrip(t, ib, gsonJSON)
		}
		var k KillParam
		if json.Unmarshal(data, &k) == nil {
			roundTrip(t, k, gsonJSON)
		}
		var l LogParam
		if json.Unmarshal(data, &l) == nil {
			roundTrip(t, l, gsonJSON)
		}
	})
}

// FuzzTokenCheck compares TokenAccepted with the rule of §2.2 step 3
// written independently: a configured token made only of bytes <= 0x20
// is blank (for valid UTF-8 that is exactly what String.trim() removes).
func FuzzTokenCheck(f *testing.F) {
	for _, e := range seeds(f, func(e seedExchange) []string {
		var v []string
		for _, h := range e.Request.Headers {
			if strings.EqualFold(h[0], TokenHeader) {
				v = append(v, h[1])
			}
		}
		return v
	}) {
		f.Add("default_token", e, true)
	}
	f.Add("", "", false)
	f.Add(" ", "x", true)
	f.Add("default_token", "", false)
	f.Fuzz(func(t *testing.T, configured, header string, present bool) {
		blank := true
		for i := 0; i < len(configured); i++ {
			if configured[i] > ' ' {
				blank = false
			}
		}
		want := blank || (present && configured == header)
		if got := TokenAccepted(configured, header, present); got != want {
			t.Fatalf("TokenAccepted(%q, %q, %v) = %v, want %v", configured, header, present, got, want)
		}
	})
}

// FuzzHandler: whatever the body and uri, a routed request gets HTTP 200
// and a ReturnT with code 200 or 500; a refused request (code 500, or any
// request with a wrong token) reaches no store method, so it changes no
// row; an accepted registry or registryRemove reaches the store exactly
// once with the parameter the body decodes to, and an accepted callback
// exactly once (§2.2–§2.5).
func FuzzHandler(f *testing.F) {
	for _, b := range seeds(f, requestsTo("/api/registry", "/api/registryRemove", "/api/callback")) {
		f.Add("callback", []byte(b))
		f.Add("registry", []byte(b))
		f.Add("registryRemove", []byte(b))
	}
	f.Add("registryRemove", []byte(`{`))
	f.Fuzz(func(t *testing.T, uri string, body []byte) {
		serve := func(token string) (*httptest.ResponseRecorder, *fakeStore) {
			store := &fakeStore{}
			h := NewHandler(HandlerConfig{AccessToken: testToken, Registry: store, Callbacks: store, Log: zerolog.Nop()})
			req := httptest.NewRequest("POST", "/api/x", strings.NewReader(string(body)))
			req.URL.Path = "/api/" + uri
			req.URL.RawPath = ""
			req.Header.Set(TokenHeader, token)
			rec := httptest.NewRecorder()
			h.ServeHTTP(rec, req)
			return rec, store
		}
		rec, store := serve(testToken)
		if rec.Code == http.StatusNotFound {
			return // not routed: uri held a slash or was empty
		}
		r, err := DecodeReturnT[string](rec.Body.Bytes())
		if rec.Code != http.StatusOK || err != nil || (r.Code != CodeSuccess && r.Code != CodeFail) {
			t.Fatalf("uri %q: status %d body %s (%v)", uri, rec.Code, rec.Body.String(), err)
		}
		calls := len(store.registered) + len(store.removed) + len(store.callbacks)
		switch {
		case r.Code == CodeFail && calls != 0:
			t.Fatalf("uri %q: refused (%s) but the store was called %d times", uri, r.MsgText(), calls)
		case r.Code == CodeSuccess && uri == "registry", r.Code == CodeSuccess && uri == "registryRemove":
			got := append(store.registered, store.removed...)
			want, err := DecodeRegistryParam(body)
			if err != nil || len(got) != 1 || got[0] != want || (uri == "registry") != (len(store.registered) == 1) {
				t.Fatalf("uri %q: accepted; the store got registered %v removed %v, body decodes to %+v (%v)",
					uri, store.registered, store.removed, want, err)
			}
		case r.Code == CodeSuccess && uri == "callback" && len(store.callbacks) > 1:
			t.Fatalf("callback accepted; the store was called %d times", len(store.callbacks))
		}
		rec, store = serve(testToken + "-wrong")
		if calls := len(store.registered) + len(store.removed) + len(store.callbacks); calls != 0 {
			t.Fatalf("uri %q with a wrong token: the store was called %d times (answer %s)", uri, calls, rec.Body.String())
		}
	})
}
