package trigger

import (
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/rs/zerolog"

	"github.com/xxl-admin-go/xxl-admin-go/compat/api"
	"github.com/xxl-admin-go/xxl-admin-go/compat/i18n"
	"github.com/xxl-admin-go/xxl-admin-go/compat/schema"
)

// Attack 2 (slow drip), the pool side: a trigger stuck on its executor for
// more than 500 ms sends the job's next triggers to the slow pool at once,
// so 40 jobs whose every trigger hangs cannot take the fast pool's workers
// and a healthy job still runs.
func TestAttackSlowDripStarvation(t *testing.T) {
	s := openSQLite(t)
	clock := &fakeClock{now: time.UnixMilli(60_000 * 29_000_000)}
	release := make(chan struct{})
	started := make(chan int, 1000)
	healthy := make(chan struct{}, 1)
	const bad = 40
	var badJobs []int
	for range bad {
		badJobs = append(badJobs, seedJob(t, s, jobSpec{addressList: schema.Ptr("http://hangs/")}).ID)
	}
	good := seedJob(t, s, jobSpec{addressList: schema.Ptr("http://works/")}).ID
	r := newPoolRig(t, s, PoolConfig{Now: clock.Now}, func(ctx context.Context, address string, p api.TriggerParam) api.ReturnT[string] {
		if address == "http://works/" {
			healthy <- struct{}{}
			return api.ReturnT[string]{Code: 200}
		}
		started <- p.JobID
		select {
		case <-release:
		case <-ctx.Done():
		}
		return api.ReturnT[string]{Code: 200}
	}, nil)
	p := r.pools
	t.Cleanup(func() { close(release) }) // before p.Stop (cleanups run in reverse)
	for _, id := range badJobs {
		if err := p.Submit(Request{JobID: id, Type: TypeCron, FailRetryCount: -1}); err != nil {
			t.Fatal(err)
		}
	}
	for range bad {
		<-started
	}
	clock.Advance(600 * time.Millisecond) // every bad trigger is now stuck
	if st := p.Stats(); st.Stuck != bad || st.Demoted != bad {
		t.Fatalf("stuck %d demoted %d, want %d", st.Stuck, st.Demoted, bad)
	}
	// Each bad job fires five more times: all of those go to the slow pool.
	for range 5 {
		for _, id := range badJobs {
			if err := p.Submit(Request{JobID: id, Type: TypeCron, FailRetryCount: -1}); err != nil {
				t.Fatal(err)
			}
		}
	}
	if err := p.Submit(Request{JobID: good, Type: TypeCron, FailRetryCount: -1}); err != nil {
		t.Fatal(err)
	}
	select {
	case <-healthy:
	case <-time.After(10 * time.Second): // a guard: the healthy job runs at once when it works
		t.Fatalf("the healthy job did not run beside %d hanging jobs: %+v", bad, p.Stats())
	}
	st := p.Stats()
	if st.Fast.Workers > bad+1 || st.SlowRouted != 5*bad {
		t.Errorf("fast senders %d (want at most %d), slow-routed %d (want %d)", st.Fast.Workers, bad+1, st.SlowRouted, 5*bad)
	}
}

// Attack 2 (slow drip), the flow side: the trigger ends at the call limit
// with a failed row (Java's stays at trigger_code 0 forever).
func TestAttackSlowDripTriggerFails(t *testing.T) {
	stop := make(chan struct{})
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.WriteHeader(200)
		w.(http.Flusher).Flush()
		for {
			select {
			case <-stop:
				return
			case <-r.Context().Done():
				return
			case <-time.After(20 * time.Millisecond):
				if _, err := io.WriteString(w, " "); err != nil {
					return
				}
				w.(http.Flusher).Flush()
			}
		}
	}))
	t.Cleanup(srv.Close)
	t.Cleanup(func() { close(stop) })
	s := openSQLite(t)
	client := api.NewClient(api.ClientConfig{CallLimit: 300 * time.Millisecond})
	t.Cleanup(client.CloseIdleConnections)
	flow := NewFlow(FlowConfig{Store: s, Client: client, Texts: i18n.Load("en"), AdminAddress: "10.0.0.2", Log: zerolog.Nop()})
	job := seedJob(t, s, jobSpec{addressList: schema.Ptr(srv.URL + "/")})
	if err := flow.Trigger(context.Background(), Request{JobID: job.ID, Type: TypeCron, FailRetryCount: -1}); err != nil {
		t.Fatal(err)
	}
	row := logsOf(t, s, job.ID)[0]
	if row.TriggerCode != 500 || !strings.Contains(str(row.TriggerMsg), "Read timed out (no complete answer within 300ms)") {
		t.Errorf("code %d msg %s", row.TriggerCode, str(row.TriggerMsg))
	}
}

// Attack 7 (executor replies stored as HTML): what a rogue executor
// answers, and the address it registered, are escaped in trigger_msg;
// Java's own markup stays.
func TestAttackExecutorReplyMarkup(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if strings.HasSuffix(r.URL.Path, "/beat") {
			_, _ = io.WriteString(w, `{"code":200,"msg":"<img src=x onerror=alert(2)>"}`)
			return
		}
		_, _ = io.WriteString(w, `{"code":500,"msg":"<script>alert(1)</script> & more"}`)
	}))
	t.Cleanup(srv.Close)
	s := openSQLite(t)
	flow, _ := newTestFlow(t, s, flowOpts{lang: "en"})
	address := srv.URL + "/<b>x</b>/"
	for _, route := range []string{"FIRST", "FAILOVER"} {
		job := seedJob(t, s, jobSpec{addressList: &address, route: route})
		if err := flow.Trigger(context.Background(), Request{JobID: job.ID, Type: TypeCron, FailRetryCount: -1}); err != nil {
			t.Fatal(err)
		}
		msg := str(logsOf(t, s, job.ID)[0].TriggerMsg)
		for _, bad := range []string{"<script", "<b>", "<img"} {
			if strings.Contains(msg, bad) {
				t.Errorf("%s: trigger_msg holds %q: %s", route, bad, msg)
			}
		}
		for _, want := range []string{
			"<br>msg：&lt;script&gt;alert(1)&lt;/script&gt; &amp; more",
			"address：" + srv.URL + "/&lt;b&gt;x&lt;/b&gt;/",
			`<span style="color:#00c0ef;" > >>>>>>>>>>>Trigger Job<<<<<<<<<<< </span><br>`,
			"Execotor-Registry Address：[" + srv.URL + "/&lt;b&gt;x&lt;/b&gt;/]<br>",
		} {
			if !strings.Contains(msg, want) {
				t.Errorf("%s: trigger_msg lacks %q: %s", route, want, msg)
			}
		}
		if route == "FAILOVER" && !strings.Contains(msg, "<br>msg：&lt;img src=x onerror=alert(2)&gt;<br><br>") {
			t.Errorf("beat answer not escaped: %s", msg)
		}
	}
}
