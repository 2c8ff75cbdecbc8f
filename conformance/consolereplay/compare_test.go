package consolereplay

import (
	"encoding/json"
	"net/http"
	"strings"
	"testing"
	"time"
)

// testFrame: recorded fixture at 07:02:22 Shanghai, replay a day and a
// quarter hour later.
func testFrame(t *testing.T) timeFrame {
	loc, err := time.LoadLocation(Zone)
	if err != nil {
		t.Fatal(err)
	}
	rec := time.Date(2026, 11, 23, 7, 2, 22, 0, loc)
	return timeFrame{recorded: rec, replay: rec.Add(24*time.Hour + 15*time.Minute), loc: loc}
}

func TestCompareJSONBody(t *testing.T) {
	tests := []struct {
		name, endpoint, want, got string
		fields                    []string // mismatching fields, in order
	}{
		{"equal, other key order", "/x", `{"code":200,"msg":null,"content":null}`, `{"content":null,"msg":null,"code":200}`, nil},
		{"other value", "/x", `{"code":500,"msg":"a"}`, `{"code":500,"msg":"b"}`, []string{"body.msg"}},
		{"number type", "/x", `{"code":500}`, `{"code":"500"}`, []string{"body.code"}},
		{"missing and extra key", "/x", `{"a":1}`, `{"b":1}`, []string{"body.a", "body.b"}},
		{"not JSON", "/x", `{"a":1}`, `<html>`, []string{"body"}},
		{"date at the same distance from the fixture", "/x",
			`{"addTime":"2026-11-21T23:02:22.000+00:00"}`, `{"addTime":"2026-11-22T23:17:22.000+00:00"}`, nil},
		{"seed date unchanged", "/x",
			`{"addTime":"2018-11-03T14:21:31.000+00:00"}`, `{"addTime":"2018-11-03T14:21:31.000+00:00"}`, nil},
		{"date eight hours off", "/x",
			`{"addTime":"2026-11-21T23:02:22.000+00:00"}`, `{"addTime":"2026-11-23T07:17:22.000+00:00"}`, []string{"body.addTime (time relative to the fixture)"}},
		{"date in another format", "/x",
			`{"addTime":"2026-11-21T23:02:22.000+00:00"}`, `{"addTime":"2026-11-22 23:17:22"}`, []string{"body.addTime (time relative to the fixture)"}},
		{"null date stays null", "/x", `{"handleTime":null}`, `{"handleTime":"2026-11-22T23:17:22.000+00:00"}`, []string{"body.handleTime"}},
		{"next trigger time by shape", "/x", `{"triggerNextTime":1795460400000}`, `{"triggerNextTime":1795546800000}`, nil},
		{"stopped job has no next time", "/x", `{"triggerNextTime":0}`, `{"triggerNextTime":1795546800000}`, []string{"body.triggerNextTime"}},
		{"new job id by shape", "/jobinfo/add", `{"code":200,"content":"9"}`, `{"code":200,"content":"10"}`, nil},
		{"next trigger times by length", "/jobinfo/nextTriggerTime", `{"content":["2026-11-24 01:00:00"]}`, `{"content":["2026-11-25 01:00:00"]}`, nil},
		{"next trigger times, other length", "/jobinfo/nextTriggerTime", `{"content":["2026-11-24 01:00:00"]}`, `{"content":[]}`, []string{"body.content (length)"}},
		{"chart data by type", "/chartInfo", `{"content":{"triggerDayList":["2026-11-23"],"triggerCountSucTotal":3}}`,
			`{"content":{"triggerDayList":[],"triggerCountSucTotal":0}}`, nil},
		{"chart data of another type", "/chartInfo", `{"content":{"triggerCountSucTotal":3}}`, `{"content":{"triggerCountSucTotal":"3"}}`,
			[]string{"body.content.triggerCountSucTotal (type)"}},
		{"fail monitor passed", "/x", `{"data":[{"id":10,"triggerCode":500,"alarmStatus":0}]}`, `{"data":[{"id":10,"triggerCode":500,"alarmStatus":2}]}`, nil},
		{"alarm of a sound row", "/x", `{"data":[{"id":9,"triggerCode":200,"alarmStatus":0}]}`, `{"data":[{"id":9,"triggerCode":200,"alarmStatus":2}]}`, []string{"body.data[0].alarmStatus"}},
		{"registry monitor passed", "/x", `{"addressType":0,"addressList":""}`, `{"addressType":0,"addressList":null}`, nil},
		{"manual group keeps its list", "/x", `{"addressType":1,"addressList":""}`, `{"addressType":1,"addressList":null}`, []string{"body.addressList"}},
		{"rows in another order", "/x", `{"data":[{"id":9},{"id":8}]}`, `{"data":[{"id":8},{"id":9}]}`, []string{"body.data (ids)"}},
		{"spring error timestamp", "/x", `{"timestamp":"2026-11-22T23:02:27.409+00:00","status":400,"error":"Bad Request"}`,
			`{"timestamp":"2026-11-23T23:17:30.001+00:00","status":400,"error":"Bad Request"}`, nil},
		{"executor address and admin IP", "/x", `{"msg":"a：192.0.2.2<br>b：[http://127.0.0.1:19991/]"}`,
			`{"msg":"a：10.1.2.3<br>b：[http://127.0.0.1:40001/]"}`, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := &checker{scenario: "s.en", endpoint: tt.endpoint, frame: testFrame(t),
				norm: normalizer{executor: "http://127.0.0.1:40001/"}}
			c.compareJSONBody(json.RawMessage(tt.want), []byte(tt.got))
			var got []string
			for _, m := range c.out {
				got = append(got, m.Field)
			}
			if strings.Join(got, "|") != strings.Join(tt.fields, "|") {
				t.Errorf("mismatch fields %q, want %q (%v)", got, tt.fields, c.out)
			}
		})
	}
}

