package app

import (
	"fmt"
	"os"
	"sync"
	"time"

	"github.com/rs/zerolog"

	"github.com/xxl-admin-go/xxl-admin-go/app/metrics"
	"github.com/xxl-admin-go/xxl-admin-go/compat/api"
	"github.com/xxl-admin-go/xxl-admin-go/compat/config"
	"github.com/xxl-admin-go/xxl-admin-go/compat/console"
	"github.com/xxl-admin-go/xxl-admin-go/compat/openapi"
	"github.com/xxl-admin-go/xxl-admin-go/compat/schema"
	"github.com/xxl-admin-go/xxl-admin-go/core/alarm"
	"github.com/xxl-admin-go/xxl-admin-go/core/jobs"
	"github.com/xxl-admin-go/xxl-admin-go/core/lifecycle"
	"github.com/xxl-admin-go/xxl-admin-go/core/report"
	"github.com/xxl-admin-go/xxl-admin-go/core/schedule"
	"github.com/xxl-admin-go/xxl-admin-go/core/thread"
	"github.com/xxl-admin-go/xxl-admin-go/core/trigger"
	"github.com/xxl-admin-go/xxl-admin-go/core/workflow"
	"github.com/xxl-admin-go/xxl-admin-go/static"
)

// parts are the built components and the services the HTTP layer uses.
type parts struct {
	client     *api.Client
	registrar  *thread.Registrar
	completer  *thread.Completer
	console    *console.Console
	openapi    *openapi.API
	jobs       *jobs.Service
	metrics    *metrics.Metrics      // nil unless the prometheus endpoint is exposed
	components []lifecycle.Component // in start order (Java's, scheduler.md §1)
}

// observers are the metrics as each core package's observer, or all nil
// (an interface holding a nil *Metrics would not be nil).
type observers struct {
	trigger   trigger.Observer
	schedule  schedule.Observer
	callbacks thread.CallbackObserver
	registry  thread.RegistryObserver
	sweep     thread.SweepObserver
	monitors  thread.MonitorObserver
	report    report.Observer
	settle    thread.SettleObserver
	workflow  workflow.Observer
	alarm     func(channel string, ok bool)
}

func observersOf(m *metrics.Metrics) observers {
	if m == nil {
		return observers{}
	}
	return observers{trigger: m, schedule: m, callbacks: m, registry: m, sweep: m, monitors: m, report: m, settle: m, workflow: m, alarm: m.Alarm}
}

