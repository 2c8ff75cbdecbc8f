package live

import (
	"context"
	"fmt"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/xxl-admin-go/xxl-admin-go/app"
	"github.com/xxl-admin-go/xxl-admin-go/compat/schema"
	"github.com/xxl-admin-go/xxl-admin-go/conformance/javaexec"
	"github.com/xxl-admin-go/xxl-admin-go/core/trigger"
	"github.com/xxl-admin-go/xxl-admin-go/internal/testsupport/admintest"
)

const (
	// scheduledRuns is how many planned fires each run checks.
	scheduledRuns = 4
	// scheduledStep is the job's FIX_RATE period in seconds.
	scheduledStep = 2
	// scheduledLate is the most a trigger_time may trail its planned
	// second: the ring fires at the whole second, the trigger flow writes
	// trigger_time (whole seconds) when it starts.
	scheduledLate = time.Second
)

// TestLiveScheduledRuns fires a FIX_RATE 2 s job through our scheduler —
// schedule loop, time ring, trigger pools, route, /run — to every Java
// executor version and counts what ran: N planned seconds give exactly N
// log rows, one per planned second, 2 s apart, each at most 1 s late, each
// run by the executor (success callback) exactly once, as its run ledger
// shows (scheduler.md §2, §3, §5).
//
// The mutation subtests prove the check can fail: a schedule door that
// doubles every fire, or drops one, must be reported. Mutants of the /run
// client and of the trigger pools' door are run against this test by
// scripts/mutants (make mutants).
func TestLiveScheduledRuns(t *testing.T) {
	requireJava(t)
	for _, p := range pairings() {
		t.Run(p.String(), func(t *testing.T) {
			t.Parallel()
			runs := scheduleRuns(t, p, nil)
			for _, problem := range runs.problems() {
				t.Error(problem)
			}
			t.Logf("%s: %s", p, runs.summary())
		})
	}
	mutations := []struct {
		name string
		door func(trigger.Submitter) trigger.Submitter
		want string
	}{
		{"doubled", func(s trigger.Submitter) trigger.Submitter { return &mutant{next: s, double: true} }, "runs for"},
		{"dropped", func(s trigger.Submitter) trigger.Submitter { return &mutant{next: s, drop: 2} }, "runs for"},
	}
	for _, m := range mutations {
		t.Run("mutation/"+m.name, func(t *testing.T) {
			t.Parallel()
			runs := scheduleRuns(t, pairing{"2.4.2", admin2x}, m.door)
			problems := runs.problems()
			t.Logf("%s scheduler: %s; the check reports %q", m.name, runs.summary(), problems)
			if len(problems) == 0 || !strings.Contains(strings.Join(problems, "\n"), m.want) {
				t.Errorf("a %s fire went unnoticed: problems %q", m.name, problems)
			}
		})
	}
}

// mutant is a broken scheduler's trigger door: it submits every schedule
// fire twice, or drops the drop-th one.
type mutant struct {
	next   trigger.Submitter
	double bool
	drop   int

	mu sync.Mutex
	n  int
}

func (m *mutant) Submit(req trigger.Request) error {
	if req.Type == trigger.TypeCron {
		m.mu.Lock()
		m.n++
		n := m.n
		m.mu.Unlock()
		if n == m.drop {
			return nil
		}
		if m.double {
			if err := m.next.Submit(req); err != nil {
				return err
			}
		}
	}
	return m.next.Submit(req)
}

// runs is what one scheduled run produced.
type runs struct {
	first time.Time
	rows  []schema.JobLog // log rows whose trigger_time is before the (N+1)-th planned second
	ran   map[int64]int   // runs per log id at the executor
}

