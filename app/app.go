// Package app is the wiring: the one place that knows every component, how
// they are built from the configuration, and the order they start and stop.
package app

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"strconv"
	"time"

	"github.com/rs/zerolog"

	"github.com/xxl-admin-go/xxl-admin-go/compat/api"
	"github.com/xxl-admin-go/xxl-admin-go/compat/config"
	"github.com/xxl-admin-go/xxl-admin-go/compat/schema"
	"github.com/xxl-admin-go/xxl-admin-go/core/clock"
	"github.com/xxl-admin-go/xxl-admin-go/core/lifecycle"
	"github.com/xxl-admin-go/xxl-admin-go/core/trigger"
)

// Options are what the process gives the app besides the configuration.
type Options struct {
	Started time.Time           // process start, for the start-up time log
	Ready   func(addr net.Addr) // called once the listener is open (tests)
	Clock   clock.Clock         // the one clock every component uses; the system clock when nil
	Tuning  Tuning              // test-only overrides of the Java intervals
	// ConnState, when set (tests), sees every HTTP connection change state.
	ConnState func(net.Conn, http.ConnState)
	// ScheduleDoor, when set, wraps the trigger door the schedule loop and
	// its ring submit through. Tests only: a wrapper that doubles or drops
	// fires proves that a test can see it.
	ScheduleDoor func(trigger.Submitter) trigger.Submitter
}

// Tuning shortens the helper intervals for tests; zero values keep the Java
// constants (registry 30 s, fail monitor 10 s, lost-job 60 s, report 60 s)
// and the pending-trigger sweep (a third of the lease)
type Tuning struct {
	RegistryInterval time.Duration
	FailInterval     time.Duration
	FailStuckAfter   time.Duration
	LostInterval     time.Duration
	ReportInterval   time.Duration
	SweepInterval    time.Duration
}

// Run opens the store, starts every component and serves HTTP until ctx is
// cancelled, then shuts down in reverse order.
func Run(ctx context.Context, cfg *config.Config, log zerolog.Logger, opt Options) error {
	if opt.Clock == nil {
		opt.Clock = clock.System{}
	}
	if opt.Started.IsZero() {
		opt.Started = opt.Clock.Now()
	}
	store, target, err := openStore(ctx, cfg, log)
	if err != nil {
		return err
	}
	defer store.Close()
	// The database decided the generation: resolve the configuration again
	// with that generation's defaults (a 3.x database is served at / unless
	// a context path is given) before anything is built or bound.
	if cfg, err = cfg.ForGeneration(store.Generation().Major()); err != nil {
		return err
	}
	secret, err := consoleSecret(cfg, target, log)
	if err != nil {
		return err
	}

	warnings := securityWarnings(cfg)
	for _, w := range warnings {
		log.Warn().Str("security", "access-token").Msg("SECURITY: " + w)
	}

	parts, err := build(cfg, store, secret, opt, log)
	if err != nil {
		return err
	}
	warnings = append(warnings, zoneCheck(ctx, parts.jobs, log)...)
	envelope := api.ReturnTEnvelope
	if store.Generation() == schema.Gen3 {
		envelope = api.ResponseEnvelope
	}
	consoleHandler := parts.console.Handler()
	// A path under /api/ that Java's /api/{uri} mapping does not match
	// (/api/, /api/a/b; under 3.4.2 also /api/registry/) is answered as
	// any unknown path: by the console (3.4.2: its 404 page; apidiff).
	var refusals api.Refusals // a nil *Metrics must not become a non-nil interface
	if parts.metrics != nil {
		refusals = parts.metrics
	}
	apiHandler := api.NewHandler(api.HandlerConfig{AccessToken: cfg.AccessToken, Envelope: envelope,
		Registry: parts.registrar, Callbacks: parts.completer, Refused: refusals,
		NotRouted: withPrefix(cfg.ContextPath, consoleHandler), Log: log})

	// Take the port before any component runs, so a port in use fails
	// start-up before the schedule loop has fired anything.
	addr := net.JoinHostPort(cfg.ServerAddress, strconv.Itoa(cfg.ServerPort))
	tcp, err := net.Listen("tcp", addr)
	if err != nil {
		return fmt.Errorf("listen on server.port %d: %w", cfg.ServerPort, err)
	}
	maxConns := connectionCap(cfg.HTTP.MaxConnections, fileLimit(), log)
	ln := newLimitListener(tcp, maxConns, log)
	defer ln.Close()
	var metricsHandler http.Handler
	if parts.metrics != nil {
		parts.metrics.WatchHTTP(ln.Open, ln.Waits, maxConns)
		metricsHandler = parts.metrics.Handler()
	}

	var components lifecycle.Group
	if err := components.Start(ctx, parts.components...); err != nil {
		return fmt.Errorf("start components: %w", err)
	}
	defer components.Stop()
	defer parts.client.CloseIdleConnections()

	srv := &http.Server{
		Handler: routes(cfg.ContextPath, apiHandler, parts.openapi.Handler(), consoleHandler, store, warnings,
			info(store.Generation(), target.Backend), metricsHandler, log),
		// A request must arrive whole within the connection timeout,
		// body included: without it a client that announces a body and
		// never sends it holds its connection forever.
		ReadHeaderTimeout: min(10*time.Second, cfg.HTTP.ConnectionTimeout),
		ReadTimeout:       cfg.HTTP.ConnectionTimeout,
		IdleTimeout:       120 * time.Second,
		MaxHeaderBytes:    64 << 10,
		ConnState:         opt.ConnState,
	}
	serveErr := make(chan error, 1)
	go func() { serveErr <- srv.Serve(ln) }()
	log.Info().Str("address", ln.Addr().String()).Str("context_path", cfg.ContextPath).
		Dur("startup", time.Since(opt.Started)).Msg("xxl-admin-go listening")
	if opt.Ready != nil {
		opt.Ready(ln.Addr())
	}

	select {
	case <-ctx.Done():
	case err := <-serveErr:
		return fmt.Errorf("http server: %w", err)
	}
	log.Info().Msg("shutting down")
	// Components stop first (deferred above runs after this), so triggers in
	// flight can still receive executor callbacks while they drain; the
	// HTTP server goes last.
	components.Stop()
	shutdownHTTP(srv, ln, cfg.HTTP.ShutdownGrace, log)
	log.Info().Msg("stopped")
	return nil
}

