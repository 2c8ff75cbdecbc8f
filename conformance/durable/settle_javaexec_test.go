package durable

import (
	"context"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/rs/zerolog"

	"github.com/xxl-admin-go/xxl-admin-go/compat/api"
	"github.com/xxl-admin-go/xxl-admin-go/compat/i18n"
	"github.com/xxl-admin-go/xxl-admin-go/compat/schema"
	"github.com/xxl-admin-go/xxl-admin-go/conformance/javaexec"
	"github.com/xxl-admin-go/xxl-admin-go/core/thread"
	"github.com/xxl-admin-go/xxl-admin-go/core/trigger"
	"github.com/xxl-admin-go/xxl-admin-go/internal/testsupport/testfactory"
)

// flowDoor runs each submitted trigger at once through the flow.
type flowDoor struct{ flow *trigger.Flow }

func (d flowDoor) Submit(req trigger.Request) error { return d.flow.Trigger(context.Background(), req) }

// TestSettleJavaExecutor holds the settlement of log rows an admin left
// without a result (no pending row) to what the real Java executors (2.4.2
// and 3.4.2) answer, counted by their run ledgers: a row whose run started
// is recognised by its log (/log); one whose /run waits queued behind a
// run of its job has no log yet and its executor is busy with the job
// (/idleBeat), so it is asked again and recognised once it started; one
// never sent is sent once, as a new trigger.
func TestSettleJavaExecutor(t *testing.T) {
	if os.Getenv(javaexec.EnvEnabled) != "1" {
		t.Skip("[suite-off] " + javaexec.EnvEnabled + "=1 runs the Java executors (make java)")
	}
	for _, version := range []string{"2.4.2", "3.4.2"} {
		t.Run(version, func(t *testing.T) { settleJava(t, version) })
	}
}

func settleJava(t *testing.T, version string) {
	ctx := context.Background()
	e, s, group := javaExecutorStore(t, version)
	slow := testfactory.Job(t, s, testfactory.JobOpts{Group: group.ID, Handler: "slowHandler", Param: schema.Ptr("2")})
	other := testfactory.Job(t, s, testfactory.JobOpts{Group: group.ID, Handler: "slowHandler", Param: schema.Ptr("0")})
	client := api.NewClient(api.ClientConfig{})
	t.Cleanup(client.CloseIdleConnections)
	durable := &trigger.Durable{Owner: "admin-b", Lease: time.Minute, SendLease: 2 * time.Minute}
	flow := trigger.NewFlow(trigger.FlowConfig{Store: s, Client: client, Texts: i18n.Load("en"), Log: zerolog.Nop(), Durable: durable})
	settler := thread.NewSettler(thread.SettlerConfig{Store: s, Trigger: flowDoor{flow}, Executor: client, Durable: durable,
		Texts: i18n.Load("en"), After: time.Minute, Log: zerolog.Nop()})

	// orphan writes a log row as an admin that stopped before storing its
	// trigger result leaves it, two minutes ago; sent delivers its /run.
	at := time.Now().Add(-2 * time.Minute).Truncate(time.Second)
	orphan := func(job schema.JobInfo, sent bool) int64 {
		t.Helper()
		id, err := s.LogSave(ctx, schema.JobLog{JobGroup: group.ID, JobID: job.ID, TriggerTime: &at})
		if err != nil {
			t.Fatal(err)
		}
		if sent {
			r := client.Run(ctx, e.Address(), api.TriggerParam{JobID: job.ID, ExecutorHandler: job.ExecutorHandler,
				ExecutorParams: job.ExecutorParam, ExecutorBlockStrategy: schema.Ptr("SERIAL_EXECUTION"), LogID: id,
				LogDateTime: at.UnixMilli(), GlueType: "BEAN", BroadcastTotal: 1})
			if !r.OK() {
				t.Fatalf("first /run of log %d: %+v", id, r)
			}
		}
		return id
	}
	code := func(id int64) (int, string) {
		t.Helper()
		l, err := s.LogLoad(ctx, id)
		if err != nil {
			t.Fatal(err)
		}
		return l.TriggerCode, deref(l.TriggerMsg)
	}

	running := orphan(slow, true) // starts at once and runs 2 s
	waitRun(t, e, running)
	queued := orphan(slow, true) // waits behind it in the job's queue
	never := orphan(other, false)
	if err := settler.Pass(ctx); err != nil {
		t.Fatal(err)
	}
	if c, msg := code(running); c != 200 || !strings.Contains(msg, "has the run's log") {
		t.Errorf("started: trigger_code %d, %q; want recognised", c, msg)
	}
	if c, _ := code(queued); c != 0 {
		t.Errorf("queued behind a run: trigger_code %d; want it asked again (its executor is busy with the job)", c)
	}
	if c, msg := code(never); c != 500 || !strings.Contains(msg, "sent once again") {
		t.Errorf("never sent: trigger_code %d, %q; want closed and sent again", c, msg)
	}
	waitRun(t, e, queued)
	if err := settler.Pass(ctx); err != nil {
		t.Fatal(err)
	}
	if c, msg := code(queued); c != 200 || !strings.Contains(msg, "has the run's log") {
		t.Errorf("queued, now started: trigger_code %d, %q; want recognised", c, msg)
	}

	// Every run is over within 2 × 2 s; then each ran once.
	deadline := time.Now().Add(30 * time.Second)
	for _, job := range []int{slow.ID, other.ID} {
		for !client.IdleBeat(ctx, e.Address(), api.IdleBeatParam{JobID: job}).OK() {
			if time.Now().After(deadline) {
				t.Fatalf("job %d still running or queued", job)
			}
			time.Sleep(100 * time.Millisecond)
		}
	}
	runs, err := e.Runs()
	if err != nil {
		t.Fatal(err)
	}
	ran := javaexec.CountRuns(runs)
	rows, _, err := s.LogPageList(ctx, 0, 10, schema.LogFilter{JobID: other.ID})
	if err != nil || len(rows) != 2 {
		t.Fatalf("rows of the never-sent job: %+v, %v; want the orphan and its new trigger", rows, err)
	}
	for _, r := range rows {
		want := 1
		if r.ID == never {
			want = 0
		}
		if ran[r.ID] != want {
			t.Errorf("log %d ran %d times at the %s executor, want %d (ledger %v)", r.ID, ran[r.ID], version, want, runs)
		}
	}
	for _, id := range []int64{running, queued} {
		if ran[id] != 1 {
			t.Errorf("log %d ran %d times at the %s executor, want 1 (ledger %v)", id, ran[id], version, runs)
		}
	}
}

func deref(p *string) string {
	if p == nil {
		return ""
	}
	return *p
}
