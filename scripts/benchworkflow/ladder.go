package main

import (
	"context"
	"fmt"
	"sync"
	"time"

	"github.com/xxl-admin-go/xxl-admin-go/internal/testsupport/procstat"
)

// maxInFlight bounds the start requests waiting for an answer: a start
// that cannot be sent on time shows as its root's lateness.
const maxInFlight = 200

// step is one rung of the ladder: one wiring at one rate.
type step struct {
	Kind    string // "workflow" or "child jobs"
	Rate    float64
	Seconds int
	Started int    // starts the API accepted
	Refused int    // starts refused or failed
	Err     string // the first refusal
	Out     outcome
	// CPUPerNode is the admin's CPU per node run, in ms, less what it
	// spends idle (idleCPU, its schedule rounds and passes) over the same
	// time (the step and its
	// drain); Load the load average after it.
	CPUPerNode float64
	Load       string
	Drained    time.Duration // from the last start to the last /run expected (or the limit)
	// CallbacksRefused counts callback posts the admin did not accept
	// (answered with an error or not within the executor's 3 s), each
	// retried 200 ms later.
	CallbacksRefused int
	BusyBefore       float64 // the box's busy share over the 2 s before it
}

// ok tells whether nothing was late: every start accepted, every node
// run, none more than limit after it was due.
func (s step) ok(limit time.Duration) bool {
	return s.Refused == 0 && s.Out.Late(limit) == 0 && s.Started > 0
}

// runStep starts runs of p at rate for seconds, waits up to drain after
// the last start for every node to reach the executor, and pairs what it
// saw.
func runStep(ctx context.Context, e *executor, api *jobAPI, p plan, tag string, rate float64, seconds int, drain time.Duration,
	adminPID int, idleCPU float64) (step, error) {
	s := step{Kind: "workflow", Rate: rate, Seconds: seconds}
	if p.workflow == 0 {
		s.Kind = "child jobs"
	}
	runFrom, cbFrom, refused0 := e.counts()
	cpu0, _ := procstat.CPUTime(adminPID)
	began := time.Now()
	var mu sync.Mutex
	var starts []start
	var wg sync.WaitGroup
	sem := make(chan struct{}, maxInFlight)
	period := time.Duration(float64(time.Second) / rate)
	total := int(rate * float64(seconds))
	t0 := time.Now().Add(100 * time.Millisecond)
	for i := range total {
		if !sleepUntil(ctx, t0.Add(time.Duration(i)*period)) {
			return s, ctx.Err()
		}
		sem <- struct{}{}
		wg.Add(1)
		go func() {
			defer wg.Done()
			defer func() { <-sem }()
			sent := time.Now()
			key := fmt.Sprintf("%s-%d", tag, i)
			var err error
			if p.workflow != 0 {
				key, err = api.startRun(ctx, p.workflow)
			} else {
				err = api.trigger(ctx, p.jobs[1], "seq="+key)
			}
			mu.Lock()
			defer mu.Unlock()
			if err != nil {
				s.Refused++
				if s.Err == "" {
					s.Err = err.Error()
				}
				return
			}
			starts = append(starts, start{Key: key, Sent: sent})
		}()
	}
	wg.Wait()
	last := time.Now()
	want := len(starts) * len(p.shape)
	dctx, cancel := context.WithTimeout(ctx, drain)
	mine := func(evs []event) int {
		n := 0
		for _, ev := range evs {
			if _, ok := p.nodeOf[ev.JobID]; ok {
				n++
			}
		}
		return n
	}
	e.waitFor(dctx, func(runs, callbacks []event) bool {
		return mine(runs[runFrom:]) >= want && mine(callbacks[cbFrom:]) >= want
	})
	cancel()
	s.Drained = time.Since(last)
	// A moment for a /run sent twice to show.
	if !sleepUntil(ctx, time.Now().Add(300*time.Millisecond)) {
		return s, ctx.Err()
	}
	runs, callbacks := e.snapshot(runFrom, cbFrom)
	_, _, refused1 := e.counts()
	s.CallbacksRefused = refused1 - refused0
	if p.workflow != 0 {
		s.Out = byRun(p.shape, p.nodeOf, starts, runs, callbacks)
	} else {
		s.Out = inOrder(p.shape, p.nodeOf, starts, runs, callbacks)
	}
	s.Started = len(starts)
	if cpu1, err := procstat.CPUTime(adminPID); err == nil && s.Out.Arrived > 0 {
		busy := float64(cpu1-cpu0) - idleCPU*float64(time.Since(began))
		s.CPUPerNode = max(0, busy) / float64(time.Millisecond) / float64(s.Out.Arrived)
	}
	s.Load = procstat.LoadAvg()
	return s, nil
}

// sleepUntil waits until t; false when ctx ended first.
func sleepUntil(ctx context.Context, t time.Time) bool {
	d := time.Until(t)
	if d <= 0 {
		return ctx.Err() == nil
	}
	timer := time.NewTimer(d)
	defer timer.Stop()
	select {
	case <-timer.C:
		return true
	case <-ctx.Done():
		return false
	}
}

// idleCPU is the admin's CPU share while nothing runs (its schedule
// rounds, the workflow pass, the registry monitor), over d.
func idleCPU(ctx context.Context, adminPID int, d time.Duration) (float64, error) {
	cpu0, err := procstat.CPUTime(adminPID)
	if err != nil {
		return 0, err
	}
	began := time.Now()
	if !sleepUntil(ctx, began.Add(d)) {
		return 0, ctx.Err()
	}
	cpu1, err := procstat.CPUTime(adminPID)
	if err != nil {
		return 0, err
	}
	return float64(cpu1-cpu0) / float64(time.Since(began)), nil
}
