package report

import (
	"context"
	"sync"
	"time"

	"github.com/rs/zerolog"

	"github.com/xxl-admin-go/xxl-admin-go/core/lifecycle"
)

// Defaults of the Java admin (scheduler.md §11) and of this port.
const (
	DefaultInterval = time.Minute
	// DefaultBatchSize is how many logs one retention DELETE removes, as in
	// Java. BenchmarkRetention on 1M logs: 1000 keeps a batch around 15-40 ms
	// (p99 < 250 ms) on SQLite and MariaDB; 5000 quadruples the time locks
	// are held without a faster total, 500 only adds statements.
	DefaultBatchSize = 1000
	// MinRetentionDays is the smallest xxl.job.logretentiondays that enables
	// cleanup (config.md §2.4).
	MinRetentionDays = 7
	cleanEvery       = 24 * time.Hour
	// cleanTimeout bounds one retention pass; a backlog not cleared in time
	// is continued on the next tick, batch by batch.
	cleanTimeout = time.Hour
)

// Config holds the reporter's settings; zero values mean the defaults.
type Config struct {
	Store         Store
	Loc           *time.Location   // admin zone for day boundaries (scheduler.md §13); nil = time.Local
	RetentionDays int              // xxl.job.logretentiondays; below 7 disables cleanup
	Interval      time.Duration    // between passes; 0 = one minute
	BatchSize     int              // logs per retention delete; 0 = DefaultBatchSize
	Now           func() time.Time // clock; nil = time.Now
	Log           zerolog.Logger
	Observer      Observer // nil: none
}

// Observer sees the reporter's database work (metrics): each refresh's and
// each cleanup's duration, as monitors "report" and "retention", and the
// logs retention deleted.
type Observer interface {
	MonitorPass(monitor string, took time.Duration)
	RetentionDeleted(n int)
}

// Reporter refreshes the log report and applies log retention, each in its
// own loop so a long cleanup never delays the dashboard figures.
type Reporter struct {
	lifecycle.Base
	store     Store
	loc       *time.Location
	retention int
	interval  time.Duration
	batch     int
	now       func() time.Time
	log       zerolog.Logger
	obs       Observer

	tallyMu sync.Mutex // one refresh at a time; guards tally
	tally   tally

	cleanMu   sync.Mutex // one cleanup at a time; guards lastClean
	lastClean time.Time  // memory only: every start cleans once (scheduler.md §11)
	noRest    bool       // no pause between batches (benchmark comparison)
	// clock times a cleanup and paces its progress lines (time.Now; the
	// configured Now is the day's clock, fixed in tests).
	clock func() time.Time

	// Test hooks, set before Start.
	afterPass  func(duty string, err error)
	afterBatch func(n int, took time.Duration)
}

// New creates a reporter on store.
func New(cfg Config) *Reporter {
	store := cfg.Store
	r := &Reporter{
		store:     store,
		loc:       cfg.Loc,
		retention: cfg.RetentionDays,
		interval:  cfg.Interval,
		batch:     cfg.BatchSize,
		now:       cfg.Now,
		log:       cfg.Log.With().Str("component", "log-report").Logger(),
		obs:       cfg.Observer,
		clock:     time.Now,
	}
	if r.loc == nil {
		r.loc = time.Local
	}
	if r.interval <= 0 {
		r.interval = DefaultInterval
	}
	if r.batch <= 0 {
		r.batch = DefaultBatchSize
	}
	if r.now == nil {
		r.now = time.Now
	}
	if r.retention < MinRetentionDays {
		r.retention = 0
	}
	return r
}

// Start runs the first refresh (and, when enabled, the first cleanup) at
// once, then every interval, until Stop.
func (r *Reporter) Start(ctx context.Context) error {
	if _, err := r.StartBase(ctx); err != nil {
		return err
	}
	r.Go(func(ctx context.Context) {
		o := lifecycle.Outage{What: "log report refresh", Log: r.log}
		lifecycle.Loop(ctx, r.interval, max(r.interval, time.Minute), func(runCtx context.Context) {
			start := time.Now()
			err := r.RefreshNow(runCtx)
			if r.obs != nil {
				r.obs.MonitorPass("report", time.Since(start))
			}
			o.Observe(ctx, err)
			r.passDone("refresh", err)
		})
	})
	if r.retention > 0 {
		r.Go(func(ctx context.Context) {
			o := lifecycle.Outage{What: "log retention cleanup", Log: r.log}
			lifecycle.Loop(ctx, r.interval, cleanTimeout, func(runCtx context.Context) {
				err := r.cleanIfDue(runCtx)
				o.Observe(ctx, err)
				r.passDone("retention", err)
			})
		})
	}
	return nil
}

func (r *Reporter) passDone(duty string, err error) {
	if r.afterPass != nil {
		r.afterPass(duty, err)
	}
}
