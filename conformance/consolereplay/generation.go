package consolereplay

import (
	"context"
	"net/http"
	"time"

	"github.com/xxl-admin-go/xxl-admin-go/conformance/javaadmin"
)

// Generation is what differs between the admin generations whose console
// traffic is recorded: where the recordings are, the context path, the
// tables and fixture, how a recorded login cookie becomes one the admin
// under test accepts, and how the fake executor answers. Everything else
// (the comparison, the volatile rules, the db_after reads, the hooks) is
// shared; a replay names its generation and its target (javaadmin.Target)
// and nothing more.
type Generation struct {
	Name          string // "2.4.2", "3.4.2"
	RecordingsDir string // relative to the module root
	// ContextPath is the admin's context path in the recorded paths: the
	// part cut off to name an endpoint ("" for the root).
	ContextPath string
	// ReadyPath is the page that answers 200 once the admin serves.
	ReadyPath string
	// Plans are the replays of every recorded language.
	Plans func() []Plan
	// Executor is how the fake executor answers this generation's admin.
	Executor ExecutorDialect
	// OpenDB creates the generation's tables and seed rows on an empty
	// database and opens the harness's handle on it.
	OpenDB func(ctx context.Context, url, user, pass string) (*DB, error)
	// LoadFixture inserts the recorder's fixture (at: its "now"; executor:
	// the fake executor's address).
	LoadFixture func(ctx context.Context, db *DB, at time.Time, executor string) error
	// NewCookies makes the login-cookie mapper of one replay.
	NewCookies func(mode CookieMode, baseURL string, db *DB, client *http.Client) CookieMapper
	// SameCookieValue compares a recorded and an observed Set-Cookie value
	// of one cookie name.
	SameCookieValue func(name, want, got string) bool
}

// Gen242 is the 2.4.2 generation: the recordings of the 2.4.2 jar made by
// the recorder of ../shared (README there), replayed with the plan
// reconstructed from them (plan.go).
var Gen242 = &Generation{
	Name:          "2.4.2",
	RecordingsDir: RecordingsDir,
	ContextPath:   javaadmin.ContextPath,
	ReadyPath:     javaadmin.ContextPath + "/toLogin",
	Plans:         Plans,
	Executor:      Executor242,
	OpenDB:        OpenDB,
	LoadFixture: func(ctx context.Context, db *DB, at time.Time, executor string) error {
		return Fixture{At: at, Executor: executor}.Load(ctx, db)
	},
	NewCookies: func(mode CookieMode, baseURL string, db *DB, client *http.Client) CookieMapper {
		return &Cookies{Mode: mode, BaseURL: baseURL, DB: db, Client: client}
	},
	SameCookieValue: func(_, want, got string) bool { return want == got },
}

// Gen342 is the 3.4.2 generation: the recordings conformance/record342
// made of the 3.4.2 jar (README beside them), replayed in the recorder's
// own order (plan342.go).
var Gen342 = &Generation{
	Name:          "3.4.2",
	RecordingsDir: RecordingsDir342,
	ContextPath:   "",
	ReadyPath:     javaadmin.ReadyPath342,
	Plans:         Plans342,
	Executor:      Executor342,
	OpenDB:        OpenDB342,
	LoadFixture: func(ctx context.Context, db *DB, at time.Time, executor string) error {
		return Fixture342{At: at, Executor: executor}.Load(ctx, db)
	},
	NewCookies: func(mode CookieMode, baseURL string, _ *DB, client *http.Client) CookieMapper {
		return &TokenCookies{Mode: mode, BaseURL: baseURL, Client: client}
	},
	SameCookieValue: sameTokenCookie,
}

// PlanFor returns the plan of one language of the generation.
func (g *Generation) PlanFor(lang string) (Plan, bool) {
	for _, p := range g.Plans() {
		if p.Lang == lang {
			return p, true
		}
	}
	return Plan{}, false
}
