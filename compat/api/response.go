package api

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
)

// successBody is ReturnT.SUCCESS as Jackson writes it.
const successBody = `{"code":200,"msg":null,"content":null}`

// writeFail answers a code-500 ReturnT with msg, Jackson-style.
func writeFail(w http.ResponseWriter, msg string) {
	writeJSON(w, `{"code":500,"msg":`+jacksonString(msg)+`,"content":null}`)
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
