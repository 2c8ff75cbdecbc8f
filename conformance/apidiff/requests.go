package apidiff

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"sort"
	"strings"
	"time"
)

// Token is the access token both admins are started with.
const Token = "apidiff_token"

// Request is one request of the comparison, sent byte for byte.
type Request struct {
	Name   string
	Method string
	Path   string // under the context path
	Token  *string
	Type   string // Content-Type; "" sends none
	Body   string
	// CodeOnly compares the body's ReturnT code only: its msg is a Java
	// exception's text (executor-protocol.md §2.2 notes).
	CodeOnly bool
	// MsgPrefix, with CodeOnly, is a JSON fragment both bodies must hold
	// (3.4.2: the controller's prefix before the exception's message).
	MsgPrefix string
	// Page marks a path the API mapping does not route, answered by the
	// console's error page: status, Content-Type and Content-Language are
	// compared; the page itself is each admin's own (our markup, our
	// security headers; conformance/consolereplay compares pages) and is
	// reported as PageDeviation.
	Page bool
}

// PageDeviation is the reason reported for a Page request whose page
// differs.
const PageDeviation = "a path the API does not route is answered by the console's error page with the same status and " +
	"content type; the page is our own (own markup, never the Java template; our security headers: Cache-Control, " +
	"Content-Security-Policy, Referrer-Policy, X-Content-Type-Options, X-Frame-Options)"

// Answer is what an admin answered: status, the headers that are not
// framing or clock, and the body.
type Answer struct {
	Status  int               `json:"status"`
	Headers map[string]string `json:"headers"`
	Body    string            `json:"body"`
}

func tok(s string) *string { return &s }

const jsonType = "application/json;charset=UTF-8"

// Requests are the cases: each endpoint with good input, and the ways
// input goes wrong (§2.2): method, token, body, uri. The callback cases
// name log 1, which the test creates in both databases.
func Requests() []Request {
	reg := `{"registryGroup":"EXECUTOR","registryKey":"apidiff-app","registryValue":"http://127.0.0.1:9999/"}`
	cb := `[{"logId":1,"logDateTim":1732500000000,"handleCode":200,"handleMsg":"done"}]`
	return []Request{
		{Name: "registry ok", Method: "POST", Path: "/api/registry", Token: tok(Token), Type: jsonType, Body: reg},
		{Name: "registry wrong token", Method: "POST", Path: "/api/registry", Token: tok("wrong"), Type: jsonType, Body: reg},
		{Name: "registry no token", Method: "POST", Path: "/api/registry", Type: jsonType, Body: reg},
		{Name: "registry GET", Method: "GET", Path: "/api/registry", Token: tok(Token)},
		{Name: "registry missing value", Method: "POST", Path: "/api/registry", Token: tok(Token), Type: jsonType,
			Body: `{"registryGroup":"EXECUTOR","registryKey":"apidiff-app"}`},
		{Name: "registry blank key", Method: "POST", Path: "/api/registry", Token: tok(Token), Type: jsonType,
			Body: `{"registryGroup":"EXECUTOR","registryKey":" ","registryValue":"http://127.0.0.1:9999/"}`},
		{Name: "registry extra member", Method: "POST", Path: "/api/registry", Token: tok(Token), Type: jsonType,
			Body: `{"registryGroup":"EXECUTOR","registryKey":"apidiff-app","registryValue":"http://127.0.0.1:9998/","x":1}`},
		{Name: "registry no content type", Method: "POST", Path: "/api/registry", Token: tok(Token), Body: reg},
		{Name: "registryRemove ok", Method: "POST", Path: "/api/registryRemove", Token: tok(Token), Type: jsonType, Body: reg},
		{Name: "registryRemove missing group", Method: "POST", Path: "/api/registryRemove", Token: tok(Token), Type: jsonType,
			Body: `{"registryKey":"apidiff-app","registryValue":"http://127.0.0.1:9999/"}`},
		{Name: "registryRemove wrong token", Method: "POST", Path: "/api/registryRemove", Token: tok("wrong"), Type: jsonType, Body: reg},
		{Name: "callback ok", Method: "POST", Path: "/api/callback", Token: tok(Token), Type: jsonType, Body: cb},
		{Name: "callback again", Method: "POST", Path: "/api/callback", Token: tok(Token), Type: jsonType, Body: cb},
		{Name: "callback empty list", Method: "POST", Path: "/api/callback", Token: tok(Token), Type: jsonType, Body: `[]`},
		{Name: "callback wrong token", Method: "POST", Path: "/api/callback", Token: tok("wrong"), Type: jsonType, Body: cb},
		{Name: "registry malformed JSON", Method: "POST", Path: "/api/registry", Token: tok(Token), Type: jsonType,
			Body: `{"registryGroup":`, CodeOnly: true},
		{Name: "registry empty body", Method: "POST", Path: "/api/registry", Token: tok(Token), Type: jsonType, CodeOnly: true},
		{Name: "unknown uri", Method: "POST", Path: "/api/nothing", Token: tok(Token), Type: jsonType, Body: `{}`},
		{Name: "unknown uri wrong token", Method: "POST", Path: "/api/nothing", Token: tok("wrong"), Type: jsonType, Body: `{}`},
	}
}

