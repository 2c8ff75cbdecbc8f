package console

import (
	"context"
	"fmt"
	"io/fs"
	"net/http"
	"time"

	"github.com/rs/zerolog"

	"github.com/xxl-admin-go/xxl-admin-go/compat/api"
	"github.com/xxl-admin-go/xxl-admin-go/compat/i18n"
	"github.com/xxl-admin-go/xxl-admin-go/compat/schema"
	"github.com/xxl-admin-go/xxl-admin-go/core/jobs"
	"github.com/xxl-admin-go/xxl-admin-go/core/signin"
	"github.com/xxl-admin-go/xxl-admin-go/core/trigger"
)

// Executor is what the log pages need of the executor client.
type Executor interface {
	Log(ctx context.Context, address string, p api.LogParam) api.ReturnT[api.LogResult]
	Kill(ctx context.Context, address string, p api.KillParam) api.ReturnT[string]
}

// Results records a kill's result over a log (*thread.Completer).
type Results interface {
	Overwrite(ctx context.Context, l schema.JobLog) error
}

// Config wires the console.
type Config struct {
	Store    *schema.Store
	Jobs     *jobs.Service
	Trigger  trigger.Submitter // "run once" goes through the trigger door
	Executor Executor
	Results  Results
	Texts    *i18n.Bundle
	Files    fs.FS // static.Files(): templates/, js/, css/, vendor/
	// ContextPath is server.servlet.context-path ("" or "/x").
	ContextPath string
	// Secret signs session cookies; every admin sharing a database must be
	// given (or derive) the same one.
	Secret []byte
	// LegacyCookie issues and accepts the Java admin's unsigned cookie
	// (xxl.job.console.legacy-cookie), for rolling migrations.
	LegacyCookie bool
	// Generation is the database's schema generation, 2 or 3 (0 is 2): it
	// picks the surface — the 2.4.2 console or the 3.4.2 one with its
	// token login — over the same services.
	Generation int
	// TokenKey and TokenTimeout are xxl-sso.token.key / .timeout, the 3.x
	// login cookie's name and a login's lifetime (0: unlimited).
	TokenKey     string
	TokenTimeout time.Duration
	// Signin is the company sign-in (OIDC, LDAP); nil: off.
	Signin *SigninConfig
	// Workflows is the workflow engine (xxl.job.workflows.enabled); nil:
	// the console has no workflow pages (workflow.go).
	Workflows Workflows
	Loc       *time.Location // the admin's zone (report days, dates in pages)
	// ListBounds are the time bounds of the lists' statements (the log and
	// job lists); zero: DefaultListBounds.
	ListBounds schema.Bounds
	Now        func() time.Time
	Log        zerolog.Logger
}

// DefaultListBounds: no list statement runs longer than 5 s (the page
// says so instead of hanging), and a list's exact total may take 80 ms of
// the database before the list shows a lower bound ("more than N")
// (docs/operations.md, growth).
var DefaultListBounds = schema.DefaultBounds

// Console serves the web console.
type Console struct {
	cfg      Config
	store    *schema.Store
	jobs     *jobs.Service
	logs     *jobs.Logs // log text and kill, shared with the job API
	texts    *i18n.Bundle
	ours     map[string]string // texts.WithOurs(): the workflow pages'
	views    *views
	sessions *sessions      // 2.x cookie login
	tokens   *tokenSessions // 3.x token login
	gen3     bool
	static   *staticFiles
	throttle *throttle
	// signin is cfg.Signin; provisioner makes the rows of signed-in
	// users, sealer the sign-in flow cookies.
	signin      *SigninConfig
	provisioner *signin.Provisioner
	sealer      *signin.Sealer
	now         func() time.Time
	log         zerolog.Logger
}

// New parses the templates and builds the console.
func New(cfg Config) (*Console, error) {
	if cfg.Now == nil {
		cfg.Now = time.Now
	}
	if cfg.Loc == nil {
		cfg.Loc = time.Local
	}
	if len(cfg.Secret) < 16 {
		return nil, fmt.Errorf("console: the session secret must have at least 16 bytes")
	}
	if cfg.ListBounds == (schema.Bounds{}) {
		cfg.ListBounds = DefaultListBounds
	}
	gen3 := cfg.Generation == 3
	if cfg.TokenKey == "" {
		cfg.TokenKey = "xxl_job_login_token"
	}
	v, err := loadViews(cfg.Files, templateDir(gen3))
	if err != nil {
		return nil, fmt.Errorf("console: %w", err)
	}
	st, err := newStaticFiles(cfg.Files, cfg.ContextPath)
	if err != nil {
		return nil, fmt.Errorf("console: %w", err)
	}
	c := &Console{
		cfg: cfg, store: cfg.Store, jobs: cfg.Jobs, texts: cfg.Texts, views: v, static: st,
		logs: jobs.NewLogs(jobs.LogsConfig{Store: cfg.Store, Executor: cfg.Executor, Results: cfg.Results,
			Texts: cfg.Texts, Now: cfg.Now, Log: cfg.Log}),
		sessions: &sessions{secret: cfg.Secret, legacy: cfg.LegacyCookie, store: cfg.Store, now: cfg.Now},
		tokens:   &tokenSessions{store: cfg.Store, key: cfg.TokenKey, timeout: cfg.TokenTimeout, now: cfg.Now},
		gen3:     gen3,
		throttle: newThrottle(cfg.Now),
		now:      cfg.Now,
		log:      cfg.Log.With().Str("component", "console").Logger(),
	}
	if cfg.Workflows != nil {
		c.ours = cfg.Texts.WithOurs()
	}
	if cfg.Signin != nil {
		c.signin = cfg.Signin
		c.provisioner = &signin.Provisioner{Store: cfg.Store, Log: c.log}
		c.sealer = signin.NewSealer(cfg.Secret, cfg.Now)
		c.sessions.signinTimeout = cfg.Signin.SessionTimeout
		c.tokens.signinTimeout = cfg.Signin.SessionTimeout
	}
	return c, nil
}

// text is an i18n text of the configured language.
func (c *Console) text(key string) string { return c.texts.Text(key) }

// Handler serves every console route under the context path.
func (c *Console) Handler() http.Handler {
	return c.routes()
}
