package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/xxl-admin-go/xxl-admin-go/conformance/consolereplay"
)

// recorder records the scenarios of one language against one running
// admin.
type recorder struct {
	lang     string
	addr     string // the admin's host:port
	db       *consolereplay.DB
	exec     *consolereplay.FakeExecutor
	loc      *time.Location
	setup    consolereplay.Setup // the parts shared by every scenario
	sessions map[string]string   // session name → login token
}

// run records one planned step's scenario; the step's hooks (the
// recorder's own inserts) run where the plan puts them.
func (r *recorder) run(ctx context.Context, sc scenario, step consolereplay.Step) (*consolereplay.Recording, error) {
	rec := &consolereplay.Recording{
		Scenario:    sc.name + "." + r.lang,
		Description: sc.description,
		Setup:       r.setup,
	}
	rec.Setup.RecordedAt = time.Now().In(r.loc).Format(time.RFC3339)
	rec.Setup.Users = map[string]string{}
	r.exec.TakeCalls()
	for _, l := range sc.logins {
		token, err := r.login(ctx, l)
		if err != nil {
			return nil, fmt.Errorf("%s setup: %w", rec.Scenario, err)
		}
		r.sessions[l.user] = token
		rec.Setup.Logins = append(rec.Setup.Logins, consolereplay.SetupLogin{User: l.user, Password: l.password, Cookie: token})
		rec.Setup.Users[l.user] = userInfo[l.user]
	}
	for i, c := range sc.calls {
		if err := consolereplay.RunHooks(ctx, r.db, step.BeforeExchange[i]); err != nil {
			return nil, fmt.Errorf("%s[%d]: %w", rec.Scenario, i, err)
		}
		ex, err := r.exchange(ctx, c)
		if err != nil {
			return nil, fmt.Errorf("%s[%d]: %w", rec.Scenario, i, err)
		}
		rec.Exchanges = append(rec.Exchanges, *ex)
	}
	if sc.executorCalls {
		for _, call := range r.exec.TakeCalls() {
			rec.Setup.FakeExecutorCalls = append(rec.Setup.FakeExecutorCalls,
				consolereplay.ExecutorCall{Path: call.Path, BodyJSON: json.RawMessage(call.Body)})
		}
	}
	rec.Findings = append(append([]string{}, findings[sc.name]...), headerFindings(rec.Exchanges)...)
	rec.VolatileFields = append(append([]string{}, commonVolatile...), extraVolatile[sc.name]...)
	return rec, nil
}

// login opens a session as the login page does and returns its token.
func (r *recorder) login(ctx context.Context, l login) (string, error) {
	c := formPOST(consolereplay.LoginPath342, "", kv("userName", l.user, "password", l.password))
	resp, err := r.send(ctx, c)
	if err != nil {
		return "", err
	}
	if token := loginCookie(resp.Headers); token != "" {
		return token, nil
	}
	return "", fmt.Errorf("log in as %s: no %s cookie (%d %s)", l.user, consolereplay.TokenCookie342, resp.Status, resp.Body)
}

// loginCookie is the value of the login cookie an answer sets ("" if none).
func loginCookie(headers [][2]string) string {
	for _, v := range consolereplay.HeaderValues(headers, "Set-Cookie") {
		name, rest, _ := strings.Cut(v, "=")
		value, _, _ := strings.Cut(rest, ";")
		if name == consolereplay.TokenCookie342 && value != "" {
			return value
		}
	}
	return ""
}

// headersFor are the request headers the browser sends for a call, in
// its order, without Content-Length.
func (r *recorder) headersFor(c call, body string) [][2]string {
	h := [][2]string{{"Host", r.addr}}
	switch c.kind {
	case page:
		h = append(h, [2]string{"Accept", "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8"})
	case post:
		h = append(h, [2]string{"Accept", "*/*"}, [2]string{"X-Requested-With", "XMLHttpRequest"})
	default:
		h = append(h, [2]string{"Accept", "application/json, text/javascript, */*; q=0.01"},
			[2]string{"X-Requested-With", "XMLHttpRequest"})
	}
	if body != "" {
		ct := "application/x-www-form-urlencoded; charset=UTF-8"
		if c.kind == table {
			ct = "application/x-www-form-urlencoded" // bootstrap-table's contentType option, no charset
		}
		h = append(h, [2]string{"Content-Type", ct})
	}
	token := c.cookie
	if token == "" && c.as != "" {
		token = r.sessions[c.as]
	}
	if token != "" {
		h = append(h, [2]string{"Cookie", consolereplay.TokenCookie342 + "=" + token})
	}
	return h
}

// request is the wire form of a call: its header lines and body.
func (r *recorder) request(c call) ([][2]string, string) {
	body := ""
	if c.form != nil {
		body = c.form.encode()
	}
	headers := r.headersFor(c, body)
	if body != "" || c.verb() == "POST" {
		headers = append(headers, [2]string{"Content-Length", strconv.Itoa(len(body))})
	}
	return headers, body
}

