package api

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
)

// Envelope is the shape of the admin API's answers.
type Envelope int

const (
	// ReturnTEnvelope is 2.x's ReturnT as Jackson writes it:
	// {"code":200,"msg":null,"content":null} (§1.2).
	ReturnTEnvelope Envelope = iota
	// ResponseEnvelope is 3.3+'s xxl-tool Response as the 3.4.2 admin's
	// Jackson writes it, members in alphabetical order and the derived
	// "success": {"code":200,"data":null,"msg":"Success","success":true}
	// (answers of the 3.4.2 jar, conformance/apidiff).
	ResponseEnvelope
)

// success is the body of a successful answer.
func (e Envelope) success() string {
	if e == ResponseEnvelope {
		return `{"code":200,"data":null,"msg":"Success","success":true}`
	}
	return `{"code":200,"msg":null,"content":null}`
}

// fail is the body of a code-500 answer carrying msg.
func (e Envelope) fail(msg string) string {
	if e == ResponseEnvelope {
		return `{"code":500,"data":null,"msg":` + jacksonString(msg) + `,"success":false}`
	}
	return `{"code":500,"msg":` + jacksonString(msg) + `,"content":null}`
}

// writeFail answers a code-500 envelope with msg, Jackson-style.
func (e Envelope) writeFail(w http.ResponseWriter, msg string) {
	writeJSON(w, e.fail(msg))
}

// writeJSON answers HTTP 200 whatever the outcome: the result is in the
// ReturnT code (§2.2).
func writeJSON(w http.ResponseWriter, body string) {
	if w.Header().Get("Content-Type") == "" {
		w.Header().Set("Content-Type", contentTypeJSON)
	}
	w.WriteHeader(http.StatusOK)
	_, _ = io.WriteString(w, body)
}

// jacksonString quotes s as Jackson does for the admin's answers: no HTML
// escaping, unlike encoding/json's default (a Java exception text may hold
// "<br/>", §2.2 notes).
func jacksonString(s string) string {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	_ = enc.Encode(s) // encoding a string cannot fail
	return string(bytes.TrimSuffix(b.Bytes(), []byte("\n")))
}
