package consolereplay

import (
	"encoding/base64"
	"encoding/json"
	"net/http"
	"strings"
	"testing"
)

// fields runs a comparison and returns the mismatching fields in order.
func fields(c *checker) string {
	var got []string
	for _, m := range c.out {
		got = append(got, m.Field)
	}
	return strings.Join(got, "|")
}

// TestCompareJSONBody342 covers the 3.4.2 answers: Response {code, data,
// msg, success}, dates without zone, the random login token.
func TestCompareJSONBody342(t *testing.T) {
	const hexA, hexB = "f9d40e3722c04467b88c6ff9572963c1", "0123456789abcdef0123456789abcdef"
	tests := []struct {
		name, endpoint, want, got string
		fields                    []string
	}{
		{"date without zone at the same distance", "/x", `{"addTime":"2026-11-22 07:02:22"}`, `{"addTime":"2026-11-23 07:17:22"}`, nil},
		{"date without zone eight hours off", "/x", `{"addTime":"2026-11-22 07:02:22"}`, `{"addTime":"2026-11-23 15:17:22"}`,
			[]string{"body.addTime (time relative to the fixture)"}},
		{"date with zone where none was", "/x", `{"triggerTime":"2026-11-23 05:02:22"}`, `{"triggerTime":"2026-11-24T05:17:22+08:00"}`,
			[]string{"body.triggerTime (time relative to the fixture)"}},
		{"new job id by shape", "/jobinfo/insert", `{"code":200,"data":"9"}`, `{"code":200,"data":"15"}`, nil},
		{"next trigger times by length", "/jobinfo/nextTriggerTime", `{"data":["2026-11-24 01:00:00"]}`, `{"data":["2026-11-25 01:00:00"]}`, nil},
		{"chart data by type", "/chartInfo", `{"data":{"triggerDayList":["2026-11-23"]}}`, `{"data":{"triggerDayList":[]}}`, nil},
		{"token by form", "/user/pageList", `{"data":{"data":[{"id":1,"token":"` + hexA + `"}]}}`,
			`{"data":{"data":[{"id":1,"token":"` + hexB + `"}]}}`, nil},
		{"token that is not random hex", "/user/pageList", `{"data":{"data":[{"id":1,"token":"` + hexA + `"}]}}`,
			`{"data":{"data":[{"id":1,"token":"v1.signed"}]}}`, []string{"body.data.data[0].token"}},
		{"no token where there was one", "/user/pageList", `{"data":{"data":[{"id":1,"token":"` + hexA + `"}]}}`,
			`{"data":{"data":[{"id":1,"token":null}]}}`, []string{"body.data.data[0].token"}},
		{"token of a user never logged in", "/user/pageList", `{"data":{"data":[{"id":2,"token":null}]}}`,
			`{"data":{"data":[{"id":2,"token":"` + hexB + `"}]}}`, []string{"body.data.data[0].token"}},
		{"token elsewhere is exact", "/x", `{"token":"` + hexA + `"}`, `{"token":"` + hexB + `"}`, []string{"body.token"}},
		{"fail monitor passed while recording", "/x", `{"data":[{"id":10,"triggerCode":500,"alarmStatus":2}]}`,
			`{"data":[{"id":10,"triggerCode":500,"alarmStatus":0}]}`, nil},
		{"alarm state outside the race", "/x", `{"data":[{"id":10,"triggerCode":500,"alarmStatus":1}]}`,
			`{"data":[{"id":10,"triggerCode":500,"alarmStatus":0}]}`, []string{"body.data[0].alarmStatus"}},
		{"success member", "/x", `{"code":200,"data":null,"msg":"Success","success":true}`, `{"code":200,"data":null,"msg":"Success"}`,
			[]string{"body.success"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := &checker{scenario: "s.en", endpoint: tt.endpoint, frame: testFrame(t), norm: normalizer{executor: "http://127.0.0.1:40001/"}}
			c.compareJSONBody(json.RawMessage(tt.want), []byte(tt.got))
			if got := fields(c); got != strings.Join(tt.fields, "|") {
				t.Errorf("mismatch fields %q, want %q (%v)", got, tt.fields, c.out)
			}
		})
	}
}