// Send writes r to the admin at host (127.0.0.1:PORT) under contextPath
// and reads the answer.
func Send(host, contextPath string, r Request) (Answer, error) {
	var b bytes.Buffer
	fmt.Fprintf(&b, "%s %s%s HTTP/1.1\r\nHost: %s\r\nConnection: close\r\n", r.Method, contextPath, r.Path, host)
	if r.Type != "" {
		fmt.Fprintf(&b, "Content-Type: %s\r\n", r.Type)
	}
	if r.Token != nil {
		fmt.Fprintf(&b, "XXL-JOB-ACCESS-TOKEN: %s\r\n", *r.Token)
	}
	if r.Method == "POST" || r.Body != "" {
		fmt.Fprintf(&b, "Content-Length: %d\r\n", len(r.Body))
	}
	b.WriteString("\r\n")
	b.WriteString(r.Body)
	conn, err := net.DialTimeout("tcp", host, 5*time.Second)
	if err != nil {
		return Answer{}, err
	}
	defer conn.Close()
	_ = conn.SetDeadline(time.Now().Add(15 * time.Second))
	if _, err := conn.Write(b.Bytes()); err != nil {
		return Answer{}, err
	}
	resp, err := http.ReadResponse(bufio.NewReader(conn), nil)
	if err != nil {
		return Answer{}, err
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	if err != nil {
		return Answer{}, err
	}
	a := Answer{Status: resp.StatusCode, Headers: map[string]string{}, Body: string(body)}
	for k, v := range resp.Header {
		switch k {
		case "Date", "Content-Length", "Transfer-Encoding", "Connection", "Keep-Alive":
		default:
			a.Headers[k] = strings.Join(v, ", ")
		}
	}
	return a, nil
}

// Deviation is a difference between the Java admin's answer and ours that
// is known and reported, not failed on: each says why ours differs on
// purpose, or who must change what.
type Deviation struct {
	// Request names the one request it applies to; "" applies it to all.
	Request string
	// Header names the header that differs; "" means the body.
	Header, Java, Ours, Reason string
}

// Deviations are the known differences from 2.4.2 (none today).
var Deviations []Deviation

// tolerated reports whether a difference of part (a header name, or ""
// for the body) in the answer to request is a known deviation.
func tolerated(devs []Deviation, request, part, java, ours string) (string, bool) {
	for _, d := range devs {
		if (d.Request == "" || d.Request == request) && d.Header == part && d.Java == java && d.Ours == ours {
			return d.Reason, true
		}
	}
	return "", false
}

// Diff lists how b (ours) differs from a (Java), and separately the known
// deviations (Deviations) it found.
func Diff(a, b Answer, codeOnly bool) (diffs, known []string) {
	return DiffWith(a, b, Request{CodeOnly: codeOnly}, Deviations)
}

// DiffWith is Diff for the answers to r, tolerating devs.
func DiffWith(a, b Answer, r Request, devs []Deviation) (diffs, known []string) {
	codeOnly := r.CodeOnly
	var out []string
	if a.Status != b.Status {
		out = append(out, fmt.Sprintf("status %d ≠ %d", a.Status, b.Status))
	}
	names := map[string]bool{}
	for k := range a.Headers {
		names[k] = true
	}
	for k := range b.Headers {
		names[k] = true
	}
	var sorted []string
	for k := range names {
		sorted = append(sorted, k)
	}
	sort.Strings(sorted)
	for _, k := range sorted {
		va, oka := a.Headers[k]
		vb, okb := b.Headers[k]
		if va == vb && oka == okb {
			continue
		}
		if r.Page && k != "Content-Type" && k != "Content-Language" {
			known = append(known, PageDeviation)
			continue
		}
		if why, ok := tolerated(devs, r.Name, k, va, vb); ok {
			known = append(known, why)
			continue
		}
		out = append(out, fmt.Sprintf("header %s %q ≠ %q", k, va, vb))
	}
	if r.Page {
		if a.Body != b.Body {
			known = append(known, PageDeviation)
		}
	} else if codeOnly {
		if ca, cb := code(a.Body), code(b.Body); ca != cb || ca == "" {
			out = append(out, fmt.Sprintf("code %q ≠ %q (bodies %q, %q)", ca, cb, a.Body, b.Body))
		}
		if r.MsgPrefix != "" && !hasPrefixMsg(a.Body, b.Body, r.MsgPrefix) {
			out = append(out, fmt.Sprintf("not both %s…: bodies %q, %q", r.MsgPrefix, a.Body, b.Body))
		}
	} else if a.Body != b.Body {
		if why, ok := tolerated(devs, r.Name, "", a.Body, b.Body); ok {
			known = append(known, why)
		} else {
			out = append(out, fmt.Sprintf("body %q ≠ %q", a.Body, b.Body))
		}
	}
	return out, known
}

// code is the ReturnT code of a body, "" when it has none.
func code(body string) string {
	var r struct {
		Code json.Number `json:"code"`
	}
	if json.Unmarshal([]byte(body), &r) != nil {
		return ""
	}
	return r.Code.String()
}

// LoadGolden reads the Java admin's recorded answers by request name.
func LoadGolden(path string) (map[string]Answer, error) {
	out := map[string]Answer{}
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("read %s: %w", path, err)
	}
	if err := json.Unmarshal(b, &out); err != nil {
		return nil, fmt.Errorf("decode %s: %w", path, err)
	}
	return out, nil
}
