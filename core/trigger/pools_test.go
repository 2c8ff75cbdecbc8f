package trigger

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/rs/zerolog"

	"github.com/xxl-admin-go/xxl-admin-go/compat/api"
	"github.com/xxl-admin-go/xxl-admin-go/compat/i18n"
	"github.com/xxl-admin-go/xxl-admin-go/compat/schema"
)

// fakeClock is an injected admin clock.
type fakeClock struct {
	mu  sync.Mutex
	now time.Time
}

func (c *fakeClock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.now
}

func (c *fakeClock) Advance(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.now = c.now.Add(d)
}

// funcExecutor is an Executor whose /run is a function of the test; the
// probes succeed.
type funcExecutor func(ctx context.Context, address string, p api.TriggerParam) api.ReturnT[string]

func (f funcExecutor) Run(ctx context.Context, address string, p api.TriggerParam) api.ReturnT[string] {
	return f(ctx, address, p)
}
func (funcExecutor) Beat(context.Context, string) api.ReturnT[string] {
	return api.ReturnT[string]{Code: 200}
}
func (funcExecutor) IdleBeat(context.Context, string, api.IdleBeatParam) api.ReturnT[string] {
	return api.ReturnT[string]{Code: 200}
}

// poolRig is pools over a real Flow on SQLite whose executor is a function.
type poolRig struct {
	s     *schema.Store
	flow  *Flow
	pools *Pools
	log   *bytes.Buffer
}

func newPoolRig(t *testing.T, s *schema.Store, cfg PoolConfig, exec funcExecutor, tune func(*Pools)) *poolRig {
	t.Helper()
	var buf bytes.Buffer
	log := zerolog.New(&syncWriter{w: &buf}).Level(zerolog.InfoLevel)
	now := cfg.Now
	flow := NewFlow(FlowConfig{Store: s, Client: exec, Texts: i18n.Load("en"), AdminAddress: "10.0.0.2", Now: now, Log: log})
	cfg.Log = log
	p := NewPools(cfg, flow)
	if tune != nil {
		tune(p)
	}
	if err := p.Start(context.Background()); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(p.Stop)
	return &poolRig{s: s, flow: flow, pools: p, log: &buf}
}

type syncWriter struct {
	mu sync.Mutex
	w  *bytes.Buffer
}

func (w *syncWriter) Write(b []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.w.Write(b)
}

func (r *poolRig) logText() string {
	return r.log.String()
}

// counted sums a count over the summary lines.
func (r *poolRig) counted(t *testing.T, key string) int {
	t.Helper()
	n := 0
	for _, line := range strings.Split(strings.TrimSpace(r.logText()), "\n") {
		var m map[string]any
		if err := json.Unmarshal([]byte(line), &m); err != nil {
			t.Fatalf("log line %q: %v", line, err)
		}
		if v, ok := m[key].(float64); ok {
			n += int(v)
		}
	}
	return n
}

// openRows counts log rows still at trigger_code 0 (written but never
// finished).
func openRows(t *testing.T, s *schema.Store, jobIDs ...int) int {
	t.Helper()
	n := 0
	for _, id := range jobIDs {
		for _, r := range logsOf(t, s, id) {
			if r.TriggerCode == 0 {
				n++
			}
		}
	}
	return n
}

