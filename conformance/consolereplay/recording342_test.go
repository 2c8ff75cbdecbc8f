package consolereplay

import (
	"testing"
	"time"
)

// TestPlans342CoverRecordings checks that every 3.4.2 recording is
// replayed once, in the plan of its language, that its db_after labels
// have queries and its setup carries what the replay needs.
func TestPlans342CoverRecordings(t *testing.T) {
	dir := genDir(t, Gen342)
	names, err := ListRecordings(dir)
	if err != nil {
		t.Fatal(err)
	}
	if len(names) != 36+36+20 {
		t.Errorf("%d recordings, want 92 (36 scenarios in en and zh_CN, 20 of them in zh_TC)", len(names))
	}
	planned := map[string]bool{}
	for _, p := range Gen342.Plans() {
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
			if _, err := time.Parse(time.RFC3339Nano, rec.Setup.FixtureAt); err != nil {
				t.Errorf("%s: fixture_at: %v", rec.Scenario, err)
			}
			if rec.Setup.I18n != p.Lang || origin(rec.Setup.AdminURL) == "" {
				t.Errorf("%s: setup i18n %q, admin_url %q", rec.Scenario, rec.Setup.I18n, rec.Setup.AdminURL)
			}
			for _, l := range rec.Setup.Logins {
				if _, ok := loginToken(l.Cookie); !ok || l.Password == "" {
					t.Errorf("%s: setup login %+v", rec.Scenario, l)
				}
			}
			for i, ex := range rec.Exchanges {
				for label := range ex.DBAfter {
					if !KnownLabel(label) {
						t.Errorf("%s[%d]: db_after label %q has no query", rec.Scenario, i, label)
					}
				}
			}
			for i := range p.Steps {
				if p.Steps[i].Scenario != s {
					continue
				}
				for ex := range p.Steps[i].BeforeExchange {
					if ex >= len(rec.Exchanges) {
						t.Errorf("%s: hook before exchange %d of %d", rec.Scenario, ex, len(rec.Exchanges))
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
