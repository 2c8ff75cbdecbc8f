package openapi

import (
	"bytes"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/xxl-admin-go/xxl-admin-go/internal/testsupport/storetest"
)

// TestServedDocumentIsValid: the document GET /openapi.json serves (no
// token needed) is valid OpenAPI 3.0 for kin-openapi, examples included.
func TestServedDocumentIsValid(t *testing.T) {
	e := newEnv(t, storetest.SQLite(t), "")
	a := e.callToken("GET", "/openapi.json", nil, "")
	if a.status != 200 || a.header.Get("Content-Type") != "application/json" {
		t.Fatalf("document: %d %v", a.status, a.header)
	}
	c, err := loadContract(t.Context(), a.body)
	if err != nil {
		t.Fatal(err)
	}
	if got := c.doc.Servers[0].URL; got != ctxPath+Base {
		t.Errorf("server URL %q", got)
	}
}

// brokenDocuments are openapi.yaml with one fault each, made by replacing
// text once, and what the validator must say about it.
var brokenDocuments = []struct {
	name, old, new, says string
}{
	// Issue 22: an unquoted description in a flow mapping is a second key.
	{"flow mapping", `description: '0 stopped, 1 running'}`, `description: 0 stopped, 1 running: ''}`, "1 running"},
	{"example of the wrong type", "ok: {value: 2}\n          removable: {value: 3}", "ok: {value: two}\n          removable: {value: 3}", "two"},
	{"answer example with a renamed field", "appname: xxl-job-executor-sample", "appName: xxl-job-executor-sample", "appName"},
	{"default out of bounds", "maximum: 1000, default: 20}", "maximum: 1000, default: 5000}", "5000"},
	{"reference to nothing", "$ref: '#/components/responses/Internal'", "$ref: '#/components/responses/Internl'", "Internl"},
}

// breakDocument applies one fault to openapi.yaml and renders it.
func breakDocument(t *testing.T, old, new string) []byte {
	t.Helper()
	if !bytes.Contains(spec, []byte(old)) {
		t.Fatalf("openapi.yaml has no %q", old)
	}
	raw, err := render(bytes.Replace(spec, []byte(old), []byte(new), 1), ctxPath)
	if err != nil {
		t.Fatal(err)
	}
	return raw
}

// TestValidatorRefusesBrokenDocuments: the validation the tests rely on
// fails on each kind of fault.
func TestValidatorRefusesBrokenDocuments(t *testing.T) {
	for _, c := range brokenDocuments {
		t.Run(c.name, func(t *testing.T) {
			_, err := loadContract(t.Context(), breakDocument(t, c.old, c.new))
			if err == nil || !strings.Contains(err.Error(), c.says) {
				t.Errorf("validator says %v, want an error naming %q", err, c.says)
			}
		})
	}
}

