package thread

import (
	"context"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/rs/zerolog"

	"github.com/xxl-admin-go/xxl-admin-go/compat/api"
	"github.com/xxl-admin-go/xxl-admin-go/compat/i18n"
	"github.com/xxl-admin-go/xxl-admin-go/compat/schema"
	"github.com/xxl-admin-go/xxl-admin-go/core/clock"
	"github.com/xxl-admin-go/xxl-admin-go/core/trigger"
	"github.com/xxl-admin-go/xxl-admin-go/internal/testsupport/fakeexec"
	"github.com/xxl-admin-go/xxl-admin-go/internal/testsupport/storetest"
	"github.com/xxl-admin-go/xxl-admin-go/internal/testsupport/testfactory"
)

// settleGrace is the settlers' grace in these tests.
const settleGrace = time.Hour

// settleRig is one database, one executor, the jobs of each case and the
// admins' clock; rows are written as an admin that stopped between its
// log row and its /run (or its result) leaves them.
type settleRig struct {
	t      *testing.T
	s      *schema.Store
	exec   *fakeexec.Executor
	client *api.Client
	clock  *clock.Fake
	flow   *trigger.Flow
	group  schema.Group
}

func newSettleRig(t *testing.T, s *schema.Store) *settleRig {
	exec := fakeexec.Start(fakeexec.Config{})
	t.Cleanup(exec.Close)
	client := api.NewClient(api.ClientConfig{})
	t.Cleanup(client.CloseIdleConnections)
	group := testfactory.Group(t, s, testfactory.GroupOpts{AddressType: 1, AddressList: schema.Ptr(exec.Address())})
	live := &trigger.Durable{Owner: "admin-live", Lease: time.Minute, SendLease: 2 * time.Minute}
	flow := trigger.NewFlow(trigger.FlowConfig{Store: s, Client: client, Texts: i18n.Load("en"), Log: zerolog.Nop(), Durable: live})
	return &settleRig{t: t, s: s, exec: exec, client: client, clock: clock.NewFake(time.Now()), flow: flow, group: group}
}

func (r *settleRig) settler(owner string) *Settler {
	return NewSettler(SettlerConfig{Store: r.s, Trigger: syncDoor{r.flow}, Executor: r.client, Texts: i18n.Load("en"),
		Durable: &trigger.Durable{Owner: owner, Lease: time.Minute, SendLease: 2 * time.Minute, Now: r.clock.Now},
		After:   settleGrace, GiveUp: time.Hour, Now: r.clock.Now, Log: zerolog.Nop()})
}

// job stores a job of the rig's group.
func (r *settleRig) job(o testfactory.JobOpts) schema.JobInfo {
	o.Group, o.Handler = r.group.ID, "h"
	return testfactory.Job(r.t, r.s, o)
}

// orphan writes the row a trigger of job leaves when its admin stops
// before storing its result, triggered age ago by the rig's clock.
func (r *settleRig) orphan(job schema.JobInfo, age time.Duration) schema.JobLog {
	r.t.Helper()
	at := r.clock.Now().Add(-age).Truncate(time.Second)
	param := "p-" + job.JobDesc
	l := schema.JobLog{JobGroup: job.JobGroup, JobID: job.ID, TriggerTime: &at, ExecutorParam: &param,
		ExecutorFailRetryCount: job.ExecutorFailRetryCount}
	ids, err := r.s.LogSaveMany(context.Background(), []schema.JobLog{l})
	if err != nil {
		r.t.Fatal(err)
	}
	l.ID = ids[0]
	return l
}

// sent delivers the orphan's /run, as its admin did before it stopped.
func (r *settleRig) sent(l schema.JobLog) {
	r.t.Helper()
	res := r.client.Run(context.Background(), r.exec.Address(), api.TriggerParam{JobID: l.JobID, LogID: l.ID,
		LogDateTime: l.TriggerTime.UnixMilli(), GlueType: "BEAN", BroadcastTotal: 1})
	if !res.OK() {
		r.t.Fatalf("first /run: %+v", res)
	}
}

func (r *settleRig) pass(w *Settler) {
	r.t.Helper()
	if err := w.Pass(context.Background()); err != nil {
		r.t.Fatal(err)
	}
}

func (r *settleRig) log(id int64) schema.JobLog {
	r.t.Helper()
	l, err := r.s.LogLoad(context.Background(), id)
	if err != nil {
		r.t.Fatal(err)
	}
	return l
}

