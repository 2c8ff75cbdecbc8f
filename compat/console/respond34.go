package console

import (
	"bytes"
	"encoding/json"
	"net/http"

	"github.com/xxl-admin-go/xxl-admin-go/compat/schema"
)

// The 3.4.2 console's JSON answers (Spring Boot 4, Jackson 3): a
// controller's Response {code, msg, data} is written with its members —
// and those of every object inside — in alphabetical order, with the
// derived "success", and "application/json"; an exception rendered by
// WebHandlerExceptionResolver is written by Gson instead: {"code":500,
// "msg":…}, no data, with "application/json;charset=UTF-8".
const typeJSONGson = "application/json;charset=UTF-8"

// response34 is xxl-tool's Response as the 3.4.2 admin's Jackson writes it.
type response34 struct {
	Code    int    `json:"code"`
	Data    any    `json:"data"`
	Msg     string `json:"msg"`
	Success bool   `json:"success"`
}

// respond34 answers a Response; msg "" is null, as Response.of(code, null).
func respond34(w http.ResponseWriter, code int, msg *string, data any) {
	body := map[string]any{"code": code, "data": data, "msg": msg, "success": code == 200}
	writeBody(w, http.StatusOK, typeJSON, sortedJSON(body))
}

// ok34 is Response.ofSuccess(data): code 200, msg "Success".
func ok34(w http.ResponseWriter, data any) {
	respond34(w, 200, ptr("Success"), data)
}

// fail34 is Response.ofFail(msg): code 500.
func fail34(w http.ResponseWriter, msg string) {
	respond34(w, 500, &msg, nil)
}

// failException34 is WebHandlerExceptionResolver's JSON answer (and
// xxl-sso's interceptor's): Gson, which leaves the null data out, with the
// exception's toString as msg, written with println — a line break ends
// the body (answers of the 3.4.2 jar).
func failException34(w http.ResponseWriter, text string) {
	var b bytes.Buffer
	b.WriteString(`{"code":500,"msg":`)
	b.Write(gson(text))
	b.WriteString("}\n")
	writeBody(w, http.StatusOK, typeJSONGson, b.Bytes())
}

// sortedJSON encodes v with the members of every object in alphabetical
// order, as Jackson 3 does by default, without HTML escaping. v is our
// own model: structs are first encoded with their json tags, then every
// object is re-encoded from a map, which encoding/json writes sorted.
func sortedJSON(v any) []byte {
	raw := jackson(v)
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber() // numbers keep their text: no float rounding of ids or epoch millis
	var tree any
	if err := dec.Decode(&tree); err != nil {
		return raw
	}
	return jackson(tree)
}

// gson quotes s as Gson does by default: <, >, &, = and ' escaped as
// \u003c etc. (HTML-safe), unlike Jackson.
func gson(s string) []byte {
	b, _ := json.Marshal(s) // escapes <, > and &
	b = bytes.ReplaceAll(b, []byte("="), []byte(`\u003d`))
	return bytes.ReplaceAll(b, []byte("'"), []byte(`\u0027`))
}

// pageModel is xxl-tool's PageModel as the 3.4.2 admin fills it: data and
// total; offset and pagesize are never set, so always 0 (answers of the
// 3.4.2 jar to every pageList).
type pageModel struct {
	// CountExact is written only as false (members in alphabetical order):
	// Total is then a lower bound (see dataTableTotal); 3.4.2 never writes it.
	CountExact *bool `json:"countExact,omitempty"`
	Data       any   `json:"data"`
	Offset     int   `json:"offset"`
	PageSize   int   `json:"pagesize"`
	Total      int   `json:"total"`
}

// okPage34 answers Response.ofSuccess(pageModel).
func okPage34(w http.ResponseWriter, rows any, total int) {
	okPage34Total(w, rows, schema.Total{N: total, Exact: true})
}

// okPage34Total is okPage34 with a total that may be a lower bound.
func okPage34Total(w http.ResponseWriter, rows any, t schema.Total) {
	m := pageModel{Data: rows, Total: t.N}
	if !t.Exact {
		m.CountExact = new(bool)
	}
	ok34(w, m)
}