// scheduleRuns starts our admin (SQLite) with the given schedule door and
// a Java executor as paired, arms job 1 as FIX_RATE 2 s on a whole even
// second and returns the log rows of the first scheduledRuns planned
// seconds once each has its callback (or the wait ran out), and what the
// executor ran.
func scheduleRuns(t *testing.T, p pairing, door func(trigger.Submitter) trigger.Submitter) runs {
	url, user, pass := backends[0].url(t)
	base := admintest.StartWith(t, app.Options{ScheduleDoor: door}, append([]string{"--spring.datasource.url=" + url,
		"--spring.datasource.username=" + user, "--spring.datasource.password=" + pass, "--xxl.job.accessToken=" + token},
		p.admin.args...)...)
	started := time.Now()
	target, err := schema.ParseJDBC(url, user, pass)
	if err != nil {
		t.Fatal(err)
	}
	store, err := schema.Open(context.Background(), target, schema.PoolSettings{MaxOpen: 2})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { store.Close() })
	f := &fixture{t: t, base: base, admin: base + p.admin.contextPath, store: store}
	port, err := javaexec.FreePort()
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	exec, err := javaexec.Start(ctx, javaexec.Options{Version: p.version, AdminAddress: f.admin,
		AccessToken: token, Port: port, LogDir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = exec.Kill() })
	f.eventually("executor registered", 10*time.Second, func() (bool, string) {
		l := f.addressList()
		return l == exec.Address(), l
	})

	// The first fire comes after the admin's next schedule round: rounds
	// that read nothing sleep 5 s (scheduler.md §3.2 step 7), the first
	// one comes ≥ 4 s after start (§3.1). It is on an even second.
	first := time.Now().Truncate(time.Second).Add(7 * time.Second)
	if earliest := started.Add(7 * time.Second); first.Before(earliest) {
		first = earliest.Truncate(time.Second).Add(time.Second)
	}
	if first.Unix()%2 != 0 {
		first = first.Add(time.Second)
	}
	job, err := store.JobLoad(ctx, 1)
	if err != nil {
		t.Fatal(err)
	}
	job.ScheduleType, job.ScheduleConf = "FIX_RATE", schema.Ptr(fmt.Sprint(scheduledStep))
	job.ExecutorHandler, job.ExecutorParam = schema.Ptr("successHandler"), schema.Ptr("scheduled")
	job.TriggerStatus, job.TriggerLastTime, job.TriggerNextTime = 1, 0, first.UnixMilli()
	if _, err := store.JobUpdate(ctx, job); err != nil {
		t.Fatal(err)
	}
	end := first.Add(scheduledRuns * scheduledStep * time.Second) // the (N+1)-th planned second
	time.Sleep(time.Until(end))
	r := runs{first: first}
	deadline := time.Now().Add(15 * time.Second)
	for {
		logs, _, err := store.LogPageList(ctx, 0, 100, schema.LogFilter{JobID: 1, LogStatus: -1})
		if err != nil {
			t.Fatal(err)
		}
		r.rows = r.rows[:0]
		pending := 0
		for _, l := range logs {
			if l.TriggerTime != nil && l.TriggerTime.Before(end) {
				r.rows = append(r.rows, l)
				if l.HandleCode == 0 {
					pending++
				}
			}
		}
		if pending == 0 || time.Now().After(deadline) {
			break
		}
		time.Sleep(100 * time.Millisecond)
	}
	sort.Slice(r.rows, func(i, j int) bool { return r.rows[i].TriggerTime.Before(*r.rows[j].TriggerTime) })
	r.ran = f.executed(exec.Address(), exec.Runs, 1)
	if t.Failed() {
		t.Logf("executor output:\n%s", exec.Output())
	}
	return r
}

// problems lists what differs from N runs on the planned grid.
func (r runs) problems() []string {
	var out []string
	if len(r.rows) != scheduledRuns {
		out = append(out, fmt.Sprintf("%d runs for %d planned seconds from %s (want one each)", len(r.rows), scheduledRuns,
			r.first.Format("15:04:05")))
	}
	per := map[int64]int{}
	for _, l := range r.rows {
		planned := r.first.Unix() + (l.TriggerTime.Unix()-r.first.Unix())/scheduledStep*scheduledStep
		per[planned]++
		if late := l.TriggerTime.Sub(time.Unix(planned, 0)); late > scheduledLate {
			out = append(out, fmt.Sprintf("log %d at %s is %s late", l.ID, l.TriggerTime.Format("15:04:05"), late))
		}
		if l.HandleCode != 200 || l.HandleMsg == nil || !strings.Contains(*l.HandleMsg, "success param=scheduled") {
			out = append(out, fmt.Sprintf("log %d: handle %d %v, want the executor's success", l.ID, l.HandleCode, l.HandleMsg))
		}
		out = append(out, ranOnce(r.ran, l.ID)...)
	}
	for k := range scheduledRuns {
		sec := r.first.Unix() + int64(k*scheduledStep)
		if n := per[sec]; n != 1 {
			out = append(out, fmt.Sprintf("%d runs for planned second %s (want 1)", n, time.Unix(sec, 0).Format("15:04:05")))
		}
	}
	return out
}

func (r runs) summary() string {
	var b strings.Builder
	fmt.Fprintf(&b, "%d runs from %s (second/handle code×executed):", len(r.rows), r.first.Format("15:04:05"))
	for _, l := range r.rows {
		fmt.Fprintf(&b, " %s/%d×%d", l.TriggerTime.Format("05"), l.HandleCode, r.ran[l.ID])
	}
	return b.String()
}
