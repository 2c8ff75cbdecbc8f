package trigger

import (
	"context"
	"testing"
	"time"

	"github.com/rs/zerolog"

	"github.com/xxl-admin-go/xxl-admin-go/compat/api"
	"github.com/xxl-admin-go/xxl-admin-go/compat/i18n"
	"github.com/xxl-admin-go/xxl-admin-go/compat/schema"
	"github.com/xxl-admin-go/xxl-admin-go/core/route"
)

// zeroRand starts every round-robin counter at 0.
type zeroRand struct{}

func (zeroRand) IntN(int) int { return 0 }

// TestTriggerMsgCacheFollowsChanges: a Flow that reuses each job's last
// trigger_msg writes, after every change of what the message shows, the
// text a Flow without the cache renders — the executor's answer, the
// job's and the group's settings, the trigger's type and overrides, the
// shard — and the same text again when the change is undone. Both
// layouts; each step changes one thing, so that a key member the cache
// ignored would fail a step.
func TestTriggerMsgCacheFollowsChanges(t *testing.T) {
	for _, layout := range []Layout{Layout242, Layout342} {
		t.Run(map[Layout]string{Layout242: "242", Layout342: "342"}[layout], func(t *testing.T) {
			forEachBackend(t, func(t *testing.T, s *schema.Store) {
				testMsgCache(t, s, layout)
			})
		})
	}
}

