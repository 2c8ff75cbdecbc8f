package app_test

import (
	"bytes"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/xxl-admin-go/xxl-admin-go/app"
)

// TestHealthCommand: `xxl-admin-go health` is the probe of the shell-less
// image (issue 15): exit 0 on a 2xx answer, 1 on anything else, and without
// --url it asks the configured port and context path on loopback.
func TestHealthCommand(t *testing.T) {
	var gotPath string
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		gotPath = r.URL.Path
		switch r.URL.Path {
		case "/ctx/actuator/health", "/up":
			_, _ = w.Write([]byte(`{"status":"UP"}`))
		default:
			w.WriteHeader(http.StatusServiceUnavailable)
			_, _ = w.Write([]byte(`{"status":"DOWN"}`))
		}
	}))
	defer srv.Close()
	_, port, _ := net.SplitHostPort(strings.TrimPrefix(srv.URL, "http://"))

	closed, _ := net.Listen("tcp", "127.0.0.1:0")
	closedURL := "http://" + closed.Addr().String() + "/"
	_ = closed.Close()

	cases := []struct {
		name     string
		args     []string
		wantCode int
		wantPath string
		wantOut  string
	}{
		{"url up", []string{"--url", srv.URL + "/up"}, 0, "/up", `UP ` + srv.URL + `/up: HTTP 200 {"status":"UP"}`},
		{"url=value form", []string{"--url=" + srv.URL + "/up", "--timeout=2s"}, 0, "/up", "HTTP 200"},
		{"503 is down", []string{"--url", srv.URL + "/down"}, 1, "/down", `HTTP 503 {"status":"DOWN"}`},
		{"refused is down", []string{"--url", closedURL}, 1, "", "connection refused"},
		{"default URL from configuration", []string{"--server.port=" + port, "--server.servlet.context-path=ctx/"}, 0, "/ctx/actuator/health", "http://127.0.0.1:" + port + "/ctx/actuator/health"},
		{"server.address 0.0.0.0 means loopback", []string{"--server.port=" + port, "--server.address=0.0.0.0", "--server.servlet.context-path=/ctx"}, 0, "/ctx/actuator/health", "127.0.0.1"},
		{"bad configuration", []string{"--server.port=abc"}, 1, "", "server.port"},
		{"bad timeout", []string{"--timeout", "soon"}, 1, "", "--timeout"},
		{"url without value", []string{"--url"}, 1, "", "needs a value"},
		{"keys with --url", []string{"--url", srv.URL, "--server.port=1"}, 1, "", "only choose the default URL"},
		{"help", []string{"--help"}, 0, "", "usage: xxl-admin-go health"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			gotPath = ""
			var out, errOut bytes.Buffer
			code := app.Main(append([]string{"health"}, tc.args...), &out, &errOut)
			all := out.String() + errOut.String()
			if code != tc.wantCode || !strings.Contains(all, tc.wantOut) {
				t.Fatalf("code %d (want %d), output %q (want %q)", code, tc.wantCode, all, tc.wantOut)
			}
			if gotPath != tc.wantPath {
				t.Errorf("server saw %q, want %q", gotPath, tc.wantPath)
			}
			if tc.wantCode == 0 && errOut.Len() > 0 || tc.wantCode != 0 && out.Len() > 0 {
				t.Errorf("stdout %q / stderr %q: success goes to stdout, failure to stderr", out.String(), errOut.String())
			}
		})
	}
}

// TestVersionCommand: `--version` prints one line naming the version, the
// commit, the date and the Go toolchain (issue 9); the values stamped by
// -ldflags are checked on the built binary in conformance/image.
func TestVersionCommand(t *testing.T) {
	for _, arg := range []string{"--version", "version", "-version"} {
		var out, errOut bytes.Buffer
		if code := app.Main([]string{arg}, &out, &errOut); code != 0 {
			t.Fatalf("%s: code %d", arg, code)
		}
		b := app.Build()
		want := "xxl-admin-go " + b.Version + " (commit " + b.Commit + ", built " + b.Date + ", " + b.Go + " " + b.OS + "/" + b.Arch + ")\n"
		if out.String() != want || !strings.HasPrefix(b.Go, "go") {
			t.Fatalf("%s: %q, want %q", arg, out.String(), want)
		}
	}
}