// shutdownHTTP lets requests in progress finish for up to grace, then
// closes the connections still open: a client that stalls its request
// must not turn a clean stop into a failure.
func shutdownHTTP(srv *http.Server, ln *limitListener, grace time.Duration, log zerolog.Logger) {
	ctx, cancel := context.WithTimeout(context.Background(), grace)
	defer cancel()
	err := srv.Shutdown(ctx)
	if err == nil || errors.Is(err, http.ErrServerClosed) {
		return
	}
	open := ln.Open()
	if err := srv.Close(); err != nil {
		log.Warn().Err(err).Msg("http close")
	}
	log.Warn().Int64("connections", open).Dur("grace", grace).Msg("closed connections still open after the shutdown grace")
}

// connectionCap is server.tomcat.max-connections, lowered when the
// process's file limit would run out first: the database pool, executor
// calls and files need descriptors too.
func connectionCap(configured, fileLimit int, log zerolog.Logger) int {
	const reserve = 512
	if fileLimit <= 0 || configured <= fileLimit-reserve {
		return configured
	}
	capped := max(fileLimit-reserve, fileLimit/2, 1)
	log.Warn().Int("max_connections", configured).Int("file_limit", fileLimit).Int("using", capped).
		Msg("server.tomcat.max-connections lowered to fit the open-file limit (raise it with ulimit -n)")
	return capped
}

func openStore(ctx context.Context, cfg *config.Config, log zerolog.Logger) (*schema.Store, schema.Target, error) {
	target, err := schema.ParseJDBC(cfg.Datasource.URL, cfg.Datasource.Username, cfg.Datasource.Password)
	if err != nil {
		return nil, target, err
	}
	openCtx, cancel := context.WithTimeout(ctx, max(cfg.Datasource.ConnTimeout, time.Second))
	defer cancel()
	store, err := schema.Open(openCtx, target, schema.PoolSettings{
		MaxOpen:     cfg.Datasource.MaxPoolSize,
		MaxIdle:     cfg.Datasource.MinIdle,
		IdleTimeout: cfg.Datasource.IdleTimeout,
		MaxLifetime: cfg.Datasource.MaxLifetime,
	})
	if err != nil {
		return nil, target, err
	}
	store.SetScheduleBatchSize(cfg.ScheduleBatchSize)
	create, err := schema.ParseGeneration(cfg.Schema)
	if err != nil {
		store.Close()
		return nil, target, fmt.Errorf("xxl.job.schema: %w", err)
	}
	res, err := store.Prepare(ctx, schema.PrepareOptions{Create: create, AllowUnknownColumns: cfg.AllowUnknownColumns,
		SkipPendingTable: !cfg.Durable.Enabled, Workflows: cfg.Workflows})
	if err != nil {
		store.Close()
		return nil, target, err
	}
	l := log.Info().Str("backend", string(target.Backend)).Str("datasource", target.Display).Str("zone", target.Loc.String()).
		Str("schema", res.Generation.String()).Str("behaves_as", javaRelease(res.Generation))
	if target.Path != "" {
		l = l.Str("file", target.Path)
	}
	l.Msg("database ready")
	if res.Created {
		log.Info().Str("schema", res.Generation.String()).Msg("created the xxl_job_* tables and seed rows (login admin / 123456)")
	}
	if res.PendingCreated {
		log.Info().Str("table", schema.PendingTable).Msg("created our table of durable retries and child triggers (no Java admin reads it; xxl.job.durable-triggers=false does without)")
	}
	if res.WorkflowCreated {
		log.Info().Msg("created our workflow tables xxl_job_workflow* (no Java admin reads them; xxl.job.workflows.enabled=false does without)")
	}
	if res.LockInserted {
		log.Warn().Msg("inserted the missing schedule_lock row into xxl_job_lock (without it clustered admins fire jobs twice)")
	}
	for _, w := range res.Warnings {
		log.Warn().Msg("schema: " + w)
	}
	if res.ScheduleTimezone {
		log.Info().Msg("xxl_job_info has the schedule_timezone column: CRON jobs with a time zone of their own fire in it")
	}
	return store, target, nil
}

// javaRelease names the Java admin whose behaviour a generation gets.
func javaRelease(g schema.Generation) string {
	if g == schema.Gen3 {
		return "xxl-job-admin 3.4.2"
	}
	return "xxl-job-admin 2.4.2"
}