func testMsgCache(t *testing.T, s *schema.Store, layout Layout) {
	ctx := context.Background()
	exec, other := newFakeExecutor(t), newFakeExecutor(t)
	job := seedJob(t, s, jobSpec{addressList: schema.Ptr(exec.address()), param: schema.Ptr("p1")})
	texts := i18n.Load("zh_CN")
	if layout == Layout342 {
		texts = i18n.LoadFor(3, "zh_CN")
	}
	// The clock moves a group TTL per step, so both flows reload the
	// group; their round-robin counters start alike.
	now := testNow(s)
	newFlow := func() *Flow {
		client := api.NewClient(api.ClientConfig{})
		t.Cleanup(client.CloseIdleConnections)
		return NewFlow(FlowConfig{Store: s, Client: client, Texts: texts, Layout: layout, AdminAddress: "10.0.0.2",
			Routes: route.NewRegistry(route.Config{Text: texts.Text, Rand: zeroRand{}}),
			Now:    func() time.Time { return now }, Log: zerolog.Nop()})
	}
	cached, uncached := newFlow(), newFlow()
	uncached.msgs = nil
	updateJob := func(change func(j *schema.JobInfo)) func() {
		return func() {
			j, err := s.JobLoad(ctx, job.ID)
			if err != nil {
				t.Fatal(err)
			}
			change(&j)
			if _, err := s.JobUpdate(ctx, j); err != nil {
				t.Fatal(err)
			}
		}
	}
	setAddresses := func(list *string) func() {
		return func() {
			if err := s.GroupUpdateAddressList(ctx, job.JobGroup, list, now); err != nil {
				t.Fatal(err)
			}
		}
	}
	base := Request{JobID: job.ID, Type: TypeCron, FailRetryCount: -1}
	steps := []struct {
		name   string
		change func()
		req    Request
	}{
		{"first", nil, base},
		{"again", nil, base},
		{"answer fails", func() { exec.answerRuns(`{"code":500,"msg":"boom"}`) }, base},
		{"answer's msg", func() { exec.answerRuns(`{"code":500,"msg":"bang"}`) }, base},
		{"answer's code", func() { exec.answerRuns(`{"code":501,"msg":"bang"}`) }, base},
		{"answer succeeds with a msg", func() { exec.answerRuns(`{"code":200,"msg":"ok"}`) }, base},
		{"answer's msg empty", func() { exec.answerRuns(`{"code":200,"msg":""}`) }, base},
		{"answer's msg null", func() { exec.answerRuns(`{"code":200}`) }, base},
		{"param", updateJob(func(j *schema.JobInfo) { j.ExecutorParam = schema.Ptr("p2") }), base},
		{"empty param", updateJob(func(j *schema.JobInfo) { j.ExecutorParam = schema.Ptr("") }), base},
		{"no param", updateJob(func(j *schema.JobInfo) { j.ExecutorParam = nil }), base},
		{"handler", updateJob(func(j *schema.JobInfo) { j.ExecutorHandler = schema.Ptr("otherHandler") }), base},
		{"blank handler", updateJob(func(j *schema.JobInfo) { j.ExecutorHandler = schema.Ptr(" ") }), base},
		{"timeout", updateJob(func(j *schema.JobInfo) { j.ExecutorTimeout = 7 }), base},
		{"retries", updateJob(func(j *schema.JobInfo) { j.ExecutorFailRetryCount = 2 }), base},
		{"block strategy", updateJob(func(j *schema.JobInfo) { j.ExecutorBlockStrategy = schema.Ptr("COVER_EARLY") }), base},
		{"route", updateJob(func(j *schema.JobInfo) { j.ExecutorRouteStrategy = schema.Ptr("LAST") }), base},
		{"route back", updateJob(func(j *schema.JobInfo) { j.ExecutorRouteStrategy = schema.Ptr("FIRST") }), base},
		{"address type", func() {
			g, err := s.GroupLoad(ctx, job.JobGroup)
			if err != nil {
				t.Fatal(err)
			}
			g.AddressType = 1
			if _, err := s.GroupUpdate(ctx, g); err != nil {
				t.Fatal(err)
			}
		}, base},
		{"trigger type", nil, Request{JobID: job.ID, Type: TypeManual, FailRetryCount: -1}},
		{"retry count of the request", nil, Request{JobID: job.ID, Type: TypeRetry, FailRetryCount: 1}},
		{"param override", nil, Request{JobID: job.ID, Type: TypeCron, FailRetryCount: -1, ExecutorParam: schema.Ptr("o")}},
		{"addresses", setAddresses(schema.Ptr(exec.address() + "," + other.address())), base},
		{"an address not routed to", setAddresses(schema.Ptr(exec.address() + "," + other.address() + "x")), base},
		{"round robin", func() {
			setAddresses(schema.Ptr(exec.address() + "," + other.address()))()
			updateJob(func(j *schema.JobInfo) { j.ExecutorRouteStrategy = schema.Ptr("ROUND") })()
		}, base},
		{"round robin's next address", nil, base},
		{"round robin's next address again", nil, base},
		{"empty address list", setAddresses(schema.Ptr(",,")), base},
		{"no address list", setAddresses(nil), base},
		{"run-once addresses", nil, Request{JobID: job.ID, Type: TypeManual, FailRetryCount: -1, AddressList: exec.address()}},
		{"broadcast", func() {
			setAddresses(schema.Ptr(exec.address() + "," + other.address()))()
			updateJob(func(j *schema.JobInfo) { j.ExecutorRouteStrategy = schema.Ptr("SHARDING_BROADCAST") })()
		}, base},
		{"broadcast to one address twice", setAddresses(schema.Ptr(exec.address() + "," + exec.address())), base},
		{"broadcast shard override", nil, Request{JobID: job.ID, Type: TypeRetry, FailRetryCount: 0, ShardingParam: "1/2"}},
		{"unknown route", updateJob(func(j *schema.JobInfo) { j.ExecutorRouteStrategy = schema.Ptr("NO_SUCH") }), base},
	}
	// The rows a trigger writes (a broadcast writes several).
	trigger := func(f *Flow, req Request) []schema.JobLog {
		before := len(logsOf(t, s, job.ID))
		if err := f.Trigger(ctx, req); err != nil {
			t.Fatal(err)
		}
		return logsOf(t, s, job.ID)[before:]
	}
	for _, st := range steps {
		now = now.Add(groupTTL)
		if st.change != nil {
			st.change()
		}
		got, want := trigger(cached, st.req), trigger(uncached, st.req)
		if len(got) != len(want) {
			t.Fatalf("%s: %d rows, without the cache %d", st.name, len(got), len(want))
		}
		for i := range got {
			if str(got[i].TriggerMsg) != str(want[i].TriggerMsg) {
				t.Errorf("%s, row %d: trigger_msg of the cached flow\n got: %s\nwant: %s", st.name, i, str(got[i].TriggerMsg), str(want[i].TriggerMsg))
			}
		}
	}
}