// TestPoolsDemotion: a job whose triggers took > 500 ms more than 10 times
// in the current minute goes to the slow pool until the minute ends
// (scheduler.md §4).
func TestPoolsDemotion(t *testing.T) {
	s := openSQLite(t)
	clock := &fakeClock{now: time.UnixMilli(60_000 * 29_000_000)} // a minute boundary
	var cost atomic.Int64
	cost.Store(int64(600 * time.Millisecond))
	done := make(chan int, 1)
	r := newPoolRig(t, s, PoolConfig{Now: clock.Now}, func(context.Context, string, api.TriggerParam) api.ReturnT[string] {
		clock.Advance(time.Duration(cost.Load()))
		return api.ReturnT[string]{Code: 200}
	}, func(p *Pools) { p.ran = func(job int) { done <- job } })
	p := r.pools
	job := seedJob(t, s, jobSpec{addressList: schema.Ptr("http://e/")}).ID
	other := seedJob(t, s, jobSpec{addressList: schema.Ptr("http://e/")}).ID
	trigger := func() {
		t.Helper()
		if err := p.Submit(Request{JobID: job, Type: TypeCron, FailRetryCount: -1}); err != nil {
			t.Fatal(err)
		}
		<-done
	}
	for i := 1; i <= 10; i++ {
		trigger()
	}
	if p.choose(job) != p.fast {
		t.Fatal("job demoted after 10 slow triggers; the rule is more than 10")
	}
	trigger() // the 11th slow trigger
	if p.choose(job) != p.slow || p.Stats().Demoted != 1 {
		t.Fatalf("job not demoted after 11 slow triggers: %+v", p.Stats())
	}
	if p.choose(other) != p.fast {
		t.Error("another job was demoted too")
	}
	trigger() // runs in the slow pool
	if st := p.Stats(); st.Slow.Workers != 1 {
		t.Errorf("slow pool has %d senders after a demoted trigger, want 1", st.Slow.Workers)
	}
	clock.Advance(time.Minute)
	if p.choose(job) != p.fast {
		t.Error("demotion outlived its minute")
	}
	// Fast triggers never count.
	cost.Store(int64(100 * time.Millisecond))
	for i := 0; i < 12; i++ {
		trigger()
	}
	if p.choose(job) != p.fast {
		t.Error("fast triggers demoted the job")
	}
}

// TestPoolsFull: a full queue refuses without blocking, returns ErrPoolFull
// and writes a failed log row naming the pool (scheduler.md §4 overflow,
// recorded instead of lost); a planned fire refused so misfires instead
// (counted, no row); the accepted triggers still run.
func TestPoolsFull(t *testing.T) {
	forEachBackend(t, func(t *testing.T, s *schema.Store) {
		release := make(chan struct{})
		started := make(chan struct{}, 10)
		var ran atomic.Int32
		r := newPoolRig(t, s, PoolConfig{FastMax: 1, QueueSize: 2}, func(context.Context, string, api.TriggerParam) api.ReturnT[string] {
			started <- struct{}{}
			<-release
			ran.Add(1)
			return api.ReturnT[string]{Code: 200}
		}, func(p *Pools) { p.aheadMin = 1 }) // one row prepared at a time
		p := r.pools
		job := seedJob(t, s, jobSpec{retry: 3, addressList: schema.Ptr("http://e/")})
		req := Request{JobID: job.ID, Type: TypeCron, FailRetryCount: -1}
		if err := p.Submit(req); err != nil {
			t.Fatal(err)
		}
		<-started // the only sender is busy now
		for i := 0; i < 2; i++ {
			if err := p.Submit(req); err != nil {
				t.Fatalf("submit %d into a free queue slot: %v", i, err)
			}
		}
		err := p.Submit(req)
		if !errors.Is(err, ErrPoolFull) {
			t.Fatalf("Submit into a full queue = %v, want ErrPoolFull", err)
		}
		// A planned fire with a misfire strategy misfires instead: no row.
		planned := Request{JobID: job.ID, Type: TypeCron, FailRetryCount: -1, At: time.Now(), Misfire: "DO_NOTHING"}
		if err := p.Submit(planned); !errors.Is(err, ErrPoolFull) {
			t.Fatalf("planned fire into a full queue = %v, want ErrPoolFull", err)
		}
		if st := p.Stats(); st.Rejected != 1 || st.Fast.Queued != 2 {
			t.Errorf("stats %+v", st)
		}
		close(release)
		p.Stop()
		if n := ran.Load(); n != 3 {
			t.Errorf("%d accepted triggers ran, want 3", n)
		}
		rows := logsOf(t, s, job.ID)
		var rejected []schema.JobLog
		for _, row := range rows {
			if row.TriggerCode == 500 {
				rejected = append(rejected, row)
			}
		}
		if len(rows) != 4 || len(rejected) != 1 {
			t.Fatalf("got %d log rows, %d failed; want 3 run and the one rejection row", len(rows), len(rejected))
		}
		msg := str(rejected[0].TriggerMsg)
		if rejected[0].ExecutorFailRetryCount != 3 ||
			!strings.HasSuffix(msg, "</span><br>Trigger rejected: the fast trigger pool is full (2 triggers queued); the job was not run.<br><br>") {
			t.Errorf("rejection row: retry %d msg %s", rejected[0].ExecutorFailRetryCount, msg)
		}
		if r.counted(t, "rejected_pool_full") != 1 || r.counted(t, "misfire_skipped") != 1 {
			t.Errorf("no summary line counting the rejection: %s", r.logText())
		}
	})
}