func TestCompareExchange(t *testing.T) {
	str := func(s string) *string { return &s }
	rec := Response{
		Status: 200,
		Headers: [][2]string{{"Content-Type", "text/html;charset=UTF-8"},
			{"Set-Cookie", "XXL_JOB_LOGIN_IDENTITY=7b; Max-Age=2147483647; Expires=Sat, 11 Dec 2094 02:16:33 GMT; Path=/; HttpOnly"}},
		PageTitle:        str("Error"),
		ErrorPageMessage: str("java.lang.RuntimeException: Job ID is illegal"),
	}
	page := `<!DOCTYPE html><html><head><title>Error</title></head><body><div class="dialog">
	    <h1>System Error</h1>
	    <p>java.lang.RuntimeException: Job ID is illegal</p></div></body></html>`
	tests := []struct {
		name   string
		header http.Header
		body   string
		fields []string
	}{
		{"same", http.Header{"Content-Type": {"text/html;charset=UTF-8"},
			"Set-Cookie": {"XXL_JOB_LOGIN_IDENTITY=7b; Max-Age=2147483647; Expires=Mon, 01 Jan 2095 00:00:00 GMT; Path=/; HttpOnly"}}, page, nil},
		{"cookie attributes", http.Header{"Content-Type": {"text/html;charset=UTF-8"},
			"Set-Cookie": {"XXL_JOB_LOGIN_IDENTITY=7c; Max-Age=3600; Path=/xxl-job-admin; HttpOnly; SameSite=Lax"}}, page,
			[]string{"cookie XXL_JOB_LOGIN_IDENTITY value", "cookie XXL_JOB_LOGIN_IDENTITY expires", "cookie XXL_JOB_LOGIN_IDENTITY max-age",
				"cookie XXL_JOB_LOGIN_IDENTITY path", "cookie XXL_JOB_LOGIN_IDENTITY samesite"}},
		{"other page", http.Header{"Content-Type": {"text/html; charset=utf-8"}, "Location": {"/x"}},
			strings.ReplaceAll(page, "Job ID is illegal", "bad id"),
			[]string{"header Content-Type", "header Location", "cookie XXL_JOB_LOGIN_IDENTITY", "error_page_message"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := &checker{scenario: "s.en", frame: testFrame(t)}
			c.compareExchange(rec, nil, Observed{Status: 200, Header: tt.header, Body: []byte(tt.body)})
			var got []string
			for _, m := range c.out {
				got = append(got, m.Field)
			}
			if strings.Join(got, "|") != strings.Join(tt.fields, "|") {
				t.Errorf("mismatch fields %q, want %q", got, tt.fields)
			}
		})
	}
}

