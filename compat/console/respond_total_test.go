package console

import (
	"net/http/httptest"
	"testing"

	"github.com/xxl-admin-go/xxl-admin-go/compat/schema"
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
