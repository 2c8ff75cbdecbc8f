package apidiff

import "strings"

// Requests342 are the cases sent to the 3.4.2 jar and to ours on a 3.x
// database: those of Requests, and the ones where 3.4.2's check order
// differs from 2.4.2's. Its OpenApiController checks the method, a blank
// uri, then a blank body, and only then the token and the uri's name; an
// unreadable body is answered "openapi invoke error: " and the exception's
// message, in the controller (executor-protocol.md §2.2 with the 3.x
// column; the jar answers in testdata/java-admin-3.4.2-api.json).
func Requests342() []Request {
	reg := `{"registryGroup":"EXECUTOR","registryKey":"apidiff-app","registryValue":"http://127.0.0.1:9999/"}`
	var out []Request
	for _, r := range Requests() {
		switch r.Name {
		case "registry empty body":
			// 3.4.2 names a blank body itself, before any exception.
			r.CodeOnly = false
		case "registry malformed JSON":
			r.MsgPrefix = msgInvokeError342
		}
		out = append(out, r)
	}
	return append(out,
		Request{Name: "registry empty body wrong token", Method: "POST", Path: "/api/registry", Token: tok("wrong"), Type: jsonType},
		Request{Name: "registry empty body no token", Method: "POST", Path: "/api/registry", Type: jsonType},
		Request{Name: "registry blank body", Method: "POST", Path: "/api/registry", Token: tok(Token), Type: jsonType, Body: " \r\n\t "},
		Request{Name: "registry blank body wrong token", Method: "POST", Path: "/api/registry", Token: tok("wrong"), Type: jsonType, Body: "   "},
		Request{Name: "callback empty body", Method: "POST", Path: "/api/callback", Token: tok(Token), Type: jsonType},
		Request{Name: "callback blank body", Method: "POST", Path: "/api/callback", Token: tok(Token), Type: jsonType, Body: "  "},
		Request{Name: "callback null", Method: "POST", Path: "/api/callback", Token: tok(Token), Type: jsonType, Body: "null"},
		Request{Name: "callback malformed JSON", Method: "POST", Path: "/api/callback", Token: tok(Token), Type: jsonType,
			Body: `[{"logId":`, CodeOnly: true, MsgPrefix: msgInvokeError342},
		Request{Name: "registry null", Method: "POST", Path: "/api/registry", Token: tok(Token), Type: jsonType, Body: "null",
			CodeOnly: true, MsgPrefix: msgInvokeError342},
		Request{Name: "unknown uri empty body", Method: "POST", Path: "/api/nothing", Token: tok(Token), Type: jsonType},
		Request{Name: "unknown uri empty body wrong token", Method: "POST", Path: "/api/nothing", Token: tok("wrong"), Type: jsonType},
		Request{Name: "unknown uri blank body", Method: "POST", Path: "/api/nothing", Token: tok(Token), Type: jsonType, Body: " "},
		Request{Name: "blank uri", Method: "POST", Path: "/api/%20", Token: tok(Token), Type: jsonType, Body: reg},
		Request{Name: "blank uri empty body", Method: "POST", Path: "/api/%20", Token: tok("wrong"), Type: jsonType},
		Request{Name: "api without uri", Method: "POST", Path: "/api/", Token: tok(Token), Type: jsonType, Body: reg, Page: true},
		Request{Name: "api two segments", Method: "POST", Path: "/api/registry/x", Token: tok(Token), Type: jsonType, Body: reg, Page: true},
		Request{Name: "registry GET with body", Method: "GET", Path: "/api/registry", Token: tok(Token), Type: jsonType, Body: reg},
		Request{Name: "registry PUT", Method: "PUT", Path: "/api/registry", Token: tok(Token), Type: jsonType, Body: reg},
		Request{Name: "registry lower-case post", Method: "post", Path: "/api/registry", Token: tok(Token), Type: jsonType, Body: reg},
		Request{Name: "registry trailing slash", Method: "POST", Path: "/api/registry/", Token: tok(Token), Type: jsonType, Body: reg, Page: true},
		Request{Name: "registry token with blanks", Method: "POST", Path: "/api/registry", Token: tok(" " + Token + " "), Type: jsonType, Body: reg},
		Request{Name: "registry text content type", Method: "POST", Path: "/api/registry", Token: tok(Token), Type: "text/plain", Body: reg},
		Request{Name: "registryRemove ok again", Method: "POST", Path: "/api/registryRemove", Token: tok(Token), Type: jsonType, Body: reg},
	)
}

// msgInvokeError342 starts 3.4.2's answer to a body its Gson cannot read.
const msgInvokeError342 = `"msg":"openapi invoke error: `

// Deviations342 are where ours answers differently from 3.4.2 on purpose.
var Deviations342 = []Deviation{{
	Request: "registry blank body wrong token",
	Java:    `{"code":500,"data":null,"msg":"invalid request, requestBody empty.","success":false}`,
	Ours:    `{"code":500,"data":null,"msg":"The access token is wrong.","success":false}`,
	Reason: "a body of blanks with a wrong token: 3.4.2 reads the body before it checks the token and answers " +
		"\"requestBody empty\"; ours never reads a body for a caller whose token is wrong (a client without the " +
		"token could drip a body for ever, compat/api/handler.go) and answers the token's error. An empty body " +
		"(Content-Length 0) gets 3.4.2's answer, unread",
}}

// hasPrefixMsg tells whether both bodies carry prefix (a JSON fragment).
func hasPrefixMsg(a, b, prefix string) bool {
	return strings.Contains(a, prefix) && strings.Contains(b, prefix)
}