func TestCompareRows(t *testing.T) {
	str := func(s string) *string { return &s }
	row := func(kv ...string) map[string]*string {
		m := map[string]*string{}
		for i := 0; i < len(kv); i += 2 {
			if kv[i+1] == "NULL" {
				m[kv[i]] = nil
			} else {
				m[kv[i]] = str(kv[i+1])
			}
		}
		return m
	}
	tests := []struct {
		name      string
		want, got []map[string]*string
		fields    []string
	}{
		{"volatile id and time", []map[string]*string{row("id", "9", "update_time", "2026-11-23 07:02:27", "title", "x")},
			[]map[string]*string{row("id", "15", "update_time", "2026-11-24 07:17:40", "title", "x")}, nil},
		{"time in UTC", []map[string]*string{row("id", "9", "update_time", "2026-11-23 07:02:27")},
			[]map[string]*string{row("id", "9", "update_time", "2026-11-23 23:17:27")}, []string{"db_after.t[0].update_time (time relative to the fixture)"}},
		{"NULL", []map[string]*string{row("address_type", "1", "address_list", "NULL")},
			[]map[string]*string{row("address_type", "1", "address_list", "")}, []string{"db_after.t[0].address_list"}},
		{"auto group", []map[string]*string{row("address_type", "0", "address_list", "")},
			[]map[string]*string{row("address_type", "0", "address_list", "NULL")}, nil},
		{"row count", []map[string]*string{row("id", "1")}, nil, []string{"db_after.t (rows)"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := &checker{scenario: "s.en", frame: testFrame(t)}
			c.compareRows("db_after.t", tt.want, tt.got)
			var got []string
			for _, m := range c.out {
				got = append(got, m.Field)
			}
			if strings.Join(got, "|") != strings.Join(tt.fields, "|") {
				t.Errorf("mismatch fields %q, want %q (%v)", got, tt.fields, c.out)
			}
		})
	}
}

func TestTolerated(t *testing.T) {
	m := func(scenario string, ex int, field, want, got string) Mismatch {
		return Mismatch{Scenario: scenario + ".en", Exchange: ex, Field: field, Want: want, Got: got}
	}
	tests := []struct {
		name     string
		scenario string
		mode     CookieMode
		m        Mismatch
		want     bool
	}{
		{"clean message for an NPE", "jobinfo_start_stop", CookieJava, m("jobinfo_start_stop", 3, "body.msg", `"java.lang.NullPointerException: …"`, `"job not found"`), true},
		{"but not an empty one", "jobinfo_start_stop", CookieJava, m("jobinfo_start_stop", 3, "body.msg", `"java.lang.NullPointerException: …"`, "null"), false},
		{"other exchange", "jobinfo_start_stop", CookieJava, m("jobinfo_start_stop", 0, "body.msg", "null", `"x"`), false},
		{"code is never tolerated", "jobinfo_start_stop", CookieJava, m("jobinfo_start_stop", 3, "body.code", "500", "200"), false},
		{"signed cookie value", "login_success", CookieSigned, m("login_success", 0, "cookie XXL_JOB_LOGIN_IDENTITY value", `"7b22"`, `"v1.abc"`), true},
		{"signed cookie in legacy mode", "login_success", CookieJava, m("login_success", 0, "cookie XXL_JOB_LOGIN_IDENTITY value", `"7b22"`, `"v1.abc"`), false},
		{"cleared cookie must stay cleared", "logout", CookieSigned, m("logout", 0, "cookie XXL_JOB_LOGIN_IDENTITY value", `""`, `"v1.abc"`), false},
		{"SameSite=Lax", "login_success", CookieSigned, m("login_success", 1, "cookie XXL_JOB_LOGIN_IDENTITY samesite", "(absent)", `"Lax"`), true},
		{"SameSite=None", "login_success", CookieSigned, m("login_success", 1, "cookie XXL_JOB_LOGIN_IDENTITY samesite", "(absent)", `"None"`), false},
		{"group check on another group's jobs", "pages_user_without_groups", CookieJava, m("pages_user_without_groups", 4, "body.data", "[…]", "(absent)"), true},
		{"Content-Language is compared", "pages_admin", CookieJava, m("pages_admin", 0, "header Content-Language", `"en"`, "(absent)"), false},
		{"Java's static file", "not_logged_in", CookieJava, m("not_logged_in", 9, "status", "200", "404"), true},
		{"anonymous for a cookie without password", "not_logged_in", CookieJava, m("not_logged_in", 8, "status", "200", "302"), true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := tolerated(Tolerances, tt.scenario, tt.mode, tt.m) != nil; got != tt.want {
				t.Errorf("tolerated = %v, want %v", got, tt.want)
			}
		})
	}
}

func TestPageParts(t *testing.T) {
	body := []byte("<html><head>\n<title> 任务调度中心 </title></head><body><h1>System Error</h1>\n<p>a &amp; b &#39;c&#39;</p></body></html>")
	if title, ok := pageTitle(body); !ok || title != "任务调度中心" {
		t.Errorf("title %q %v", title, ok)
	}
	if msg := errorPageMessage(body); msg != "a & b 'c'" {
		t.Errorf("error page message %q", msg)
	}
	if msg := errorPageMessage([]byte(`<h1 class="x">System Error</h1><p class="error-message">m</p>`)); msg != "m" {
		t.Errorf("error page message with attributes %q", msg)
	}
	if msg := errorPageMessage([]byte("<html><title>x</title></html>")); msg != "" {
		t.Errorf("no error page: %q", msg)
	}
}
