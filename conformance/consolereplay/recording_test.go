package consolereplay

import (
	"encoding/hex"
	"encoding/json"
	"slices"
	"strings"
	"testing"
	"time"
)

// TestPlansCoverRecordings checks that every recording is replayed exactly
// once, in the plan of its language, and that the replay knows how to read
// each of its db_after labels.
func TestPlansCoverRecordings(t *testing.T) {
	dir := recordingsDir(t)
	names, err := ListRecordings(dir)
	if err != nil {
		t.Fatal(err)
	}
	if len(names) != 79 {
		t.Errorf("%d recordings, want 79 (README: 32 scenarios in en and zh_CN, 15 of them in zh_TC)", len(names))
	}
	planned := map[string]bool{}
	for _, p := range Plans() {
		for _, s := range p.Scenarios() {
			name := s + "." + p.Lang
			if planned[name] {
				t.Errorf("%s is in the %s plan twice", s, p.Lang)
			}
			planned[name] = true
			rec, err := LoadRecording(dir, s, p.Lang)
			if err != nil {
				t.Errorf("plan %s: %v", p.Lang, err)
				continue
			}
			for i, ex := range rec.Exchanges {
				for label := range ex.DBAfter {
					if _, ok := dbQueries[label]; !ok {
						t.Errorf("%s[%d]: db_after label %q has no query", rec.Scenario, i, label)
					}
				}
			}
		}
	}
	for _, n := range names {
		if !planned[n] {
			t.Errorf("recording %s is in no plan", n)
		}
	}
}

// TestPlanFixtureTimes checks each plan's fixture time against the
// recording: fixture job 2 was added one day before it.
func TestPlanFixtureTimes(t *testing.T) {
	sources := map[string][2]any{ // a recorded job list that still shows job 2's original row
		"en":    {"jobinfo_pageList", 7},
		"zh_CN": {"jobinfo_pageList", 7},
		"zh_TC": {"pages_user_without_groups", 4},
	}
	for _, p := range Plans() {
		src := sources[p.Lang]
		rec, err := LoadRecording(recordingsDir(t), src[0].(string), p.Lang)
		if err != nil {
			t.Fatal(err)
		}
		var body struct {
			Data []listedJob `json:"data"`
		}
		if err := json.Unmarshal(rec.Exchanges[src[1].(int)].Response.BodyJSON, &body); err != nil {
			t.Fatal(err)
		}
		i := slices.IndexFunc(body.Data, func(j listedJob) bool { return j.ID == 2 })
		if i < 0 {
			t.Fatalf("%s: job 2 not listed", rec.Scenario)
		}
		added, err := time.Parse(time.RFC3339Nano, body.Data[i].AddTime)
		if err != nil {
			t.Fatal(err)
		}
		if got := added.Add(24 * time.Hour); !got.Equal(p.FixtureAt) {
			t.Errorf("%s: fixture time %s, job 2 added %s (want a day before)", p.Lang, p.FixtureAt, added)
		}
	}
}

type listedJob struct {
	ID      int    `json:"id"`
	AddTime string `json:"addTime"`
}

// TestRecordedLoginCookies checks the cookie mapping against every login
// cookie in the recordings: a cookie of a known password decodes to the
// user row and re-encodes to the very same value (Jackson's field order,
// no HTML escaping); the deliberately broken ones are not recognised.
func TestRecordedLoginCookies(t *testing.T) {
	dir := recordingsDir(t)
	names, err := ListRecordings(dir)
	if err != nil {
		t.Fatal(err)
	}
	valid := 0
	for _, n := range names {
		scenario, lang, _ := strings.Cut(n, ".")
		rec, err := LoadRecording(dir, scenario, lang)
		if err != nil {
			t.Fatal(err)
		}
		for i, ex := range rec.Exchanges {
			cookies := HeaderValues(ex.Response.Headers, "Set-Cookie")
			if v, ok := Header(ex.Request.Headers, "Cookie"); ok {
				cookies = append(cookies, v)
			}
			for _, c := range cookies {
				value := parseSetCookie(c).value
				raw, err := hex.DecodeString(value)
				var id identity
				if err != nil || json.Unmarshal(raw, &id) != nil || !knownHash(id.Username, id.Password) {
					continue
				}
				valid++
				again, err := javaCookieValue(id)
				if err != nil {
					t.Fatal(err)
				}
				if again != value {
					t.Errorf("%s[%d]: re-encoded cookie of %s differs:\n%s\n%s", rec.Scenario, i, id.Username, value, again)
				}
			}
		}
	}
	if valid < 100 {
		t.Errorf("only %d valid login cookies found", valid)
	}
}