// TestPoolsStopDrains: Stop runs every queued trigger and writes every
// result before returning, and refuses new triggers afterwards.
func TestPoolsStopDrains(t *testing.T) {
	s := openSQLite(t)
	gate := make(chan struct{})
	var ran atomic.Int32
	r := newPoolRig(t, s, PoolConfig{FastMax: 4}, func(context.Context, string, api.TriggerParam) api.ReturnT[string] {
		<-gate
		ran.Add(1)
		return api.ReturnT[string]{Code: 200}
	}, nil)
	p := r.pools
	var ids []int
	for range 100 {
		job := seedJob(t, s, jobSpec{addressList: schema.Ptr("http://e/")})
		ids = append(ids, job.ID)
		if err := p.Submit(Request{JobID: job.ID, Type: TypeCron, FailRetryCount: -1}); err != nil {
			t.Fatal(err)
		}
	}
	close(gate)
	p.Stop()
	if n := ran.Load(); n != 100 {
		t.Errorf("%d of 100 queued triggers ran before Stop returned", n)
	}
	if w := p.Stats().Fast.Workers; w != 0 {
		t.Errorf("%d senders left after Stop", w)
	}
	for _, id := range ids {
		rows := logsOf(t, s, id)
		if len(rows) != 1 || rows[0].TriggerCode != 200 {
			t.Fatalf("job %d: rows %+v", id, rows)
		}
	}
	if err := p.Submit(Request{JobID: 1}); !errors.Is(err, ErrStopped) {
		t.Errorf("Submit after Stop = %v, want ErrStopped", err)
	}
}

// TestPoolsStopDeadline: a trigger still running at the drain deadline
// gets a cancelled context and its row is finished as failed; triggers
// still queued are dropped without rows and counted in the summary.
func TestPoolsStopDeadline(t *testing.T) {
	s := openSQLite(t)
	started := make(chan struct{}, 1)
	r := newPoolRig(t, s, PoolConfig{FastMax: 1, DrainTimeout: 20 * time.Millisecond},
		func(ctx context.Context, _ string, _ api.TriggerParam) api.ReturnT[string] {
			started <- struct{}{}
			<-ctx.Done()
			return api.ReturnT[string]{Code: 500, Msg: schema.Ptr("cancelled: " + ctx.Err().Error())}
		}, func(p *Pools) { p.aheadMin = 1 })
	var ids []int
	for range 5 {
		job := seedJob(t, s, jobSpec{addressList: schema.Ptr("http://e/")})
		ids = append(ids, job.ID)
		if err := r.pools.Submit(Request{JobID: job.ID, Type: TypeCron, FailRetryCount: -1}); err != nil {
			t.Fatal(err)
		}
	}
	<-started
	r.pools.Stop()
	var rows []schema.JobLog
	for _, id := range ids {
		rows = append(rows, logsOf(t, s, id)...)
	}
	if len(rows) != 1 || rows[0].TriggerCode != 500 || !strings.Contains(str(rows[0].TriggerMsg), "cancelled: context canceled") {
		t.Errorf("rows %+v, want the running trigger's row finished as failed", rows)
	}
	if r.counted(t, "dropped_at_stop") != 4 {
		t.Errorf("no summary of the 4 dropped triggers: %s", r.logText())
	}
}

