package consolereplay

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// RecordingsDir is where the 2.4.2 recordings live, relative to the module root.
const RecordingsDir = "conformance/testdata/recordings/java-admin-2.4.2"

// RecordingsDir342 is where the 3.4.2 recordings live (conformance/record342
// writes them).
const RecordingsDir342 = "conformance/testdata/recordings/java-admin-3.4.2"

// Recording is one <scenario>.<lang>.json file: the traffic of one scenario
// against a Java admin (README.md beside the files describes it). The
// types here are the file format: the 3.4.2 recorder writes them, the
// replay reads them.
type Recording struct {
	Scenario       string     `json:"scenario"` // "<name>.<lang>"
	Description    string     `json:"description"`
	Setup          Setup      `json:"setup"`
	Findings       []string   `json:"findings"`
	VolatileFields []string   `json:"volatile_fields"`
	Exchanges      []Exchange `json:"exchanges"`
}

// Setup describes how the scenario was recorded; the replay uses I18n,
// AdminURL, FixtureAt, Logins and FakeExecutorCalls.
type Setup struct {
	Admin        string            `json:"admin"`
	AdminURL     string            `json:"admin_url"`
	I18n         string            `json:"i18n"`
	Database     string            `json:"database"`
	FakeExecutor string            `json:"fake_executor"`
	Users        map[string]string `json:"users"`
	RecordedAt   string            `json:"recorded_at"`
	// FixtureAt is when the recorder loaded the fixture of this run
	// (RFC 3339; 3.4.2 recordings), the time its dates are relative to.
	FixtureAt string `json:"fixture_at,omitempty"`
	// Logins are the logins the recorder made before the scenario (3.4.2):
	// the replay makes them too, at the same point.
	Logins []SetupLogin `json:"logins,omitempty"`
	// FakeExecutorCalls is what the admin sent to the fake executor during
	// the scenario, where the recorder noted it.
	FakeExecutorCalls []ExecutorCall `json:"fake_executor_calls,omitempty"`
}

// ExecutorCall is one request the admin made to the fake executor.
type ExecutorCall struct {
	Path     string          `json:"path"`
	BodyJSON json.RawMessage `json:"body_json"`
}

// Exchange is one request and its recorded response.
type Exchange struct {
	Direction string   `json:"direction"` // "client->admin"
	Note      string   `json:"note,omitempty"`
	Request   Request  `json:"request"`
	Response  Response `json:"response"`
	// DBAfter holds, per label, the rows the recorder read right after the
	// exchange; values are MariaDB text (nil for NULL).
	DBAfter map[string][]map[string]*string `json:"db_after,omitempty"`
}

// Request is the recorded request; Path includes the context path and query.
type Request struct {
	Method  string      `json:"method"`
	Path    string      `json:"path"`
	Headers [][2]string `json:"headers"`
	Body    string      `json:"body"`
	Form    [][2]string `json:"form,omitempty"`
}

// Response is the recorded response, headers in wire order. JSON
// endpoints carry Body and BodyJSON; pages and static files carry no body,
// only their length, a page its PageTitle and, for the admin's error page,
// ErrorPageMessage.
type Response struct {
	Status           int             `json:"status"`
	Reason           string          `json:"reason"`
	Headers          [][2]string     `json:"headers"`
	Body             *string         `json:"body"`
	BodyJSON         json.RawMessage `json:"body_json,omitempty"`
	PageTitle        *string         `json:"page_title,omitempty"`
	BodyLength       *int            `json:"body_length,omitempty"`
	ErrorPageMessage *string         `json:"error_page_message,omitempty"`
}

// Header returns the first value of a header (case-insensitive) in a
// recorded header list, and whether it was present.
func Header(headers [][2]string, name string) (string, bool) {
	for _, h := range headers {
		if strings.EqualFold(h[0], name) {
			return h[1], true
		}
	}
	return "", false
}

// HeaderValues returns every value of a header (case-insensitive).
func HeaderValues(headers [][2]string, name string) []string {
	var out []string
	for _, h := range headers {
		if strings.EqualFold(h[0], name) {
			out = append(out, h[1])
		}
	}
	return out
}

// Name is the scenario name without the language suffix.
func (r *Recording) Name() string {
	name, _, _ := strings.Cut(r.Scenario, ".")
	return name
}

// LoadRecording reads <dir>/<scenario>.<lang>.json.
func LoadRecording(dir, scenario, lang string) (*Recording, error) {
	path := filepath.Join(dir, scenario+"."+lang+".json")
	raw, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("read recording: %w", err)
	}
	var r Recording
	if err := json.Unmarshal(raw, &r); err != nil {
		return nil, fmt.Errorf("parse recording %s: %w", path, err)
	}
	if want := scenario + "." + lang; r.Scenario != want {
		return nil, fmt.Errorf("recording %s names scenario %q, want %q", path, r.Scenario, want)
	}
	return &r, nil
}

// ListRecordings returns the "<scenario>.<lang>" names of every recording in dir.
func ListRecordings(dir string) ([]string, error) {
	paths, err := filepath.Glob(filepath.Join(dir, "*.json"))
	if err != nil {
		return nil, fmt.Errorf("list recordings: %w", err)
	}
	out := make([]string, 0, len(paths))
	for _, p := range paths {
		out = append(out, strings.TrimSuffix(filepath.Base(p), ".json"))
	}
	return out, nil
}