// rows are the job's log rows, oldest first.
func (r *settleRig) rows(job int) []schema.JobLog {
	r.t.Helper()
	rows, _, err := r.s.LogPageList(context.Background(), 0, 100, schema.LogFilter{JobID: job, NewestID: true})
	if err != nil {
		r.t.Fatal(err)
	}
	for i, j := 0, len(rows)-1; i < j; i, j = i+1, j-1 {
		rows[i], rows[j] = rows[j], rows[i]
	}
	return rows
}

func (r *settleRig) idle() {
	r.t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if !r.exec.WaitIdle(ctx) {
		r.t.Fatalf("the executor is still busy: %+v", r.exec.Ledger())
	}
}

// everySecond is a CRON schedule every moment is a planned fire of.
const everySecond = "* * * * * ?"

// TestSettleCases: each kind of row a crash leaves is settled as its
// case says, counted at the executor (runs started per log id).
func TestSettleCases(t *testing.T) {
	storetest.ForEach(t, func(t *testing.T, s *schema.Store) {
		r := newSettleRig(t, s)
		w := r.settler("admin-b")
		ctx := context.Background()
		old := 2 * settleGrace

		// Sent and started before its admin stopped: recognised through
		// /log, a running row at that executor; not sent again.
		manual := r.job(testfactory.JobOpts{Desc: "manual"})
		started := r.orphan(manual, old)
		r.sent(started)
		r.idle()

		// Never sent, a planned fire of a FIRE_ONCE_NOW job: sent once.
		once := r.job(testfactory.JobOpts{Desc: "once", ScheduleType: "CRON", ScheduleConf: everySecond,
			Misfire: "FIRE_ONCE_NOW", Status: 1, Retry: 2})
		onceRow := r.orphan(once, old)

		// Never sent, a planned fire of a DO_NOTHING job: not sent, closed
		// as failed without a retry.
		nothing := r.job(testfactory.JobOpts{Desc: "nothing", ScheduleType: "CRON", ScheduleConf: everySecond,
			Misfire: "DO_NOTHING", Status: 1, Retry: 2})
		nothingRow := r.orphan(nothing, old)

		// Never sent, a manual trigger of a job whose schedule has no fire
		// near it: sent once, with its param.
		rare := r.job(testfactory.JobOpts{Desc: "rare", ScheduleType: "CRON", ScheduleConf: "0 0 0 1 1 ? 2099",
			Misfire: "DO_NOTHING", Status: 1})
		rareRow := r.orphan(rare, old)

		// Covered by a pending trigger: the sweeper's, left alone.
		covered := r.orphan(manual, old)
		p := schema.PendingTrigger{Claim: trigger.NewClaim(), Owner: "admin-dead", LeaseUntil: r.clock.Now().Add(time.Hour),
			Stage: schema.PendingLogged, Kind: string(trigger.TypeRetry), JobID: manual.ID, SourceLogID: 1, FailRetryCount: 0,
			DecidedAt: r.clock.Now(), LogID: covered.ID, ShardTotal: 1}
		if err := s.PendingInsert(ctx, []schema.PendingTrigger{p}); err != nil {
			t.Fatal(err)
		}

		// A live admin's trigger within the grace: left alone.
		young := r.orphan(manual, settleGrace/2)

		r.pass(w)
		r.idle()

		if l := r.log(started.ID); l.TriggerCode != 200 || str(l.ExecutorAddress) != r.exec.Address() ||
			l.HandleCode != 0 || !strings.Contains(str(l.TriggerMsg), "has the run's log") {
			t.Errorf("sent and started: row %+v; want running at %s", l, r.exec.Address())
		}
		if n := r.exec.Entry(started.ID).Received; n != 1 {
			t.Errorf("sent and started: received %d times, want once", n)
		}

		for _, c := range []struct {
			name  string
			job   schema.JobInfo
			row   schema.JobLog
			retry int
		}{{"FIRE_ONCE_NOW", once, onceRow, 2}, {"manual", rare, rareRow, 0}} {
			l := r.log(c.row.ID)
			if l.TriggerCode != 500 || l.HandleCode != 500 || l.AlarmStatus != AlarmNotNeeded ||
				!strings.Contains(str(l.HandleMsg), "sent once again") {
				t.Errorf("%s: orphan %+v; want closed without an alarm, saying it was sent again", c.name, l)
			}
			rows := r.rows(c.job.ID)
			if len(rows) != 2 || rows[1].TriggerCode != 200 || r.exec.Entry(rows[1].ID).Started != 1 ||
				r.exec.Entry(c.row.ID).Received != 0 {
				t.Fatalf("%s: rows %+v, ledger %+v; want one new trigger, run once", c.name, rows, r.exec.Ledger())
			}
			n := rows[1]
			if !strings.Contains(str(n.TriggerMsg), i18n.Load("en").Text("jobconf_trigger_type_misfire")) ||
				str(n.ExecutorParam) != str(c.row.ExecutorParam) || n.ExecutorFailRetryCount != c.retry {
				t.Errorf("%s: new trigger %+v; want a misfire compensation with the orphan's param and retries", c.name, n)
			}
		}

		if l := r.log(nothingRow.ID); l.TriggerCode != 500 || l.HandleCode != 500 || l.AlarmStatus != 0 ||
			l.ExecutorFailRetryCount != 0 || str(l.HandleMsg) != i18n.Load("en").Text("joblog_lost_fail") ||
			!strings.Contains(str(l.TriggerMsg), "misfire strategy (DO_NOTHING)") {
			t.Errorf("DO_NOTHING: row %+v; want closed as failed for the fail monitor, no retry", l)
		}
		if rows := r.rows(nothing.ID); len(rows) != 1 {
			t.Errorf("DO_NOTHING: %d rows, want the orphan only", len(rows))
		}

		if l := r.log(covered.ID); l.TriggerCode != 0 || l.HandleCode != 0 {
			t.Errorf("covered by a pending trigger: row %+v; want it left to the sweeper", l)
		}
		if l := r.log(young.ID); l.TriggerCode != 0 || r.exec.Entry(young.ID).Received != 0 {
			t.Errorf("within the grace: row %+v; want it left alone", l)
		}
		pending, err := s.PendingExpired(ctx, time.UnixMilli(1<<62), 100)
		if err != nil || len(pending) != 1 || pending[0].LogID != covered.ID {
			t.Errorf("pending rows %+v (%v); want only the covered row's", pending, err)
		}

		// Past the grace the young row is settled too: a manual trigger,
		// never sent, sent once.
		r.clock.Advance(settleGrace)
		r.pass(w)
		r.idle()
		if l := r.log(young.ID); l.TriggerCode != 500 || !strings.Contains(str(l.HandleMsg), "sent once again") {
			t.Errorf("past the grace: row %+v; want it sent again", l)
		}
	})
}

