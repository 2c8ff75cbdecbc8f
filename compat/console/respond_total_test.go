package console

import (
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/xxl-admin-go/xxl-admin-go/compat/schema"
	"github.com/xxl-admin-go/xxl-admin-go/internal/testsupport/storetest"
)

// TestListTotals pins the lists' totals on the wire: an exact total is
// Java's answer byte for byte (no extra member), a lower bound adds
// "countExact":false (2.4.2's DataTables answer and 3.4.2's page model,
// members in alphabetical order).
func TestListTotals(t *testing.T) {
	for _, c := range []struct {
		name  string
		write func(w *httptest.ResponseRecorder)
		want  string
	}{
		{"2.4.2 exact", func(w *httptest.ResponseRecorder) { dataTableTotal(w, []int{}, schema.Total{N: 7, Exact: true}) },
			`{"recordsFiltered":7,"data":[],"recordsTotal":7}`},
		{"2.4.2 lower bound", func(w *httptest.ResponseRecorder) { dataTableTotal(w, []int{}, schema.Total{N: 51}) },
			`{"recordsFiltered":51,"data":[],"recordsTotal":51,"countExact":false}`},
		{"3.4.2 exact", func(w *httptest.ResponseRecorder) { okPage34Total(w, []int{}, schema.Total{N: 7, Exact: true}) },
			`{"code":200,"data":{"data":[],"offset":0,"pagesize":0,"total":7},"msg":"Success","success":true}`},
		{"3.4.2 lower bound", func(w *httptest.ResponseRecorder) { okPage34Total(w, []int{}, schema.Total{N: 51}) },
			`{"code":200,"data":{"countExact":false,"data":[],"offset":0,"pagesize":0,"total":51},"msg":"Success","success":true}`},
	} {
		w := httptest.NewRecorder()
		c.write(w)
		if got := w.Body.String(); got != c.want {
			t.Errorf("%s:\n got %s\nwant %s", c.name, got, c.want)
		}
	}
}

// TestListTimeBound: a list statement past its time bound answers with a
// message saying to narrow the filter, in both generations' error form,
// not the generic "operation failed" (here the bound is 1 ns, so the
// first statement of each list hits it).
func TestListTimeBound(t *testing.T) {
	tiny := func(c *Config) { c.ListBounds = schema.Bounds{Statement: time.Nanosecond, Count: time.Nanosecond} }
	e := newEnv(t, storetest.SQLite(t), "en", false, tiny)
	c := e.login("admin", "123456")
	for _, path := range []string{"/joblog/pageList", "/jobinfo/pageList"} {
		r := c.post(path, "jobGroup", "0", "jobId", "0", "logStatus", "-1", "triggerStatus", "-1", "filterTime", "")
		if m := r.json(); m["code"] != float64(500) || m["msg"] != statementTimeoutText {
			t.Errorf("2.4.2 %s: %s", path, r.body)
		}
	}
	e3 := newEnv34(t, storetest.OpenGen(t, schema.Gen3, storetest.SQLiteURL(t, ""), "", ""), 0, tiny)
	cookie := e3.login("admin", "123456")
	for _, path := range []string{"/joblog/pageList", "/jobinfo/pageList"} {
		_, body := e3.post(path, cookie, url.Values{"jobGroup": {"0"}, "jobId": {"0"}, "logStatus": {"-1"}, "triggerStatus": {"-1"},
			"filterTime": {""}, "jobDesc": {""}, "executorHandler": {""}, "author": {""}})
		if want := `{"code":500,"msg":"` + statementTimeoutText + `"}`; strings.TrimSpace(body) != want {
			t.Errorf("3.4.2 %s: %s\nwant %s", path, body, want)
		}
	}
}