// TestTrafficCheckCatchesDrift feeds the traffic check exchanges that do
// not fit the document — each must be reported — and ones that do.
func TestTrafficCheckCatchesDrift(t *testing.T) {
	c := servedContract(t)
	bearer := http.Header{"Authorization": {"Bearer " + testToken}}
	withJSON := http.Header{"Authorization": {"Bearer " + testToken}, "Content-Type": {"application/json"}}
	jsonAnswer := http.Header{"Content-Type": {"application/json"}}
	group := `{"id":1,"appname":"xxl-job-executor-sample","title":"示例执行器","addressType":0,"addressList":[],"updateTime":"2018-11-03T22:21:31+08:00"}`
	groupIn := `{"appname":"app-orders","title":"Orders","addressType":1,"addressList":["http://127.0.0.1:9999/"]}`
	for _, x := range []struct {
		name string
		ex   exchange
		says string // "" for an exchange that fits
	}{
		{"fits", exchange{method: "GET", path: "/groups/1", header: bearer, status: 200, respHeader: jsonAnswer,
			respBody: `{"data":` + group + `}`}, ""},
		{"renamed field", exchange{method: "GET", path: "/groups/1", header: bearer, status: 200, respHeader: jsonAnswer,
			respBody: `{"data":` + strings.Replace(group, `"appname"`, `"appName"`, 1) + `}`}, `"appName" is unsupported`},
		{"wrong type", exchange{method: "GET", path: "/groups/1", header: bearer, status: 200, respHeader: jsonAnswer,
			respBody: `{"data":` + strings.Replace(group, `"id":1`, `"id":"1"`, 1) + `}`}, "integer"},
		{"missing member", exchange{method: "GET", path: "/groups/1", header: bearer, status: 200, respHeader: jsonAnswer,
			respBody: `{"data":{"id":1}}`}, "appname"},
		{"time not RFC 3339", exchange{method: "GET", path: "/groups/1", header: bearer, status: 200, respHeader: jsonAnswer,
			respBody: `{"data":` + strings.Replace(group, "2018-11-03T22:21:31+08:00", "2018-11-03 22:21:31", 1) + `}`}, "date-time"},
		{"list without page", exchange{method: "GET", path: "/groups", header: bearer, status: 200, respHeader: jsonAnswer,
			respBody: `{"data":[` + group + `]}`}, "page"},
		{"undocumented status", exchange{method: "GET", path: "/groups/1", header: bearer, status: 418, respHeader: jsonAnswer,
			respBody: `{"code":"invalid","message":"x"}`}, "status is not supported"},
		{"error code of another status", exchange{method: "GET", path: "/groups/1", header: bearer, status: 404, respHeader: jsonAnswer,
			respBody: `{"code":"invalid","message":"x"}`}, "code"},
		{"error without message", exchange{method: "GET", path: "/groups/1", header: bearer, status: 404, respHeader: jsonAnswer,
			respBody: `{"code":"not_found"}`}, "message"},
		{"not JSON", exchange{method: "GET", path: "/groups/1", header: bearer, status: 200, respHeader: http.Header{"Content-Type": {"text/html"}},
			respBody: `<p>1</p>`}, "text/html"},
		{"401 fits", exchange{method: "GET", path: "/groups", status: 401,
			respHeader: http.Header{"Content-Type": {"application/json"}, "Www-Authenticate": {`Bearer realm="xxl-admin-go"`}},
			respBody:   `{"code":"unauthorized","message":"send the job API token as Authorization: Bearer <token>"}`}, ""},
		{"401 without WWW-Authenticate", exchange{method: "GET", path: "/groups", status: 401, respHeader: jsonAnswer,
			respBody: `{"code":"unauthorized","message":"x"}`}, "WWW-Authenticate"},
		{"created fits", exchange{method: "POST", path: "/groups", header: withJSON, body: groupIn, status: 201,
			respHeader: http.Header{"Content-Type": {"application/json"}, "Location": {ctxPath + Base + "/groups/1"}},
			respBody:   `{"data":` + group + `}`}, ""},
		{"created without Location", exchange{method: "POST", path: "/groups", header: withJSON, body: groupIn, status: 201,
			respHeader: jsonAnswer, respBody: `{"data":` + group + `}`}, "Location"},
		{"accepts what the document refuses", exchange{method: "POST", path: "/groups", header: withJSON,
			body: `{"appName":"app-orders"}`, status: 200, respHeader: jsonAnswer, respBody: `{"data":` + group + `}`},
			"the API accepted (200) a request the document refuses"},
		{"refuses as malformed what the document accepts", exchange{method: "GET", path: "/jobs?limit=10", header: bearer,
			status: 400, respHeader: jsonAnswer, respBody: `{"code":"invalid","message":"offset must be at least 0 and limit between 1 and 1000"}`},
			"refused as malformed"},
		{"refuses a JSON body as another media type", exchange{method: "POST", path: "/groups", header: http.Header{"Authorization": {"Bearer " + testToken}, "Content-Type": {"application/json"}},
			body: groupIn, status: 415, respHeader: jsonAnswer, respBody: `{"code":"unsupported_media_type","message":"send the body as application/json"}`},
			"refused as malformed"},
		{"unknown path fits", exchange{method: "GET", path: "/nothing", header: bearer, status: 404, respHeader: jsonAnswer,
			respBody: `{"code":"not_found","message":"no such endpoint: /xxl-job-admin/openapi/v1/nothing"}`}, ""},
		{"unknown path answered", exchange{method: "GET", path: "/nothing", header: bearer, status: 200, respHeader: jsonAnswer,
			respBody: `{"data":[]}`}, "no operation"},
		{"unknown method fits", exchange{method: "PATCH", path: "/jobs/1", header: bearer, status: 405, respHeader: jsonAnswer,
			respBody: `{"code":"method_not_allowed","message":"PATCH is not allowed here"}`}, ""},
		{"unknown method answered with another code", exchange{method: "PATCH", path: "/jobs/1", header: bearer, status: 405,
			respHeader: jsonAnswer, respBody: `{"code":"not_found","message":"x"}`}, "method_not_allowed"},
	} {
		t.Run(x.name, func(t *testing.T) {
			x.ex.path = ctxPath + Base + x.ex.path
			err := c.check(t.Context(), x.ex)
			switch {
			case x.says == "" && err != nil:
				t.Errorf("reported an exchange that fits: %v", err)
			case x.says != "" && (err == nil || !strings.Contains(err.Error(), x.says)):
				t.Errorf("check says %v, want an error naming %q", err, x.says)
			}
		})
	}
}

// EnvSpecValidator names the openapi-spec-validator command (Python, the
// OpenAPI ecosystem's reference validator) that TestReferenceValidator
// runs; .ci/setup.d/50-openapi.sh installs it.
const EnvSpecValidator = "XXL_TEST_OPENAPI_VALIDATOR"

// TestReferenceValidator: openapi-spec-validator accepts the served
// document, and refuses it with the flow mapping of issue 22 back in.
func TestReferenceValidator(t *testing.T) {
	bin := os.Getenv(EnvSpecValidator)
	if bin == "" {
		t.Skip("[suite-off] " + EnvSpecValidator + " not set: the path of openapi-spec-validator 0.9.0 (pip install; .ci/setup.d/50-openapi.sh)")
	}
	e := newEnv(t, storetest.SQLite(t), "")
	served := e.callToken("GET", "/openapi.json", nil, "").body
	run := func(doc []byte) (string, error) {
		f := filepath.Join(t.TempDir(), "openapi.json")
		if err := os.WriteFile(f, doc, 0o644); err != nil {
			t.Fatal(err)
		}
		out, err := exec.CommandContext(t.Context(), bin, f).CombinedOutput()
		return string(out), err
	}
	if out, err := run(served); err != nil || !strings.Contains(out, ": OK") {
		t.Errorf("served document: %v\n%s", err, out)
	}
	fault := brokenDocuments[0]
	if out, err := run(breakDocument(t, fault.old, fault.new)); err == nil || !strings.Contains(out, fault.says) {
		t.Errorf("document with the %s: %v\n%s", fault.name, err, out)
	}
}
