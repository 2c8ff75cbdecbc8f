package trigger

import (
	"context"
	"fmt"
	"time"

	"github.com/rs/zerolog"

	"github.com/xxl-admin-go/xxl-admin-go/compat/api"
	"github.com/xxl-admin-go/xxl-admin-go/compat/i18n"
	"github.com/xxl-admin-go/xxl-admin-go/compat/schema"
	"github.com/xxl-admin-go/xxl-admin-go/core/route"
)

// Executor is the part of the executor client the flow uses: /run for the
// trigger, /beat and /idleBeat for the FAILOVER and BUSYOVER probes.
// *api.Client satisfies it.
type Executor interface {
	Run(ctx context.Context, address string, p api.TriggerParam) api.ReturnT[string]
	Beat(ctx context.Context, address string) api.ReturnT[string]
	IdleBeat(ctx context.Context, address string, p api.IdleBeatParam) api.ReturnT[string]
}

// FlowConfig holds a Flow's dependencies.
type FlowConfig struct {
	Store  *schema.Store
	Client Executor
	// Routes holds the route strategies (one per process, routing.md
	// §1.9). Nil builds one probing through Client and titled by Texts.
	Routes *route.Registry
	// Texts is the configured i18n bundle; trigger_msg is written in it.
	// Nil means zh_CN, the Java default (scheduler.md §12).
	Texts Texts
	// AdminAddress is printed as the trigger machine address. Java prints
	// IpUtil.getIp() — the host IP without port (scheduler.md §6); empty
	// computes that with MachineIP.
	AdminAddress string
	// Layout is the trigger_msg layout: Layout242 (the zero value) or
	// Layout342, the admin that owns the database (app chooses by its
	// generation). Layout342 also words the FAILOVER and BUSYOVER probe
	// failures as the 3.4.2 admin does when Routes is nil.
	Layout Layout
	// Now is the clock of trigger_time and logDateTime; default time.Now.
	Now func() time.Time
	Log zerolog.Logger
	// Observer sees every trigger's outcome; nil means none.
	Observer Observer
	// Durable holds the leases of durable triggers (Request.Pending); nil
	// takes DefaultLease and DefaultSendLease.
	Durable *Durable
}

// Flow runs triggers (XxlJobTrigger.trigger) in three stages, each for many
// triggers at once where the pools hand it many: prepare (the jobs loaded
// in one statement, the log rows written in one), fire (route and /run,
// one trigger at a time) and record (the results written in one
// statement). It is safe for concurrent use.
type Flow struct {
	store  *schema.Store
	client Executor
	routes *route.Registry
	texts  Texts
	layout Layout
	admin  string
	now    func() time.Time
	log    zerolog.Logger
	groups *groupCache
	msgs   *msgCache // nil renders every trigger_msg (tests' reference)
	obs    Observer
	tally  *tally
	stats  writeStats
	leases *leases // of durable triggers (Request.Pending)
}

// NewFlow builds a Flow.
func NewFlow(cfg FlowConfig) *Flow {
	f := &Flow{
		store:  cfg.Store,
		client: cfg.Client,
		routes: cfg.Routes,
		texts:  cfg.Texts,
		layout: cfg.Layout,
		admin:  cfg.AdminAddress,
		now:    cfg.Now,
		log:    cfg.Log.With().Str("component", "trigger").Logger(),
		obs:    cfg.Observer,
		leases: newLeases(cfg.Durable, cfg.Store),
	}
	if f.texts == nil {
		f.texts = i18n.Load("zh_CN")
	}
	if f.now == nil {
		f.now = time.Now
	}
	if f.admin == "" {
		f.admin = MachineIP()
	}
	if f.routes == nil {
		f.routes = route.NewRegistry(route.Config{Prober: newProber(cfg.Client, f.layout), Text: f.texts.Text})
	}
	f.groups = newGroupCache(cfg.Store, f.now)
	f.msgs = &msgCache{}
	f.tally = newTally(f.now)
	return f
}

// observe reports a trigger's outcome to the observer, if any.
func (f *Flow) observe(typ Type, result string) {
	if f.obs != nil {
		f.obs.Triggered(typ, result)
	}
}

// WriteStats reports how many log rows were written (inserted or updated)
// and in how many statements, for the benchmarks.
func (f *Flow) WriteStats() (rows, statements int64) { return f.stats.load() }

// Trigger runs one trigger at once and waits for it: one log row and one
// /run per target, or one per registered address for SHARDING_BROADCAST
// (scheduler.md §5). Executor failures end up in the log rows; the error
// is only for the database. The pools run the same stages for many
// triggers at a time.
func (f *Flow) Trigger(ctx context.Context, req Request) error {
	fired, err := f.prepare(ctx, []Request{req})
	if err != nil {
		return fmt.Errorf("trigger job %d: %w", req.JobID, err)
	}
	// Shards run one after another, as in Java; their log ids ascend with
	// the shard index.
	outs := make([]outcome, 0, len(fired))
	for _, fr := range fired {
		outs = append(outs, f.fire(ctx, fr))
	}
	fctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), finishTimeout)
	defer cancel()
	if err := f.record(fctx, outs); err != nil {
		return fmt.Errorf("trigger job %d: %w", req.JobID, err)
	}
	return nil
}
