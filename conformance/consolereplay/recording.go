package consolereplay

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// RecordingsDir is where the recordings live, relative to the module root.
const RecordingsDir = "conformance/testdata/recordings/java-admin-2.4.2"

// Recording is one <scenario>.<lang>.json file: the traffic of one scenario
// against the Java admin 2.4.2 (README.md beside the files describes it).
type Recording struct {
	Scenario    string     `json:"scenario"` // "<name>.<lang>"
	Description string     `json:"description"`
	Setup       Setup      `json:"setup"`
	Exchanges   []Exchange `json:"exchanges"`
}

// Setup is the part of the recording's setup block the replay uses.
type Setup struct {
	I18n       string `json:"i18n"`
	RecordedAt string `json:"recorded_at"`
	// FakeExecutorCalls is what the admin sent to the fake executor during
	// the scenario, where the recorder noted it.
	FakeExecutorCalls []ExecutorCall `json:"fake_executor_calls"`
}

// ExecutorCall is one request the admin made to the fake executor.
type ExecutorCall struct {
	Path     string          `json:"path"`
	BodyJSON json.RawMessage `json:"body_json"`
}

// Exchange is one request and its recorded response.
type Exchange struct {
	Note     string   `json:"note"`
	Request  Request  `json:"request"`
	Response Response `json:"response"`
	// DBAfter holds, per label, the rows the recorder read right after the
	// exchange; values are MariaDB text (nil for NULL).
	DBAfter map[string][]map[string]*string `json:"db_after"`
}

// Request is the recorded request; Path includes the context path and query.
type Request struct {
	Method  string      `json:"method"`
	Path    string      `json:"path"`
	Headers [][2]string `json:"headers"`
	Body    string      `json:"body"`
	Form    [][2]string `json:"form"`
}

// Response is the recorded response. JSON endpoints carry BodyJSON; pages
// carry only PageTitle and, for the admin's error page, ErrorPageMessage.
type Response struct {
	Status           int             `json:"status"`
	Headers          [][2]string     `json:"headers"`
	Body             *string         `json:"body"`
	BodyJSON         json.RawMessage `json:"body_json"`
	PageTitle        *string         `json:"page_title"`
	ErrorPageMessage *string         `json:"error_page_message"`
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