func (r *recorder) send(ctx context.Context, c call) (*wireResponse, error) {
	headers, body := r.request(c)
	return roundTrip(ctx, r.addr, c.verb(), c.path, headers, body)
}

// exchange sends one call and records both sides and the db_after rows.
func (r *recorder) exchange(ctx context.Context, c call) (*consolereplay.Exchange, error) {
	if c.as != "" && r.sessions[c.as] == "" {
		return nil, fmt.Errorf("%s %s: no session %q", c.verb(), c.path, c.as)
	}
	var logBefore int64
	for _, l := range c.dbAfter {
		if !consolereplay.KnownLabel(l) {
			return nil, fmt.Errorf("db_after label %q has no query", l)
		}
		if l == "newest_log" {
			var err error
			if logBefore, err = r.db.MaxLogID(ctx); err != nil {
				return nil, err
			}
		}
	}
	headers, body := r.request(c)
	resp, err := roundTrip(ctx, r.addr, c.verb(), c.path, headers, body)
	if err != nil {
		return nil, err
	}
	if c.keep != "" {
		token := loginCookie(resp.Headers)
		if token == "" {
			return nil, fmt.Errorf("%s %s: keep %q, but the answer sets no login cookie", c.verb(), c.path, c.keep)
		}
		r.sessions[c.keep] = token
	}
	ex := &consolereplay.Exchange{
		Direction: "client->admin",
		Note:      c.note,
		Request:   consolereplay.Request{Method: c.verb(), Path: c.path, Headers: headers, Body: body},
		Response:  responseOf(resp),
	}
	if c.form != nil {
		ex.Request.Form = c.form
	}
	if len(c.dbAfter) > 0 {
		rows, err := r.db.Snapshot(ctx, c.dbAfter, *ex, resp.Body, logBefore)
		if err != nil {
			return nil, err
		}
		for _, list := range rows {
			for _, row := range list {
				for k, v := range row {
					if v != nil {
						s := consolereplay.RecordAdminIP(*v)
						row[k] = &s
					}
				}
			}
		}
		ex.DBAfter = rows
	}
	return ex, nil
}

// responseOf keeps a JSON answer whole and of a page (or file) only its
// title, error message and length.
func responseOf(w *wireResponse) consolereplay.Response {
	out := consolereplay.Response{Status: w.Status, Reason: w.Reason, Headers: w.Headers}
	ct, _ := consolereplay.Header(w.Headers, "Content-Type")
	switch {
	case strings.HasPrefix(ct, "application/json"):
		s := consolereplay.RecordAdminIP(string(w.Body))
		out.Body = &s
		if trimmed := bytes.TrimSpace([]byte(s)); json.Valid(trimmed) {
			out.BodyJSON = trimmed
		}
	case len(w.Body) == 0:
		empty := ""
		out.Body = &empty
	default:
		n := len(w.Body)
		out.BodyLength = &n
		if strings.HasPrefix(ct, "text/html") {
			if t := consolereplay.PageTitle(w.Body); t != "" {
				out.PageTitle = &t
			}
			if m := consolereplay.ErrorPageMessage(w.Body); m != "" {
				out.ErrorPageMessage = &m
			}
		}
	}
	return out
}

// headerFindings lists the answers' header names and content types, as
// the 2.4.2 recordings do.
func headerFindings(exchanges []consolereplay.Exchange) []string {
	names, types := map[string]bool{}, map[string]bool{}
	var nameList, typeList []string
	for _, ex := range exchanges {
		for _, h := range ex.Response.Headers {
			if !names[h[0]] {
				names[h[0]] = true
				nameList = append(nameList, h[0])
			}
			if strings.EqualFold(h[0], "Content-Type") && !types[h[1]] {
				types[h[1]] = true
				typeList = append(typeList, h[1])
			}
		}
	}
	sort.Strings(typeList)
	return []string{
		"Response header names seen: " + pyList(nameList),
		"Content-Type values seen: " + pyList(typeList),
	}
}

func pyList(items []string) string {
	quoted := make([]string, len(items))
	for i, s := range items {
		quoted[i] = "'" + s + "'"
	}
	return "[" + strings.Join(quoted, ", ") + "]"
}

// write stores a recording as <dir>/<scenario>.json, indented like the
// 2.4.2 files, without HTML escaping.
func write(dir string, rec *consolereplay.Recording) error {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", " ")
	if err := enc.Encode(rec); err != nil {
		return fmt.Errorf("encode %s: %w", rec.Scenario, err)
	}
	path := filepath.Join(dir, rec.Scenario+".json")
	if err := os.WriteFile(path, buf.Bytes(), 0o644); err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	return nil
}
