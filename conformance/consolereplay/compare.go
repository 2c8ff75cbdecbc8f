package consolereplay

import (
	"bytes"
	"encoding/json"
	"fmt"
	"html"
	"net/http"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"time"
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

// timeSlack is how far a volatile date may stray from its recorded
// distance to the fixture time: the replay's pace differs from the
// recorder's (admin start-up, waits), a wrong zone is hours off.
const timeSlack = 5 * time.Minute

// timeFrame relates the recording's fixture time to the replay's.
type timeFrame struct {
	recorded, replay time.Time
	loc              *time.Location
}

func (f timeFrame) same(want, got time.Time) bool {
	near := func(d time.Duration) bool { return d <= timeSlack && d >= -timeSlack }
	return near(got.Sub(want)) || near(got.Sub(f.replay)-want.Sub(f.recorded))
}

// checker compares one exchange and collects mismatches.
type checker struct {
	scenario string // "<name>.<lang>"
	index    int
	note     string
	endpoint string // path below the context path, without query
	frame    timeFrame
	norm     normalizer
	out      []Mismatch
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

func (c *checker) compareJSONBody(recorded json.RawMessage, got []byte) {
	want, err := decodeJSON(recorded)
	if err != nil {
		c.add("body", "recorded JSON ("+err.Error()+")", string(recorded))
		return
	}
	g, err := decodeJSON(got)
	if err != nil {
		c.add("body", want, "not JSON: "+string(got))
		return
	}
	c.compareValue("body", want, g, exact)
}

func decodeJSON(b []byte) (any, error) {
	d := json.NewDecoder(bytes.NewReader(b))
	d.UseNumber()
	var v any
	if err := d.Decode(&v); err != nil {
		return nil, err
	}
	return v, nil
}

// compareValue compares a recorded and an observed JSON value at path.
func (c *checker) compareValue(path string, want, got any, r rule) {
	if s, ok := got.(string); ok {
		got = c.norm.apply(s)
	}
	switch r {
	case relTime:
		c.compareTime(path, want, got, parseBodyTime)
		return
	case epochTime:
		w, ok1 := epochMillis(want)
		g, ok2 := epochMillis(got)
		if !ok1 || !ok2 || !c.frame.same(w, g) {
			c.add(path+" (time relative to the fixture)", want, got)
		}
		return
	case shape:
		if !sameShape(want, got) {
			c.add(path, want, got)
		}
		return
	case shapeList:
		wl, wok := want.([]any)
		gl, gok := got.([]any)
		if !wok || !gok {
			c.compareValue(path, want, got, exact)
			return
		}
		if len(wl) != len(gl) {
			c.add(path+" (length)", len(wl), len(gl))
			return
		}
		for i := range wl {
			if !sameShape(wl[i], gl[i]) {
				c.add(fmt.Sprintf("%s[%d]", path, i), wl[i], gl[i])
			}
		}
		return
	case typeOnly:
		if jsonType(want) != jsonType(got) {
			c.add(path+" (type)", jsonType(want), jsonType(got))
		}
		return
	case alarmRace:
		if !numberIs(got, "0") && !numberIs(got, "-1") && !numberIs(got, "2") {
			c.add(path, "0 (or -1, 2 once the fail monitor passed)", got)
		}
		return
	case autoAddress:
		if (want == nil || want == "") && (got == nil || got == "") {
			return
		}
	}
	switch w := want.(type) {
	case map[string]any:
		g, ok := got.(map[string]any)
		if !ok {
			c.add(path, want, got)
			return
		}
		c.compareObject(path, w, g)
	case []any:
		g, ok := got.([]any)
		if !ok {
			c.add(path, want, got)
			return
		}
		c.compareArray(path, w, g)
	default:
		if !equalScalar(want, got) {
			c.add(path, want, got)
		}
	}
}

func equalScalar(want, got any) bool {
	if jsonType(want) != jsonType(got) {
		return false
	}
	if w, ok := want.(json.Number); ok {
		return w.String() == got.(json.Number).String()
	}
	return want == got
}

// compareObject compares key sets and values; key order is not compared.
func (c *checker) compareObject(path string, want, got map[string]any) {
	keys := make([]string, 0, len(want))
	for k := range want {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		g, ok := got[k]
		if !ok {
			c.add(path+"."+k, want[k], absent{})
			continue
		}
		c.compareValue(path+"."+k, want[k], g, bodyRule(c.endpoint, path, k, want))
	}
	var extra []string
	for k := range got {
		if _, ok := want[k]; !ok {
			extra = append(extra, k)
		}
	}
	sort.Strings(extra)
	for _, k := range extra {
		c.add(path+"."+k, absent{}, got[k])
	}
}

// compareArray compares element by element. Lists of entities are first
// compared by their id sequence, so one missing row is one mismatch and
// the rows are then compared by id.
func (c *checker) compareArray(path string, want, got []any) {
	wids, wok := entityIDs(want)
	gids, gok := entityIDs(got)
	if wok && gok && !equalStrings(wids, gids) {
		c.add(path+" (ids)", wids, gids)
		byID := map[string]any{}
		for i, id := range gids {
			byID[id] = got[i]
		}
		for i, id := range wids {
			if g, ok := byID[id]; ok {
				c.compareValue(fmt.Sprintf("%s[%d]", path, i), want[i], g, exact)
			}
		}
		return
	}
	if len(want) != len(got) {
		c.add(path+" (length)", len(want), len(got))
	}
	for i := 0; i < len(want) && i < len(got); i++ {
		c.compareValue(fmt.Sprintf("%s[%d]", path, i), want[i], got[i], exact)
	}
}

// entityIDs returns the "id" of each element if every element is an
// object with a numeric id.
func entityIDs(list []any) ([]string, bool) {
	if len(list) == 0 {
		return nil, false
	}
	ids := make([]string, len(list))
	for i, v := range list {
		m, ok := v.(map[string]any)
		if !ok {
			return nil, false
		}
		n, ok := m["id"].(json.Number)
		if !ok {
			return nil, false
		}
		ids[i] = n.String()
	}
	return ids, true
}

func equalStrings(a, b []string) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// compareTime applies the relTime rule to two values.
func (c *checker) compareTime(path string, want, got any, parse func(string, *time.Location) (time.Time, bool)) {
	ws, wok := want.(string)
	gs, gok := got.(string)
	if !wok || !gok {
		if jsonType(want) != jsonType(got) || (want != nil && !equalScalar(want, got)) {
			c.add(path, want, got)
		}
		return
	}
	wt, ok1 := parse(ws, c.frame.loc)
	gt, ok2 := parse(gs, c.frame.loc)
	if !ok1 || !ok2 || skeleton(ws) != skeleton(gs) || !c.frame.same(wt, gt) {
		c.add(path+" (time relative to the fixture)", want, got)
	}
}

func epochMillis(v any) (time.Time, bool) {
	n, ok := v.(json.Number)
	if !ok {
		return time.Time{}, false
	}
	ms, err := n.Int64()
	return time.UnixMilli(ms), err == nil
}

func parseBodyTime(s string, _ *time.Location) (time.Time, bool) {
	t, err := time.Parse(time.RFC3339Nano, s)
	return t, err == nil
}

func parseDBTime(s string, loc *time.Location) (time.Time, bool) {
	t, err := time.ParseInLocation(dbTimeLayout, s, loc)
	return t, err == nil
}

// compareRows compares db_after rows in order, column by column.
func (c *checker) compareRows(path string, want, got []map[string]*string) {
	if len(want) != len(got) {
		c.add(path+" (rows)", rowIDs(want), rowIDs(got))
		return
	}
	for i := range want {
		cols := make([]string, 0, len(want[i]))
		for col := range want[i] {
			cols = append(cols, col)
		}
		sort.Strings(cols)
		for _, col := range cols {
			c.compareColumn(fmt.Sprintf("%s[%d].%s", path, i, col), dbRule(col, want[i]), want[i][col], got[i][col])
		}
	}
}

func (c *checker) compareColumn(path string, r rule, want, got *string) {
	if got != nil {
		n := c.norm.apply(*got)
		got = &n
	}
	asAny := func(s *string) any {
		if s == nil {
			return nil
		}
		return *s
	}
	switch r {
	case relTime:
		c.compareTime(path, asAny(want), asAny(got), parseDBTime)
	case shape:
		if !sameShape(asAny(want), asAny(got)) {
			c.add(path, want, got)
		}
	case alarmRace:
		if !textIs(got, "0") && !textIs(got, "-1") && !textIs(got, "2") {
			c.add(path, "0 (or -1, 2 once the fail monitor passed)", got)
		}
	case autoAddress:
		if deref(want) == "" && deref(got) == "" {
			return
		}
		fallthrough
	default:
		if (want == nil) != (got == nil) || (want != nil && *want != *got) {
			c.add(path, want, got)
		}
	}
}

func rowIDs(rows []map[string]*string) []string {
	ids := make([]string, len(rows))
	for i, r := range rows {
		ids[i] = deref(r["id"])
	}
	return ids
}

var (
	titleRe     = regexp.MustCompile(`(?is)<title>(.*?)</title>`)
	errorTextRe = regexp.MustCompile(`(?is)<h1>.*?</h1>\s*<p>(.*?)</p>`)
)

// pageTitle is the text of the page's <title>.
func pageTitle(body []byte) (string, bool) {
	m := titleRe.FindSubmatch(body)
	if m == nil {
		return "", false
	}
	return strings.TrimSpace(html.UnescapeString(string(m[1]))), true
}

// errorPageMessage is the message of the admin's error page
// (common.exception: the paragraph after the "System Error" heading).
func errorPageMessage(body []byte) string {
	m := errorTextRe.FindSubmatch(body)
	if m == nil {
		return ""
	}
	return strings.TrimSpace(html.UnescapeString(string(m[1])))
}