// TestSettleUnknown: a row whose executor is busy with its job (a /run may
// wait queued behind a run) or does not answer is never sent blind: it is
// asked again at later passes, and closed as failed past GiveUp.
func TestSettleUnknown(t *testing.T) {
	storetest.ForEach(t, func(t *testing.T, s *schema.Store) {
		r := newSettleRig(t, s)
		w := r.settler("admin-b")
		job := r.job(testfactory.JobOpts{Desc: "queued"})
		first := r.orphan(job, settleGrace+time.Minute)
		r.exec.Hold(job.ID)
		queued := r.orphan(job, settleGrace+time.Minute)
		r.sent(first) // both /runs reached the executor, neither started
		r.sent(queued)
		r.pass(w)
		for _, l := range []schema.JobLog{first, queued} {
			if got := r.log(l.ID); got.TriggerCode != 0 {
				t.Fatalf("busy executor: row %+v settled; want it asked again", got)
			}
		}
		r.exec.Release(job.ID)
		r.idle()
		r.pass(w)
		for _, l := range []schema.JobLog{first, queued} {
			if got := r.log(l.ID); got.TriggerCode != 200 || r.exec.Entry(l.ID).Started != 1 {
				t.Errorf("once started: row %+v, ledger %+v; want recognised, run once", got, r.exec.Entry(l.ID))
			}
		}

		// An executor that does not answer: asked again, then given up.
		silent := testfactory.Group(t, s, testfactory.GroupOpts{AddressType: 1, AddressList: schema.Ptr("http://127.0.0.1:1/")})
		lost := testfactory.Job(t, s, testfactory.JobOpts{Group: silent.ID, Handler: "h"})
		row := r.orphan(lost, settleGrace+time.Minute)
		r.pass(w)
		if got := r.log(row.ID); got.TriggerCode != 0 {
			t.Fatalf("silent executor: row %+v settled before GiveUp", got)
		}
		r.clock.Advance(time.Hour)
		r.pass(w)
		if got := r.log(row.ID); got.TriggerCode != 500 || got.HandleCode != 500 || got.AlarmStatus != 0 ||
			!strings.Contains(str(got.TriggerMsg), "cannot be told") {
			t.Errorf("given up: row %+v; want closed as failed, saying why", got)
		}
	})
}

