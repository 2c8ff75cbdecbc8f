package openapi

import (
	"crypto/sha256"
	"fmt"
	"net/http"
	"time"

	"github.com/rs/zerolog"

	"github.com/xxl-admin-go/xxl-admin-go/compat/schema"
	"github.com/xxl-admin-go/xxl-admin-go/core/jobs"
	"github.com/xxl-admin-go/xxl-admin-go/core/trigger"
	"github.com/xxl-admin-go/xxl-admin-go/core/workflow"
)

// Base is the API's path under the context path.
const Base = "/openapi/v1"

// Config wires the API.
type Config struct {
	Store   *schema.Store
	Jobs    *jobs.Service
	Logs    *jobs.Logs
	Trigger trigger.Submitter // "run once" goes through the trigger door
	// Workflows is the workflow engine when xxl.job.workflows.enabled is
	// true; nil leaves the workflow routes out and exports no workflows.
	Workflows *workflow.Engine
	// Token is the bearer token callers send; empty switches the API off.
	Token string
	// User names the console user whose role and permission the token
	// acts with; empty acts as an admin named "openapi".
	User string
	// ListBounds are the time bounds of the job and log lists' statements,
	// the console's (xxl.job.console.statement-timeout, count-timeout);
	// zero: schema.DefaultBounds.
	ListBounds schema.Bounds
	// ContextPath is server.servlet.context-path ("" or "/x").
	ContextPath string
	Loc         *time.Location // the zone of the RFC 3339 times written
	Now         func() time.Time
	Log         zerolog.Logger
}

// API serves the job management API.
type API struct {
	cfg   Config
	base  string
	token [sha256.Size]byte
	mux   *http.ServeMux
	table []route
	doc   []byte
	now   func() time.Time
	log   zerolog.Logger
}

// New builds the API and its document.
func New(cfg Config) (*API, error) {
	if cfg.Now == nil {
		cfg.Now = time.Now
	}
	if cfg.Loc == nil {
		cfg.Loc = time.Local
	}
	if cfg.ListBounds == (schema.Bounds{}) {
		cfg.ListBounds = schema.DefaultBounds
	}
	doc, err := documentWith(cfg.ContextPath, cfg.Workflows != nil)
	if err != nil {
		return nil, fmt.Errorf("openapi: %w", err)
	}
	a := &API{cfg: cfg, base: cfg.ContextPath + Base, token: sha256.Sum256([]byte(cfg.Token)), doc: doc,
		now: cfg.Now, log: cfg.Log.With().Str("component", "openapi").Logger()}
	a.table = routeTable()
	if cfg.Workflows != nil {
		a.table = append(a.table, workflowRoutes()...)
	}
	a.mux = http.NewServeMux()
	for _, rt := range a.table {
		a.mux.HandleFunc(rt.method+" "+a.base+rt.path, func(w http.ResponseWriter, r *http.Request) { a.serve(w, r, rt) })
	}
	return a, nil
}

// Enabled tells whether a token is configured.
func (a *API) Enabled() bool { return a.cfg.Token != "" }

// Handler serves every path under <ctx>/openapi/: a path or method the
// API lacks is a JSON 404 or 405, and everything is a 404 while the API is
// off.
func (a *API) Handler() http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if !a.Enabled() {
			writeError(w, &apiError{http.StatusNotFound, "not_found", "the job API is off: set xxl.job.openapi.token"})
			return
		}
		if _, pattern := a.mux.Handler(r); pattern == "" {
			a.unrouted(w, r)
			return
		}
		a.mux.ServeHTTP(w, r)
	})
}

// unrouted answers 405 with Allow when another method has the path, else 404.
func (a *API) unrouted(w http.ResponseWriter, r *http.Request) {
	var allow []string
	for _, m := range []string{http.MethodGet, http.MethodPost, http.MethodPut, http.MethodDelete} {
		probe := r.Clone(r.Context())
		probe.Method = m
		if _, pattern := a.mux.Handler(probe); pattern != "" {
			allow = append(allow, m)
		}
	}
	if len(allow) == 0 {
		writeError(w, &apiError{http.StatusNotFound, "not_found", "no such endpoint: " + r.URL.Path})
		return
	}
	for _, m := range allow {
		w.Header().Add("Allow", m)
	}
	writeError(w, &apiError{http.StatusMethodNotAllowed, "method_not_allowed", r.Method + " is not allowed here"})
}
