package main

import "net/http"

// kind is the page code that sends a request; it decides the headers, as
// the browser sends them for that code.
type kind int

const (
	page  kind = iota // the browser loading a page or file (GET)
	ajax              // jQuery $.ajax with dataType "json" (delete, start, stop, trigger, logKill, ...)
	post              // jQuery $.post without a dataType (login, add/update dialogs, clearLog, updatePwd, logout)
	table             // bootstrap-table's list request (the pageList endpoints)
)

// call is one request of a scenario.
type call struct {
	note   string
	kind   kind
	method string // "" → GET for pages, POST otherwise
	path   string
	form   form   // nil: no body
	as     string // the session whose login cookie goes along ("" none)
	// cookie is a literal login-cookie value (a forged or broken token);
	// it overrides as.
	cookie string
	// keep stores the login cookie the answer sets as this session.
	keep    string
	dbAfter []string
}

func (c call) n(note string) call         { c.note = note; return c }
func (c call) db(labels ...string) call   { c.dbAfter = labels; return c }
func (c call) keepAs(session string) call { c.keep = session; return c }
func (c call) withCookie(v string) call   { c.cookie = v; c.as = ""; return c }
func (c call) withMethod(m string) call   { c.method = m; return c }
func (c call) verb() string {
	if c.method != "" {
		return c.method
	}
	if c.kind == page {
		return http.MethodGet
	}
	return http.MethodPost
}

// pageGET is the browser opening a page.
func pageGET(path, as string) call { return call{kind: page, path: path, as: as} }

// ajaxPOST is $.ajax({type: 'POST', dataType: 'json', data: f}).
func ajaxPOST(path, as string, f form) call { return call{kind: ajax, path: path, form: f, as: as} }

// formPOST is $.post(url, data) without a dataType.
func formPOST(path, as string, f form) call { return call{kind: post, path: path, form: f, as: as} }

// tablePOST is bootstrap-table loading a page of its list.
func tablePOST(path, as string, f form) call { return call{kind: table, path: path, form: f, as: as} }

// login is a session the recorder opens before a scenario.
type login struct{ user, password string }

// scenario is one recorded file per language.
type scenario struct {
	name, description string
	logins            []login // setup logins; each session is named after its user
	calls             []call
	executorCalls     bool // record what the fake executor received
}

// asAdmin is the usual setup: the seed admin's session.
var asAdmin = []login{{"admin", "123456"}}
