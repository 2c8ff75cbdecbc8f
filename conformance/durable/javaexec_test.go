package durable

import (
	"context"
	"os"
	"slices"
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
	"github.com/xxl-admin-go/xxl-admin-go/internal/testsupport/storetest"
	"github.com/xxl-admin-go/xxl-admin-go/internal/testsupport/testfactory"
)

// TestTakeoverJavaExecutor holds the takeover of a trigger whose /run may
// have been sent to what the real Java executors (2.4.2 and 3.4.2) do,
// counted by their run ledgers: one whose run started is recognised by its
// log (/log) and not sent again; one queued behind another run of its job
// is sent again and refused as a repeat ("repeate trigger job" in 2.x,
// "repeat trigger job" in 3.x), so it runs once; one never sent runs once.
func TestTakeoverJavaExecutor(t *testing.T) {
	if os.Getenv(javaexec.EnvEnabled) != "1" {
		t.Skip("[suite-off] " + javaexec.EnvEnabled + "=1 runs the Java executors (make java)")
	}
	for _, version := range []string{"2.4.2", "3.4.2"} {
		t.Run(version, func(t *testing.T) { takeoverJava(t, version) })
	}
}

// javaExecutorStore starts a Java executor of version whose admin address
// nobody listens at (registrations and callbacks fail, the runs still
// happen) and a SQLite store with a manual group holding its address.
func javaExecutorStore(t *testing.T, version string) (*javaexec.Executor, *schema.Store, schema.Group) {
	t.Helper()
	port, err := javaexec.FreePort()
	if err != nil {
		t.Fatal(err)
	}
	e, err := javaexec.Start(context.Background(), javaexec.Options{Version: version, AdminAddress: "http://127.0.0.1:1/xxl-job-admin",
		Port: port, LogDir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = e.Kill() })
	s := storetest.SQLite(t)
	group := testfactory.Group(t, s, testfactory.GroupOpts{AddressType: 1, AddressList: schema.Ptr(e.Address())})
	return e, s, group
}

func takeoverJava(t *testing.T, version string) {
	ctx := context.Background()
	e, s, group := javaExecutorStore(t, version)
	job := testfactory.Job(t, s, testfactory.JobOpts{Group: group.ID, Handler: "slowHandler", Param: schema.Ptr("2")})
	client := api.NewClient(api.ClientConfig{})
	t.Cleanup(client.CloseIdleConnections)
	live := &trigger.Durable{Owner: "admin-live", Lease: time.Minute, SendLease: 2 * time.Minute}
	flow := trigger.NewFlow(trigger.FlowConfig{Store: s, Client: client, Texts: i18n.Load("en"), Log: zerolog.Nop(), Durable: live})
	sweeper := thread.NewSweeper(thread.SweeperConfig{Store: s, Flow: flow, Executor: client, Durable: live, Log: zerolog.Nop()})

	// left writes a log row and its pending row, being sent to the
	// executor, as an admin that stopped during the /run leaves them; sent
	// delivers that /run first.
	left := func(sent bool) int64 {
		t.Helper()
		at := time.Now().Truncate(time.Second)
		id, err := s.LogSave(ctx, schema.JobLog{JobGroup: group.ID, JobID: job.ID, TriggerTime: &at})
		if err != nil {
			t.Fatal(err)
		}
		p := schema.PendingTrigger{Claim: trigger.NewClaim(), Owner: "admin-gone", LeaseUntil: time.Now().Add(-time.Second),
			Stage: schema.PendingSending, Kind: string(trigger.TypeParent), JobID: job.ID, SourceLogID: id, FailRetryCount: -1,
			DecidedAt: time.Now(), LogID: id, ShardTotal: 1, ExecutorAddress: e.Address()}
		if err := s.PendingInsert(ctx, []schema.PendingTrigger{p}); err != nil {
			t.Fatal(err)
		}
		if sent {
			r := client.Run(ctx, e.Address(), api.TriggerParam{JobID: job.ID, ExecutorHandler: schema.Ptr("slowHandler"),
				ExecutorParams: schema.Ptr("2"), ExecutorBlockStrategy: schema.Ptr("SERIAL_EXECUTION"), LogID: id,
				LogDateTime: at.UnixMilli(), GlueType: "BEAN", BroadcastTotal: 1})
			if !r.OK() {
				t.Fatalf("first /run of log %d: %+v", id, r)
			}
		}
		return id
	}

	running := left(true) // starts at once and runs 2 s
	waitRun(t, e, running)
	queued := left(true) // waits behind it in the job's queue
	never := left(false)
	if err := sweeper.Pass(ctx); err != nil {
		t.Fatal(err)
	}
	for id, want := range map[int64]string{running: "has the run's log", queued: "already holds this run", never: "code：200"} {
		l, err := s.LogLoad(ctx, id)
		if err != nil {
			t.Fatal(err)
		}
		if l.TriggerCode != 200 || !strings.Contains(*l.TriggerMsg, want) {
			t.Errorf("log %d: trigger_code %d, trigger_msg %q; want 200 with %q", id, l.TriggerCode, *l.TriggerMsg, want)
		}
	}
	// Every run is over within 3 × 2 s; then each ran once.
	deadline := time.Now().Add(30 * time.Second)
	for {
		r := client.IdleBeat(ctx, e.Address(), api.IdleBeatParam{JobID: job.ID})
		if r.OK() {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("job still running or queued: %s", r.MsgText())
		}
		time.Sleep(100 * time.Millisecond)
	}
	runs, err := e.Runs()
	if err != nil {
		t.Fatal(err)
	}
	ran := javaexec.CountRuns(runs)
	for _, id := range []int64{running, queued, never} {
		if ran[id] != 1 {
			t.Errorf("log %d ran %d times at the %s executor, want 1 (ledger %v)", id, ran[id], version, runs)
		}
	}
	if n, err := s.PendingCount(ctx); err != nil || n != 0 {
		t.Errorf("pending rows left: %d, %v", n, err)
	}
}

// waitRun waits until the executor's ledger shows the log id's run.
func waitRun(t *testing.T, e *javaexec.Executor, id int64) {
	t.Helper()
	deadline := time.Now().Add(20 * time.Second)
	for {
		runs, err := e.Runs()
		if err != nil {
			t.Fatal(err)
		}
		if slices.ContainsFunc(runs, func(r javaexec.Run) bool { return r.LogID == id }) {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("log %d never started (ledger %v)", id, runs)
		}
		time.Sleep(20 * time.Millisecond)
	}
}