// TestPoolsSurvivePanic: a trigger that panics is logged and swallowed like
// Java's caught exceptions (scheduler.md §4), its row is finished as a
// failed trigger, and the sender keeps serving.
func TestPoolsSurvivePanic(t *testing.T) {
	s := openSQLite(t)
	bad := seedJob(t, s, jobSpec{addressList: schema.Ptr("http://e/")})
	good := seedJob(t, s, jobSpec{addressList: schema.Ptr("http://e/")})
	done := make(chan int, 2)
	r := newPoolRig(t, s, PoolConfig{FastMax: 1}, func(_ context.Context, _ string, p api.TriggerParam) api.ReturnT[string] {
		if p.JobID == bad.ID {
			panic("boom <b>")
		}
		done <- p.JobID
		return api.ReturnT[string]{Code: 200}
	}, nil)
	for _, id := range []int{bad.ID, good.ID} {
		if err := r.pools.Submit(Request{JobID: id, Type: TypeCron, FailRetryCount: -1}); err != nil {
			t.Fatal(err)
		}
	}
	if got := <-done; got != good.ID {
		t.Errorf("ran job %d after the panic, want %d", got, good.ID)
	}
	r.pools.Stop()
	row := logsOf(t, s, bad.ID)[0]
	if row.TriggerCode != 500 || !strings.HasSuffix(str(row.TriggerMsg), "Trigger failed: internal error (boom &lt;b&gt;).<br><br>") {
		t.Errorf("panicked trigger's row: code %d msg %s", row.TriggerCode, str(row.TriggerMsg))
	}
}

// TestPoolsPrepareAhead: a schedule fire submitted before its time has its
// row written (trigger_time = the planned second) before that time, and
// its /run leaves at the planned time, not before.
func TestPoolsPrepareAhead(t *testing.T) {
	forEachBackend(t, func(t *testing.T, s *schema.Store) {
		type arrival struct {
			at  time.Time
			log int64
		}
		arrived := make(chan arrival, 1)
		preparedAt := make(chan time.Time, 1)
		r := newPoolRig(t, s, PoolConfig{}, func(_ context.Context, _ string, p api.TriggerParam) api.ReturnT[string] {
			arrived <- arrival{time.Now(), p.LogID}
			return api.ReturnT[string]{Code: 200}
		}, func(p *Pools) { p.prepared = func(int) { preparedAt <- time.Now() } })
		job := seedJob(t, s, jobSpec{addressList: schema.Ptr("http://e/")})
		at := time.Now().Add(time.Second).Truncate(time.Second)
		for time.Until(at) < PrepareLead { // leave the whole lead before the second
			at = at.Add(time.Second)
		}
		// Submitted when a schedule ring submits it: PrepareLead before.
		time.Sleep(time.Until(at.Add(-PrepareLead)))
		if err := r.pools.Submit(Request{JobID: job.ID, Type: TypeCron, FailRetryCount: -1, At: at, Misfire: "DO_NOTHING"}); err != nil {
			t.Fatal(err)
		}
		prep := <-preparedAt
		got := <-arrived
		if !prep.Before(at) {
			t.Errorf("rows written at %s, after the planned %s", prep.Format(time.StampMilli), at.Format(time.StampMilli))
		}
		if got.at.Before(at) {
			t.Errorf("/run arrived at %s, before the planned %s", got.at.Format(time.StampMilli), at.Format(time.StampMilli))
		}
		r.pools.Stop()
		row := logsOf(t, s, job.ID)[0]
		if row.ID != got.log || row.TriggerCode != 200 || !row.TriggerTime.Equal(at) {
			t.Errorf("row %d code %d trigger_time %s, want log %d, 200, %s", row.ID, row.TriggerCode, row.TriggerTime, got.log, at)
		}
	})
}