func TestCompareRowsToken(t *testing.T) {
	s := func(v string) *string { return &v }
	tests := []struct {
		name      string
		want, got *string
		mismatch  bool
	}{
		{"both random", s("f9d40e3722c04467b88c6ff9572963c1"), s("0123456789abcdef0123456789abcdef"), false},
		{"cleared by logout", s(""), s(""), false},
		{"never logged in", nil, nil, false},
		{"not cleared", s(""), s("0123456789abcdef0123456789abcdef"), true},
		{"not stored", s("f9d40e3722c04467b88c6ff9572963c1"), nil, true},
	}
	for _, tt := range tests {
		c := &checker{scenario: "s.en", frame: testFrame(t)}
		c.compareRows("db_after.user1", []map[string]*string{{"token": tt.want}}, []map[string]*string{{"token": tt.got}})
		if got := len(c.out) > 0; got != tt.mismatch {
			t.Errorf("%s: mismatch %v, want %v (%v)", tt.name, got, tt.mismatch, c.out)
		}
	}
}

func tokenOf(json string) string { return base64.RawURLEncoding.EncodeToString([]byte(json)) }

func TestSameTokenCookie(t *testing.T) {
	admin := tokenOf(`{"userId":"1","expireTime":0,"signature":"f9d40e3722c04467b88c6ff9572963c1"}`)
	tests := []struct {
		name, cookie, want, got string
		same                    bool
	}{
		{"another login of the same user", TokenCookie342, admin,
			tokenOf(`{"userId":"1","expireTime":0,"signature":"0123456789abcdef0123456789abcdef"}`), true},
		{"padded base64", TokenCookie342, admin, tokenOf(`{"userId":"1","expireTime":0,"signature":"0123456789abcdef0123456789abcdef"}`) + "==", true},
		{"another user", TokenCookie342, admin, tokenOf(`{"userId":"2","expireTime":0,"signature":"0123456789abcdef0123456789abcdef"}`), false},
		{"other members", TokenCookie342, admin, tokenOf(`{"userId":"1","signature":"0123456789abcdef0123456789abcdef"}`), false},
		{"signature of another form", TokenCookie342, admin, tokenOf(`{"userId":"1","expireTime":0,"signature":"abc"}`), false},
		{"not a token", TokenCookie342, admin, "v1.signed-by-ours", false},
		{"cleared", TokenCookie342, "", "", true},
		{"not cleared", TokenCookie342, "", admin, false},
		{"other cookies exactly", "JSESSIONID", "a", "b", false},
	}
	for _, tt := range tests {
		if got := sameTokenCookie(tt.cookie, tt.want, tt.got); got != tt.same {
			t.Errorf("%s: same = %v, want %v", tt.name, got, tt.same)
		}
	}
}

// TestCompareExchange342 checks the absolute redirects of 3.4.2 and its
// login cookie.
func TestCompareExchange342(t *testing.T) {
	rec := Response{Status: 302, Headers: [][2]string{{"Location", "http://127.0.0.1:18342/auth/login"},
		{"Set-Cookie", TokenCookie342 + "=; Expires=Thu, 01 Jan 1970 00:00:10 GMT; Path=/; HttpOnly"}}}
	norm := normalizer{admin: "http://127.0.0.1:40123", recordedAdmin: origin("http://127.0.0.1:18342/")}
	tests := []struct {
		name     string
		location string
		cookie   string
		fields   []string
	}{
		{"same", "http://127.0.0.1:40123/auth/login", TokenCookie342 + "=; Expires=Thu, 01 Jan 1970 00:00:10 GMT; Path=/; HttpOnly", nil},
		{"relative where it was absolute", "/auth/login", TokenCookie342 + "=; Expires=Thu, 01 Jan 1970 00:00:10 GMT; Path=/; HttpOnly",
			[]string{"header Location"}},
		{"another host", "http://example.org/auth/login", TokenCookie342 + "=; Expires=Thu, 01 Jan 1970 00:00:10 GMT; Path=/; HttpOnly",
			[]string{"header Location"}},
		{"cookie not cleared", "http://127.0.0.1:40123/auth/login", TokenCookie342 + "=" + tokenOf(`{"userId":"1"}`) + "; Expires=Thu, 01 Jan 1970 00:00:10 GMT; Path=/; HttpOnly",
			[]string{"cookie " + TokenCookie342 + " value"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := &checker{scenario: "s.en", frame: testFrame(t), norm: norm, sameCookie: sameTokenCookie}
			c.compareExchange(rec, nil, Observed{Status: 302, Header: http.Header{"Location": {tt.location}, "Set-Cookie": {tt.cookie}}})
			if got := fields(c); got != strings.Join(tt.fields, "|") {
				t.Errorf("mismatch fields %q, want %q (%v)", got, tt.fields, c.out)
			}
		})
	}
}
