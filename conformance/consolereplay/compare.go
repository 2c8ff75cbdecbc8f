package consolereplay

import (
	"encoding/json"
	"fmt"
	"net/http"
	"sort"
	"strconv"
)

// Mismatch is one difference between a recorded and a replayed exchange.
type Mismatch struct {
	Scenario string // "<name>.<lang>"
	Exchange int    // index in the recording; -1 for the scenario as a whole
	Note     string
	Field    string // "status", "header Content-Type", "body.data[2].jobDesc", "db_after.groups[4].title", ...
	Want     string
	Got      string
}

func (m Mismatch) String() string {
	note := ""
	if m.Note != "" {
		note = " (" + m.Note + ")"
	}
	return fmt.Sprintf("%s[%d]%s %s:\n\t\twant %s\n\t\tgot  %s", m.Scenario, m.Exchange, note, m.Field, m.Want, m.Got)
}

// Observed is what the admin under test answered, plus the db_after rows
// read right after.
type Observed struct {
	Status int
	Header http.Header
	Body   []byte
	DB     map[string][]map[string]*string
}

// checker compares one exchange and collects mismatches.
type checker struct {
	scenario string // "<name>.<lang>"
	index    int
	note     string
	endpoint string // path below the context path, without query
	frame    timeFrame
	norm     normalizer
	// sameCookie compares Set-Cookie values (Generation.SameCookieValue).
	sameCookie func(name, want, got string) bool
	out        []Mismatch
}

func (c *checker) add(field string, want, got any) {
	c.out = append(c.out, Mismatch{Scenario: c.scenario, Exchange: c.index, Note: c.note, Field: field,
		Want: show(want), Got: show(got)})
}

// show renders a value for a report, compactly.
func show(v any) string {
	var s string
	switch x := v.(type) {
	case string:
		s = strconv.Quote(x)
	case *string:
		if x == nil {
			s = "NULL"
		} else {
			s = strconv.Quote(*x)
		}
	case absent:
		s = "(absent)"
	default:
		b, err := json.Marshal(x)
		if err != nil {
			s = fmt.Sprint(x)
		} else {
			s = string(b)
		}
	}
	if len(s) > 400 {
		s = s[:400] + "…"
	}
	return s
}

// absent marks a header, key or row that is not there.
type absent struct{}

// compareExchange checks an observed answer against the recorded one.
func (c *checker) compareExchange(rec Response, dbWant map[string][]map[string]*string, got Observed) {
	if rec.Status != got.Status {
		// Headers and body of another status are noise; the body is shown.
		c.add("status", rec.Status, got.Status)
		c.add("body (of the other status)", recordedBody(rec), string(got.Body))
		c.compareDB(dbWant, got.DB)
		return
	}
	for _, h := range []string{"Content-Type", "Location", "Allow", "Content-Language"} {
		want, wok := Header(rec.Headers, h)
		g := got.Header.Values(h)
		if h == "Location" && len(g) > 0 {
			g = []string{c.norm.location(g[0])}
		}
		switch {
		case !wok && len(g) > 0:
			c.add("header "+h, absent{}, g[0])
		case wok && len(g) == 0:
			c.add("header "+h, want, absent{})
		case wok && want != g[0]:
			c.add("header "+h, want, g[0])
		}
	}
	c.compareCookies(HeaderValues(rec.Headers, "Set-Cookie"), got.Header.Values("Set-Cookie"))
	if len(rec.BodyJSON) > 0 && string(rec.BodyJSON) != "null" {
		c.compareJSONBody(rec.BodyJSON, got.Body)
	}
	if rec.PageTitle != nil {
		if title, ok := pageTitle(got.Body); !ok || title != *rec.PageTitle {
			c.add("title", *rec.PageTitle, title)
		}
	}
	if rec.ErrorPageMessage != nil {
		if msg := errorPageMessage(got.Body); msg != *rec.ErrorPageMessage {
			c.add("error_page_message", *rec.ErrorPageMessage, msg)
		}
	}
	c.compareDB(dbWant, got.DB)
}

func (c *checker) compareDB(want, got map[string][]map[string]*string) {
	labels := make([]string, 0, len(want))
	for l := range want {
		labels = append(labels, l)
	}
	sort.Strings(labels)
	for _, l := range labels {
		c.compareRows("db_after."+l, want[l], got[l])
	}
}

// recordedBody is the recorded body for a report: the JSON, else the title.
func recordedBody(rec Response) string {
	switch {
	case len(rec.BodyJSON) > 0 && string(rec.BodyJSON) != "null":
		return string(rec.BodyJSON)
	case rec.PageTitle != nil:
		return "page titled " + *rec.PageTitle
	case rec.Body != nil:
		return *rec.Body
	}
	return ""
}