// TestPoolsMisfire: schedule fires the pool could not send within
// MisfireAfter of their time follow the job's misfire strategy instead of
// going out late: DO_NOTHING skips them (no row, no run), FIRE_ONCE_NOW
// fires once as a misfire trigger however many were missed; other
// triggers are never skipped. One summary line counts them.
func TestPoolsMisfire(t *testing.T) {
	s := openSQLite(t)
	var mu sync.Mutex
	runs := map[int]int{}
	r := newPoolRig(t, s, PoolConfig{}, func(_ context.Context, _ string, p api.TriggerParam) api.ReturnT[string] {
		mu.Lock()
		runs[p.JobID]++
		mu.Unlock()
		return api.ReturnT[string]{Code: 200}
	}, nil)
	skip := seedJob(t, s, jobSpec{addressList: schema.Ptr("http://e/")})
	once := seedJob(t, s, jobSpec{addressList: schema.Ptr("http://e/")})
	manual := seedJob(t, s, jobSpec{addressList: schema.Ptr("http://e/")})
	late := time.Now().Add(-MisfireAfter - time.Second)
	for i := range 3 {
		at := late.Add(-time.Duration(i) * time.Second)
		for _, req := range []Request{
			{JobID: skip.ID, Type: TypeCron, FailRetryCount: -1, At: at, Misfire: "DO_NOTHING"},
			{JobID: once.ID, Type: TypeCron, FailRetryCount: -1, At: at, Misfire: "FIRE_ONCE_NOW"},
			{JobID: manual.ID, Type: TypeManual, FailRetryCount: -1, At: at},
		} {
			if err := r.pools.Submit(req); err != nil {
				t.Fatal(err)
			}
		}
	}
	r.pools.Stop()
	if runs[skip.ID] != 0 || runs[once.ID] != 1 || runs[manual.ID] != 3 {
		t.Errorf("runs %v: want DO_NOTHING 0, FIRE_ONCE_NOW 1, manual 3", runs)
	}
	if rows := logsOf(t, s, once.ID); len(rows) != 1 || !strings.HasPrefix(str(rows[0].TriggerMsg), "Job trigger type：Misfire compensation trigger<br>") {
		t.Errorf("FIRE_ONCE_NOW rows %+v", rows)
	}
	if n := len(logsOf(t, s, skip.ID)); n != 0 {
		t.Errorf("DO_NOTHING misfires wrote %d rows", n)
	}
	if r.counted(t, "misfire_skipped") != 5 || r.counted(t, "misfire_fired_once") != 1 {
		t.Errorf("summary: %s", r.logText())
	}
}

// TestPoolsFailureLines: a second of failing triggers writes a few lines
// of their own and one summary line counting the rest, instead of a line
// per trigger; every row is finished.
func TestPoolsFailureLines(t *testing.T) {
	s := openSQLite(t)
	clock := &fakeClock{now: time.UnixMilli(60_000 * 29_000_000)} // one second for the whole test
	r := newPoolRig(t, s, PoolConfig{Now: clock.Now}, func(context.Context, string, api.TriggerParam) api.ReturnT[string] {
		return api.ReturnT[string]{Code: 500, Msg: schema.Ptr("executor says no")}
	}, nil)
	var ids []int
	for range 100 {
		job := seedJob(t, s, jobSpec{addressList: schema.Ptr("http://e/")})
		ids = append(ids, job.ID)
		if err := r.pools.Submit(Request{JobID: job.ID, Type: TypeCron, FailRetryCount: -1}); err != nil {
			t.Fatal(err)
		}
	}
	r.pools.Stop()
	log := r.logText()
	if n := strings.Count(log, `"message":"trigger finished"`); n != lineBudget {
		t.Errorf("%d per-trigger lines, want %d", n, lineBudget)
	}
	if r.counted(t, "failed_not_logged") != 90 {
		t.Errorf("no summary of the other 90: %s", log)
	}
	if n := openRows(t, s, ids...); n != 0 {
		t.Errorf("%d rows left at trigger_code 0", n)
	}
}
