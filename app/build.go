package app

import (
	"context"
	"fmt"
	"time"

	"github.com/rs/zerolog"

	"github.com/xxl-admin-go/xxl-admin-go/compat/api"
	"github.com/xxl-admin-go/xxl-admin-go/compat/config"
	"github.com/xxl-admin-go/xxl-admin-go/compat/i18n"
	"github.com/xxl-admin-go/xxl-admin-go/compat/schema"
	"github.com/xxl-admin-go/xxl-admin-go/core/alarm"
	"github.com/xxl-admin-go/xxl-admin-go/core/lifecycle"
	"github.com/xxl-admin-go/xxl-admin-go/core/report"
	"github.com/xxl-admin-go/xxl-admin-go/core/schedule"
	"github.com/xxl-admin-go/xxl-admin-go/core/thread"
	"github.com/xxl-admin-go/xxl-admin-go/core/trigger"
)

// parts are the built components and the services the HTTP layer uses.
type parts struct {
	client     *api.Client
	registrar  *thread.Registrar
	completer  *thread.Completer
	components []lifecycle.Component // in start order (Java's, scheduler.md §1)
}

// build creates every component from the configuration. Nothing starts here.
func build(cfg *config.Config, store *schema.Store, opt Options, log zerolog.Logger) (parts, error) {
	texts := i18n.Load(cfg.I18n)
	client := api.NewClient(api.ClientConfig{AccessToken: cfg.AccessToken})
	flow := trigger.NewFlow(trigger.FlowConfig{Store: store, Client: client, Texts: texts, Now: opt.Now,
		Log: log.With().Str("component", "trigger").Logger()})
	// One schedule round hands over at most preRead triggers at once (a
	// whole second of jobs that share a second); the fast queue holds that
	// much so a burst is queued, not refused. Java's fixed 1000 refuses it.
	preRead := (cfg.TriggerFastMax + cfg.TriggerSlowMax) * 20
	pools := trigger.NewPools(trigger.PoolConfig{FastMax: cfg.TriggerFastMax, SlowMax: cfg.TriggerSlowMax,
		QueueSize: preRead, Now: opt.Now, Log: log.With().Str("component", "trigger-pool").Logger()}, flow)

	completer := thread.NewCompleter(store, texts, func(jobID int) error {
		return pools.Submit(trigger.Request{JobID: jobID, Type: trigger.TypeParent, FailRetryCount: -1})
	}, opt.Now, log.With().Str("component", "completer").Logger())

	alarmer := alarm.New(alarm.Config{Mail: cfg.Mail, Alarm: cfg.Alarm}, texts, log.With().Str("component", "alarm").Logger())
	failMonitor := thread.NewFailMonitor(thread.FailMonitorConfig{
		Store: store, Texts: texts, Now: opt.Now, Log: log,
		Interval: opt.Tuning.FailInterval, StuckAfter: opt.Tuning.FailStuckAfter,
		Retry: func(r thread.RetryRequest) error {
			return pools.Submit(trigger.Request{JobID: r.JobID, Type: trigger.TypeRetry, FailRetryCount: r.FailRetryCount,
				ShardingParam: r.ShardingParam, ExecutorParam: r.ExecutorParam})
		},
		Alarm: func(ctx context.Context, job schema.JobInfo, group *schema.Group, l schema.JobLog) bool {
			return alarmer.Alarm(ctx, alarm.Event{Job: job, Group: group, Log: l})
		},
	})

	scheduler, err := schedule.New(schedule.Config{Store: store, Submit: pools,
		PreReadCount: preRead, Loc: time.Local,
		Log: log.With().Str("component", "schedule").Logger()})
	if err != nil {
		return parts{}, fmt.Errorf("schedule: %w", err)
	}

	return parts{
		client:    client,
		registrar: thread.NewRegistrar(store, opt.Now, log),
		completer: completer,
		components: []lifecycle.Component{
			pools,
			thread.NewRegistryMonitor(store, opt.Now, opt.Tuning.RegistryInterval, log),
			failMonitor,
			thread.NewLostMonitor(store, completer, texts, opt.Now, opt.Tuning.LostInterval, log),
			report.New(store, report.Config{Loc: time.Local, RetentionDays: cfg.LogRetentionDays,
				Interval: opt.Tuning.ReportInterval, Now: opt.Now, Log: log.With().Str("component", "report").Logger()}),
			scheduler,
		},
	}, nil
}