// build creates every component from the configuration. Nothing starts here.
// Every trigger source gets the pools as its trigger door, and every
// component the one clock; each component names itself in its log lines.
func build(cfg *config.Config, store *schema.Store, secret []byte, opt Options, log zerolog.Logger) (parts, error) {
	// The database's generation decides which Java admin every part
	// writes as: its bundle (trigger, completer, monitors, alarm, job
	// service, console) and the few core behaviours 3.4.2 changed. The job
	// service names its texts with 2.4.2's keys and reads 3.4.2's renamed
	// ones from a 3.4.2 bundle.
	gen := genOptions(store.Generation())
	texts := gen.texts(cfg.I18n)
	now := opt.Clock.Now
	var m *metrics.Metrics
	if cfg.Exposes("prometheus") {
		b := Build()
		m = metrics.New(metrics.Build{Version: b.Version, Commit: b.Commit, Go: b.Go})
		m.WatchStore(store.Errors, store.Ping)
	}
	obs := observersOf(m)
	// Every sender of both pools keeps its executor connection between
	// triggers: a pool of 64 per executor closed and reopened the rest at
	// every busy second.
	callLimit := max(api.DefaultCallLimit, cfg.ExecutorTimeout)
	client := api.NewClient(api.ClientConfig{AccessToken: cfg.AccessToken,
		Timeout: cfg.ExecutorTimeout, CallLimit: callLimit,
		MaxIdleConnsPerHost: cfg.TriggerFastMax + cfg.TriggerSlowMax})
	durable := durableOf(cfg, callLimit, now)
	flow := trigger.NewFlow(trigger.FlowConfig{Store: store, Client: client, Texts: texts, Layout: gen.layout, Now: now, Log: log,
		Observer: obs.trigger, Durable: durable})
	// One schedule round hands over at most preRead triggers at once (a
	// whole second of jobs that share a second), and full rounds follow
	// each other. The fast queue holds ten such rounds, more than an
	// overloaded admin's backlog of the misfire bound (trigger.MisfireAfter,
	// 5 s), so it applies misfire strategies to that backlog instead of
	// refusing it. Java's fixed 1000 refuses a busy second.
	preRead := (cfg.TriggerFastMax + cfg.TriggerSlowMax) * 20
	pools := trigger.NewPools(trigger.PoolConfig{FastMax: cfg.TriggerFastMax, SlowMax: cfg.TriggerSlowMax,
		QueueSize: 10 * preRead, Now: now, Log: log}, flow)
	if m != nil {
		m.WatchPools(pools.Stats)
	}

	// Workflows (off by default) follow their nodes' log rows through the
	// trigger flow's and the completer's hooks.
	var engine *workflow.Engine
	var finishHook thread.FinishHook
	if cfg.Workflows && durable != nil {
		engine = workflow.New(workflow.Config{Store: store, Trigger: pools, Durable: durable, Loc: time.Local, Now: now, Log: log,
			Observe: obs.workflow})
		durable.Hook, finishHook = engine, engine
	}
	completer := thread.NewCompleter(thread.CompleterConfig{Store: store, Texts: texts, Trigger: pools, Now: now, Log: log,
		Observer: obs.callbacks, Children: gen.children, Durable: durable, Hook: finishHook})
	alarmer := alarm.New(alarm.Config{Mail: cfg.Mail, Alarm: cfg.Alarm, Observe: obs.alarm, Texts: texts, Log: log})
	if m != nil {
		m.AlarmChannels(alarmer.Channels())
	}
	failMonitor := thread.NewFailMonitor(thread.FailMonitorConfig{
		Store: store, Texts: texts, Trigger: pools, Now: now, Log: log, RetryColor: gen.retryColor, Durable: durable,
		Alarm:    alarmer,
		Interval: opt.Tuning.FailInterval, StuckAfter: opt.Tuning.FailStuckAfter, Observer: obs.monitors,
	})
	var door trigger.Submitter = pools
	if opt.ScheduleDoor != nil {
		door = opt.ScheduleDoor(pools)
	}
	scheduler, err := schedule.New(schedule.Config{Store: store, Submit: door, PreReadCount: preRead,
		Loc: time.Local, FixRate: gen.fixRate, Clock: opt.Clock, Log: log, Observer: obs.schedule})
	if err != nil {
		return parts{}, fmt.Errorf("schedule: %w", err)
	}

	jobService := jobs.New(jobs.Config{Store: store, Texts: texts, Rules: gen.jobRules, Loc: time.Local, FixRate: gen.fixRate,
		Now: now, Log: log})
	signins, err := signinConfig(cfg.Console.Signin, log)
	if err != nil {
		return parts{}, err
	}
	// The console's workflow pages exist only with workflows on.
	var workflows console.Workflows
	if engine != nil {
		workflows = engine
	}
	web, err := console.New(console.Config{
		Workflows:    workflows,
		Store:        store,
		Jobs:         jobService,
		Trigger:      pools,
		Executor:     client,
		Results:      completer,
		Texts:        texts,
		Files:        static.Files(),
		ContextPath:  cfg.ContextPath,
		Secret:       secret,
		LegacyCookie: cfg.Console.LegacyCookie,
		ListBounds:   schema.Bounds{Statement: cfg.Console.StatementTimeout, Count: cfg.Console.CountTimeout},
		Generation:   store.Generation().Major(),
		TokenKey:     cfg.SSO.TokenKey,
		TokenTimeout: cfg.SSO.TokenTimeout,
		Signin:       signins,
		Loc:          time.Local,
		Now:          now,
		Log:          log,
	})
	if err != nil {
		return parts{}, err
	}

	jobAPI, err := openapi.New(openapi.Config{
		Store: store, Jobs: jobService, Trigger: pools, Workflows: engine, Token: cfg.OpenAPI.Token, User: cfg.OpenAPI.User,
		Logs:        jobs.NewLogs(jobs.LogsConfig{Store: store, Executor: client, Results: completer, Texts: texts, Now: now, Log: log}),
		ContextPath: cfg.ContextPath, Loc: time.Local, Now: now, Log: log,
		ListBounds: schema.Bounds{Statement: cfg.Console.StatementTimeout, Count: cfg.Console.CountTimeout},
	})
	if err != nil {
		return parts{}, err
	}
	if jobAPI.Enabled() {
		user := cfg.OpenAPI.User
		if user == "" {
			user = "(admin)"
		}
		log.Info().Str("path", cfg.ContextPath+openapi.Base).Str("username", user).Msg("job API on")
	}

	// The registrar's rebuild for a new executor and the monitor's pass
	// take turns on the address lists (see RegistrarConfig.Lists).
	addressLists := &sync.Mutex{}
	registrar := thread.NewRegistrar(thread.RegistrarConfig{Store: store, Now: now, Log: log, Lists: addressLists})
	components := []lifecycle.Component{
		registrar, // first: it stops last, after the triggers drained
		pools,
		thread.NewRegistryMonitor(thread.RegistryMonitorConfig{Store: store, Now: now, Lists: addressLists,
			Interval: opt.Tuning.RegistryInterval, Log: log, Observer: obs.registry}),
		failMonitor,
	}
	if durable != nil {
		// After the pools, before the schedule: it submits what admins
		// that stopped left, and stops before the pools drain.
		components = append(components, thread.NewSweeper(thread.SweeperConfig{Store: store, Flow: flow, Trigger: pools,
			Executor: client, Durable: durable, Interval: opt.Tuning.SweepInterval, Log: log, Observer: obs.sweep}))
		// It settles the log rows admins left without a result once no
		// live admin's trigger can still be in flight; a row it sends
		// again is a pending trigger, which needs the table.
		settleAfter := cfg.Durable.SettleAfter
		if settleAfter <= 0 {
			settleAfter = trigger.InFlightBound(callLimit)
		}
		components = append(components, thread.NewSettler(thread.SettlerConfig{Store: store, Trigger: pools,
			Executor: client, Durable: durable, Texts: texts, After: settleAfter, Loc: time.Local, FixRate: gen.fixRate,
			Now: now, Log: log, Observer: obs.settle}))
	}
	if engine != nil {
		// After the sweeper: its pass and schedule submit through the pools.
		components = append(components, engine, workflow.NewScheduler(engine, time.Local, 0),
			workflow.NewAlarms(workflow.AlarmsConfig{Store: store, Alarm: alarmer, Now: now, Log: log,
				Interval: opt.Tuning.FailInterval, StuckAfter: opt.Tuning.FailStuckAfter}))
	}
	components = append(components,
		thread.NewLostMonitor(thread.LostMonitorConfig{Store: store, Completer: completer, Texts: texts, Now: now,
			Interval: opt.Tuning.LostInterval, Log: log, Observer: obs.monitors}),
		report.New(report.Config{Store: store, Loc: time.Local, RetentionDays: cfg.LogRetentionDays,
			Interval: opt.Tuning.ReportInterval, Now: now, Log: log, Observer: obs.report}),
		scheduler,
	)
	return parts{
		client:     client,
		console:    web,
		openapi:    jobAPI,
		jobs:       jobService,
		registrar:  registrar,
		completer:  completer,
		metrics:    m,
		components: components,
	}, nil
}

// durableOf is the durable triggers' setup (nil: xxl.job.durable-triggers
// is off): this admin named by host, port and process, the configured
// lease, and a lease for triggers whose /run may be under way that lasts
// the executor call limit longer, so whoever takes such a row over finds
// the /run ended.
func durableOf(cfg *config.Config, callLimit time.Duration, now func() time.Time) *trigger.Durable {
	if !cfg.Durable.Enabled {
		return nil
	}
	host, _ := os.Hostname()
	owner := fmt.Sprintf("%s:%d/%d", host, cfg.ServerPort, os.Getpid())
	if len(owner) > 64 {
		owner = owner[len(owner)-64:]
	}
	return &trigger.Durable{Owner: owner, Lease: cfg.Durable.Lease, SendLease: cfg.Durable.Lease + callLimit, Now: now}
}
