package workflow

import (
	"context"
	"errors"
	"sync"
	"testing"
	"time"

	"github.com/xxl-admin-go/xxl-admin-go/internal/testsupport/storetest"
)

// recorder is an Observer that keeps what it saw.
type recorder struct {
	mu       sync.Mutex
	ended    map[RunState]int
	lateness []time.Duration
	flight   []int
}

func (r *recorder) RunEnded(s RunState) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.ended[s]++
}

func (r *recorder) NodeLateness(d time.Duration) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.lateness = append(r.lateness, d)
}

func (r *recorder) RunsInFlight(n int) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.flight = append(r.flight, n)
}

// TestObserver: a failed run is seen ending once, each node trigger's
// lateness once, a start the policy skips as SKIPPED, and a pass reports
// the runs running.
func TestObserver(t *testing.T) {
	r := newRig(t, storetest.SQLite(t), 1)
	ctx := context.Background()
	obs := &recorder{ended: map[RunState]int{}}
	e := r.admins[0].engine
	e.cfg.Observe = obs
	a, b := r.job(0), r.job(0)
	r.fail(b)
	wf := r.workflow(Graph{Nodes: []Node{{ID: 1, JobID: a}, {ID: 2, JobID: b}}, Edges: []Edge{{1, 2}}}, Concurrency{}, "")
	runID, err := e.StartRun(ctx, wf, StartRequest{TriggerType: "MANUAL"})
	if err != nil {
		t.Fatal(err)
	}
	if run := r.settle(runID); RunState(run.State) != RunFailed {
		t.Fatalf("run %s", run.State)
	}
	obs.mu.Lock()
	if obs.ended[RunFailed] != 1 || len(obs.ended) != 1 || len(obs.lateness) != 2 {
		t.Errorf("ended %v, lateness %v: want one failed run, two node triggers", obs.ended, obs.lateness)
	}
	obs.mu.Unlock()

	r.exec.Hold(a)
	first, err := e.StartRun(ctx, wf, StartRequest{TriggerType: "MANUAL"})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := e.StartRun(ctx, wf, StartRequest{TriggerType: "MANUAL"}); !errors.Is(err, ErrSkipped) {
		t.Fatalf("second start under SKIP: %v", err)
	}
	if err := e.Pass(ctx); err != nil {
		t.Fatal(err)
	}
	obs.mu.Lock()
	if obs.ended[RunSkipped] != 1 || obs.flight[len(obs.flight)-1] != 1 {
		t.Errorf("ended %v, in flight %v: want one skipped start, one run in flight", obs.ended, obs.flight)
	}
	obs.mu.Unlock()
	r.exec.Release(a)
	r.settle(first)
}