// TestSettlersRace: two admins settle the same rows at the same moment;
// each row is settled once — every never-sent trigger sent once, every
// sent one recognised, none run twice.
func TestSettlersRace(t *testing.T) {
	storetest.ForEach(t, func(t *testing.T, s *schema.Store) {
		r := newSettleRig(t, s)
		var orphans []schema.JobLog
		for i := range 20 {
			job := r.job(testfactory.JobOpts{})
			l := r.orphan(job, 2*settleGrace)
			if i%2 == 0 {
				r.sent(l)
			}
			orphans = append(orphans, l)
		}
		r.idle()
		a, b := r.settler("admin-a"), r.settler("admin-b")
		var wg sync.WaitGroup
		for _, w := range []*Settler{a, b} {
			wg.Go(func() {
				if err := w.Pass(context.Background()); err != nil {
					t.Error(err)
				}
			})
		}
		wg.Wait()
		r.idle()
		for i, l := range orphans {
			rows := r.rows(l.JobID)
			started := 0
			for _, row := range rows {
				started += r.exec.Entry(row.ID).Started
				if row.TriggerCode == 0 {
					t.Errorf("row %+v left without a result", row)
				}
			}
			want := 2 // never sent: the orphan, closed, and its new trigger
			if i%2 == 0 {
				want = 1 // sent: recognised
			}
			if len(rows) != want || started != 1 {
				t.Errorf("job %d: %d rows, %d runs started; want %d rows, one run", l.JobID, len(rows), started, want)
			}
		}
		if n, err := s.PendingCount(context.Background()); err != nil || n != 0 {
			t.Errorf("pending rows left: %d (%v)", n, err)
		}
	})
}

// TestSettlerLoop: started, the settler settles at once and then every
// interval until it is stopped.
func TestSettlerLoop(t *testing.T) {
	s := storetest.SQLite(t)
	r := newSettleRig(t, s)
	w := r.settler("admin-b")
	w.cfg.Interval = time.Millisecond
	done := make(chan struct{}, 1)
	w.passDone = func() {
		select {
		case done <- struct{}{}:
		default:
		}
	}
	row := r.orphan(r.job(testfactory.JobOpts{}), 2*settleGrace)
	if err := w.Start(context.Background()); err != nil {
		t.Fatal(err)
	}
	defer w.Stop()
	<-done // the first pass
	<-done // one that began after it: the row is settled by now
	if l := r.log(row.ID); l.TriggerCode == 0 {
		t.Fatalf("row %+v not settled by the running settler", l)
	}
	w.Stop()
	r.idle()
}

// TestPlannedFire tells planned fires from other triggers by trigger time.
func TestPlannedFire(t *testing.T) {
	w := NewSettler(SettlerConfig{Loc: time.UTC})
	at := func(s string) time.Time {
		v, err := time.Parse("2006-01-02 15:04:05.000", s)
		if err != nil {
			t.Fatal(err)
		}
		return v
	}
	next := at("2026-11-28 10:00:00.000").UnixMilli()
	cases := []struct {
		name, typ, conf, zone string
		next                  int64
		at                    string
		want                  bool
	}{
		{"cron on its second", "CRON", "0 0 10 * * ?", "", 0, "2026-11-28 10:00:00.000", true},
		{"cron, left late", "CRON", "0 0 10 * * ?", "", 0, "2026-11-28 10:00:04.200", true},
		{"cron, past the misfire bound", "CRON", "0 0 10 * * ?", "", 0, "2026-11-28 10:00:05.500", false},
		{"cron, before its second", "CRON", "0 0 10 * * ?", "", 0, "2026-11-28 09:59:59.000", false},
		{"cron in the job's zone", "CRON", "0 0 18 * * ?", "Asia/Shanghai", 0, "2026-11-28 10:00:01.000", true},
		{"cron in the admin's zone", "CRON", "0 0 18 * * ?", "", 0, "2026-11-28 10:00:01.000", false},
		{"fix rate on its chain", "FIX_RATE", "60", "", next, "2026-11-28 09:57:00.300", true},
		{"fix rate off its chain", "FIX_RATE", "60", "", next, "2026-11-28 09:57:30.000", false},
		{"fix rate without a chain", "FIX_RATE", "60", "", 0, "2026-11-28 09:57:00.000", false},
		{"fix rate of a few seconds", "FIX_RATE", "3", "", 0, "2026-11-28 09:57:01.000", true},
		{"no schedule", "NONE", "", "", 0, "2026-11-28 10:00:00.000", false},
	}
	for _, c := range cases {
		j := schema.JobInfo{ScheduleType: c.typ, ScheduleConf: &c.conf, TriggerNextTime: c.next}
		if c.zone != "" {
			j.ScheduleTimezone = &c.zone
		}
		if got := w.plannedFire(j, at(c.at)); got != c.want {
			t.Errorf("%s: plannedFire = %v, want %v", c.name, got, c.want)
		}
	}
}
