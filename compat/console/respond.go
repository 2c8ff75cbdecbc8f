package console

import (
	"bytes"
	"encoding/json"
	"net/http"
	"strings"
	"time"

	"github.com/xxl-admin-go/xxl-admin-go/compat/schema"
)

// Content types of JSON answers (recordings, "Content-Type values seen"):
// a controller's own answer has no charset; an answer rendered by the
// exception resolver (permission errors, failures) carries one.
const (
	typeJSON      = "application/json"
	typeJSONError = "application/json;charset=utf-8"
)

// returnT is the ReturnT envelope as Jackson writes it: all three members,
// nil as null (console.md §1.4).
type returnT struct {
	Code    int     `json:"code"`
	Msg     *string `json:"msg"`
	Content any     `json:"content"`
}

// jackson encodes v as the Java admin's Jackson does for these shapes: no
// HTML escaping of <, > and & (messages carry markup such as "<br/>").
func jackson(v any) []byte {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		// Only our own model types reach here; a failure is a programming error.
		return []byte(`{"code":500,"msg":"encode answer failed","content":null}`)
	}
	return bytes.TrimSuffix(b.Bytes(), []byte("\n"))
}

func writeBody(w http.ResponseWriter, status int, contentType string, body []byte) {
	w.Header().Set("Content-Type", contentType)
	w.Header().Set("Cache-Control", "no-store")
	w.WriteHeader(status)
	_, _ = w.Write(body)
}

// ok answers {"code":200,"msg":null,"content":content}.
func ok(w http.ResponseWriter, content any) {
	writeBody(w, http.StatusOK, typeJSON, jackson(returnT{Code: 200, Content: content}))
}

// fail answers {"code":500,"msg":msg,"content":null}, a controller's own
// refusal (validation).
func fail(w http.ResponseWriter, msg string) {
	writeBody(w, http.StatusOK, typeJSON, jackson(returnT{Code: 500, Msg: &msg}))
}

// failNull answers ReturnT.FAIL: {"code":500,"msg":null,"content":null}.
func failNull(w http.ResponseWriter) {
	writeBody(w, http.StatusOK, typeJSON, jackson(returnT{Code: 500}))
}

// failResolved answers like Java's exception resolver for a JSON endpoint:
// HTTP 200, code 500, with the charset content type (console.md §1.3).
func failResolved(w http.ResponseWriter, msg string) {
	writeBody(w, http.StatusOK, typeJSONError, jackson(returnT{Code: 500, Msg: &msg}))
}

// dataTable writes a DataTables list in the key order of the Java admin's
// HashMap (recordings jobgroup_pageList: recordsFiltered, data,
// recordsTotal); both counts are the filtered count.
func dataTable(w http.ResponseWriter, rows any, total int) {
	dataTableTotal(w, rows, schema.Total{N: total, Exact: true})
}

// dataTableTotal is dataTable with a total that may be a lower bound: then
// "countExact":false follows (the Java admin's totals are always exact and
// it never writes the field), and the page shows "more than N".
func dataTableTotal(w http.ResponseWriter, rows any, t schema.Total) {
	total := t.N
	var b bytes.Buffer
	b.WriteString(`{"recordsFiltered":`)
	b.Write(jackson(total))
	b.WriteString(`,"data":`)
	b.Write(jackson(rows))
	b.WriteString(`,"recordsTotal":`)
	b.Write(jackson(total))
	if !t.Exact {
		b.WriteString(`,"countExact":false`)
	}
	b.WriteString(`}`)
	writeBody(w, http.StatusOK, typeJSON, b.Bytes())
}

// springError answers like Spring Boot's error controller for a binding or
// method error (recordings http_methods_and_binding): status and a JSON
// body with timestamp, status, error and path — or, for a browser asking
// for a page, a small HTML page with the same status.
func springError(w http.ResponseWriter, r *http.Request, status int, now time.Time) {
	if wantsHTML(r) {
		body := "<!DOCTYPE html><html><head><title>" + http.StatusText(status) + "</title></head><body><h1>" +
			http.StatusText(status) + "</h1><p>The request could not be served (status " + http.StatusText(status) + ").</p></body></html>"
		w.Header().Set("Content-Language", "en")
		writeBody(w, status, "text/html;charset=UTF-8", []byte(body))
		return
	}
	var b bytes.Buffer
	b.WriteString(`{"timestamp":`)
	b.Write(jackson(now.UTC().Format("2006-01-02T15:04:05.000+00:00")))
	b.WriteString(`,"status":`)
	b.Write(jackson(status))
	b.WriteString(`,"error":`)
	b.Write(jackson(http.StatusText(status)))
	b.WriteString(`,"path":`)
	b.Write(jackson(r.URL.Path))
	b.WriteString(`}`)
	writeBody(w, status, typeJSON, b.Bytes())
}

// wantsHTML tells a browser page request from a script or AJAX call.
func wantsHTML(r *http.Request) bool {
	return r.Header.Get("X-Requested-With") == "" && strings.Contains(r.Header.Get("Accept"), "text/html")
}

// jacksonTime is how Spring Boot 2.7's Jackson writes a java.util.Date:
// ISO-8601 in UTC with milliseconds and a colon offset (console.md §1.4).
func jacksonTime(t *time.Time) *string {
	if t == nil {
		return nil
	}
	s := t.UTC().Format("2006-01-02T15:04:05.000+00:00")
	return &s
}
