package api

import (
	"net/http"
	"testing"

	"github.com/rs/zerolog"
)

// TestHandler34 checks the 3.x answers and check order against what the
// 3.4.2 jar answered to the same requests (conformance/apidiff runs the
// jar itself): the Response envelope with members in alphabetical order,
// "Success" as the success msg, a blank body refused before the token,
// an unreadable body answered "openapi invoke error: …" with the plain
// content type (3.4.2 catches the exception in OpenApiController).
func TestHandler34(t *testing.T) {
	tok := map[string]string{TokenHeader: testToken}
	const ok = `{"code":200,"data":null,"msg":"Success","success":true}`
	fail := func(msg string) string { return ResponseEnvelope.fail(msg) }
	tests := []struct {
		name, method, path string
		header             map[string]string
		body, want         string
		calls              int
	}{
		{"registry", "POST", "/api/registry", tok, regBody, ok, 1},
		{"callback", "POST", "/api/callback", tok, `[{"logId":1,"logDateTim":2,"handleCode":200}]`, ok, 1},
		{"callback empty list", "POST", "/api/callback", tok, `[]`, ok, 0},
		{"wrong token", "POST", "/api/registry", map[string]string{TokenHeader: "x"}, regBody,
			`{"code":500,"data":null,"msg":"The access token is wrong.","success":false}`, 0},
		{"GET", "GET", "/api/registry", tok, "", fail("invalid request, HttpMethod not support."), 0},
		{"missing value", "POST", "/api/registry", tok, `{"registryGroup":"EXECUTOR","registryKey":"a"}`, fail("Illegal Argument."), 0},
		{"empty body", "POST", "/api/registry", tok, "", fail("invalid request, requestBody empty."), 0},
		{"empty body before the token", "POST", "/api/registry", map[string]string{TokenHeader: "x"}, "", fail("invalid request, requestBody empty."), 0},
		{"blank body", "POST", "/api/callback", tok, "   ", fail("invalid request, requestBody empty."), 0},
		{"unknown uri", "POST", "/api/nothing", tok, `{}`, fail("invalid request, uri-mapping(nothing) not found."), 0},
		{"unknown uri wrong token", "POST", "/api/nothing", map[string]string{TokenHeader: "x"}, `{}`, fail("The access token is wrong."), 0},
		// 3.4.2 judges the blank body before the uri's name (apidiff
		// "unknown uri blank body").
		{"unknown uri blank body", "POST", "/api/nothing", tok, " ", fail("invalid request, requestBody empty."), 0},
		{"unknown uri empty body wrong token", "POST", "/api/nothing", map[string]string{TokenHeader: "x"}, "", fail("invalid request, requestBody empty."), 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			store := &fakeStore{}
			h := NewHandler(HandlerConfig{AccessToken: testToken, Envelope: ResponseEnvelope, Registry: store, Callbacks: store, Log: zerolog.Nop()})
			status, got := serve(t, h, tt.method, "/xxl-job-admin"+tt.path, tt.header, tt.body)
			if status != http.StatusOK || got != tt.want {
				t.Errorf("%d %s\nwant 200 %s", status, got, tt.want)
			}
			if n := store.calls(); n != tt.calls {
				t.Errorf("%d calls reached the store, want %d", n, tt.calls)
			}
		})
	}
	// Spring 6 no longer matches /api/registry/ to /api/{uri}: the request
	// is not routed (3.4.2 answers its 404 page; apidiff "registry
	// trailing slash"), where 2.4.2 served it (TestHandler "trailing slash").
	notRouted := http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) { w.WriteHeader(http.StatusTeapot) })
	h34 := NewHandler(HandlerConfig{AccessToken: testToken, Envelope: ResponseEnvelope, Registry: &fakeStore{},
		Callbacks: &fakeStore{}, NotRouted: notRouted, Log: zerolog.Nop()})
	for _, p := range []string{"/xxl-job-admin/api/registry/", "/xxl-job-admin/api/", "/xxl-job-admin/api/a/b"} {
		if status, _ := serve(t, h34, "POST", p, tok, regBody); status != http.StatusTeapot {
			t.Errorf("%s answered %d; want it not routed", p, status)
		}
	}
	// An unreadable body: 3.4.2 answers the decoder's exception text after
	// "openapi invoke error: " (ours: our decoder's text).
	store := &fakeStore{}
	h := NewHandler(HandlerConfig{AccessToken: testToken, Envelope: ResponseEnvelope, Registry: store, Callbacks: store, Log: zerolog.Nop()})
	_, got := serve(t, h, "POST", "/xxl-job-admin/api/registry", tok, `{"registryGroup":`)
	if want := fail("openapi invoke error: invalid request body: "); len(got) < len(want)-20 || got[:60] != want[:60] {
		t.Errorf("malformed body answered %s", got)
	}
}
