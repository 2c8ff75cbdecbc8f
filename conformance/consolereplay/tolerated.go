package consolereplay

import (
	"slices"
	"strings"
)

// Tolerance is a deliberate difference of our admin from the Java admin:
// a mismatch at Field of the named scenario and exchanges is accepted when
// replaying against ours (never against the Java admin).
type Tolerance struct {
	Scenario  string // scenario name without language; "*" for every scenario
	Exchanges []int  // nil for every exchange
	// Field is a mismatch field, or a prefix of one ending in "*".
	Field string
	// SignedOnly limits the entry to the default (signed) cookie mode.
	SignedOnly bool
	// Accept, if set, must also approve the mismatch (e.g. that the clean
	// message is not empty).
	Accept func(m Mismatch) bool
	Reason string
}

// cleanMessage accepts any non-empty message in place of a Java exception text.
func cleanMessage(m Mismatch) bool {
	return m.Got != "(absent)" && m.Got != "null" && m.Got != `""`
}

// jsonContentType accepts the plain JSON content type where Java's
// exception resolver wrote application/json;charset=utf-8.
func jsonContentType(m Mismatch) bool {
	return m.Got == `"application/json"` || m.Got == `"application/json;charset=UTF-8"` || m.Got == `"application/json; charset=utf-8"`
}

// Tolerances is the one list of deliberate differences; the console
// authors extend it, each entry with its reason.
var Tolerances = []Tolerance{
	// Java's internal exception texts (helpful NullPointerException
	// messages, Spring's IllegalStateException for a missing primitive
	// parameter, the SQL driver's text for an over-long title) are not part
	// of the contract (README "Volatile values", console.md §1.3): ours
	// answers the same code with a clean message.
	{Scenario: "jobinfo_start_stop", Exchanges: []int{3, 4}, Field: "body.msg", Accept: cleanMessage,
		Reason: "unknown job id: Java answers its NullPointerException text; ours a clean message, same code"},
	{Scenario: "jobinfo_start_stop", Exchanges: []int{3, 4}, Field: "header Content-Type", Accept: jsonContentType,
		Reason: "the NullPointerException went through Java's exception resolver (charset=utf-8); ours answers normally"},
	{Scenario: "jobinfo_pageList", Exchanges: []int{9}, Field: "body.msg", Accept: cleanMessage,
		Reason: "missing jobGroup/triggerStatus: Java answers Spring's IllegalStateException text; ours a clean message"},
	{Scenario: "jobinfo_pageList", Exchanges: []int{9}, Field: "header Content-Type", Accept: jsonContentType,
		Reason: "the IllegalStateException went through Java's exception resolver"},
	{Scenario: "http_methods_and_binding", Exchanges: []int{2, 4}, Field: "body.msg", Accept: cleanMessage,
		Reason: "missing int parameter: Java answers Spring's IllegalStateException text; ours a clean message"},
	{Scenario: "http_methods_and_binding", Exchanges: []int{2, 4}, Field: "header Content-Type", Accept: jsonContentType,
		Reason: "the IllegalStateException went through Java's exception resolver"},
	{Scenario: "jobgroup_save_validation", Exchanges: []int{9}, Field: "body.msg", Accept: cleanMessage,
		Reason: "title longer than the column: Java passes the JDBC driver's error text through; ours a clean message"},
	{Scenario: "jobgroup_save_validation", Exchanges: []int{9}, Field: "header Content-Type", Accept: jsonContentType,
		Reason: "the SQL exception went through Java's exception resolver"},
	{Scenario: "joblog_logDetailCat", Exchanges: []int{6}, Field: "body.msg", Accept: cleanMessage,
		Reason: "log row without executor address: Java answers its NullPointerException message; ours a clean message"},
	{Scenario: "pages_errors", Exchanges: []int{4}, Field: "error_page_message", Accept: cleanMessage,
		Reason: "GLUE IDE without jobId: Java shows Spring's IllegalStateException text; ours a clean message"},
	{Scenario: "not_logged_in", Exchanges: []int{8}, Field: "*",
		Reason: "cookie JSON without password: Java fails with a NullPointerException (200, code 500); console.md §2 lets a port treat it as anonymous (302 to /toLogin)"},

	// Ours signs its own cookies unless started with the legacy format.
	{Scenario: "*", Field: "cookie " + LoginCookie + " value", SignedOnly: true,
		Accept: func(m Mismatch) bool { return m.Want != `""` && m.Got != `""` },
		Reason: "default mode: ours issues a signed cookie value, not Java's hex of the user row"},
	{Scenario: "*", Field: "cookie " + LoginCookie + " samesite", SignedOnly: true,
		Accept: func(m Mismatch) bool { return m.Want == "(absent)" && m.Got == `"Lax"` },
		Reason: "default mode: ours adds SameSite=Lax to its login cookie"},

	// Ours checks the group permission where 2.4.2 forgot to
	// (console.md §1.2 "Endpoints without any group check").
	{Scenario: "pages_user_without_groups", Exchanges: []int{4}, Field: "body*",
		Reason: "a normal user listing another group's jobs gets the permission error from ours; Java lists them"},
	{Scenario: "pages_user_without_groups", Exchanges: []int{4}, Field: "header Content-Type",
		Accept: func(m Mismatch) bool { return m.Got == `"application/json;charset=utf-8"` },
		Reason: "same exchange: ours answers the permission error as Java's exception resolver does (charset=utf-8)"},

	// The page scripts and styles are ours, under our own names; the Java
	// console's files are not served.
	{Scenario: "not_logged_in", Exchanges: []int{9}, Field: "status",
		Reason: "Java's static/js/common.1.js: ours serves its own page scripts, not the Java console's files"},
	{Scenario: "not_logged_in", Exchanges: []int{9}, Field: "body (of the other status)",
		Reason: "same exchange: ours answers 404 for a file it does not have"},
}

// tolerated returns the entry that accepts a mismatch of ours, or nil.
func tolerated(list []Tolerance, scenario string, mode CookieMode, m Mismatch) *Tolerance {
	for i := range list {
		t := &list[i]
		if t.Scenario != "*" && t.Scenario != scenario {
			continue
		}
		if t.Exchanges != nil && !slices.Contains(t.Exchanges, m.Exchange) {
			continue
		}
		if t.SignedOnly && mode != CookieSigned {
			continue
		}
		if prefix, ok := strings.CutSuffix(t.Field, "*"); ok {
			if !strings.HasPrefix(m.Field, prefix) {
				continue
			}
		} else if t.Field != m.Field {
			continue
		}
		if t.Accept == nil || t.Accept(m) {
			return t
		}
	}
	return nil
}
