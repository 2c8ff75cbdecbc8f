package replay_test

import (
	"encoding/json"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// recordingsDir is the recorded Java 2.4.2 traffic; its README.md
// describes the format used below.
const recordingsDir = "../testdata/recordings/java-executor-2.4.2"

// Directions of an exchange (README "File format").
const (
	toExecutor = "admin->executor"
	toAdmin    = "executor->admin"
)

type recording struct {
	file           string
	Scenario       string   `json:"scenario"`
	Setup          setup    `json:"setup"`
	VolatileFields []string `json:"volatile_fields"`
	Exchanges      []exchange
}

type setup struct {
	AccessToken    *string `json:"access_token"`
	AdminAddresses string  `json:"admin_addresses"`
}

type exchange struct {
	Direction string  `json:"direction"`
	Note      string  `json:"note"`
	Request   message `json:"request"`
	Response  message `json:"response"`
}

type message struct {
	Method      string          `json:"method"`
	Path        string          `json:"path"`
	HTTPVersion string          `json:"http_version"`
	Status      int             `json:"status"`
	Headers     [][2]string     `json:"headers"`
	Body        string          `json:"body"`
	BodyJSON    json.RawMessage `json:"body_json"` // absent when the body is not JSON
}

// header returns the first value of a header, matched ignoring case.
func (m message) header(name string) (string, bool) {
	for _, h := range m.Headers {
		if strings.EqualFold(h[0], name) {
			return h[1], true
		}
	}
	return "", false
}

// token is the access token the scenario's executor (and so the admin
// facing it) was configured with.
func (r recording) token(t *testing.T) string {
	t.Helper()
	if r.Setup.AccessToken == nil {
		t.Fatalf("%s: setup has no access_token", r.file)
	}
	return *r.Setup.AccessToken
}

// contextPath is the admin context path the executor used, taken from
// setup.admin_addresses (README "How the capture was set up").
func (r recording) contextPath(t *testing.T) string {
	t.Helper()
	u, err := url.Parse(r.Setup.AdminAddresses)
	if err != nil || u.Path == "" {
		t.Fatalf("%s: admin_addresses %q: %v", r.file, r.Setup.AdminAddresses, err)
	}
	return strings.TrimSuffix(u.Path, "/")
}

// loadRecordings loads every *.json recording and fails the test if any
// cannot be read or decoded.
func loadRecordings(t *testing.T) []recording {
	t.Helper()
	files, err := filepath.Glob(filepath.Join(recordingsDir, "*.json"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no recordings in %s: %v", recordingsDir, err)
	}
	out := make([]recording, 0, len(files))
	for _, name := range files {
		b, err := os.ReadFile(name)
		if err != nil {
			t.Fatalf("read %s: %v", name, err)
		}
		var r recording
		if err := json.Unmarshal(b, &r); err != nil {
			t.Fatalf("decode %s: %v", name, err)
		}
		r.file = filepath.Base(name)
		if r.Scenario+".json" != r.file || len(r.Exchanges) == 0 {
			t.Fatalf("%s: scenario %q with %d exchanges", r.file, r.Scenario, len(r.Exchanges))
		}
		out = append(out, r)
	}
	return out
}
