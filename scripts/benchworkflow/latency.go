package main

import (
	"context"
	"fmt"
	"strconv"
	"time"
)

// sampleLimit bounds one A → B sample: a B not at the executor by then
// is counted lost.
const sampleLimit = 10 * time.Second

// latencies are the node-to-node samples of both wirings.
type latencies struct {
	workflow, child         []time.Duration
	lostWorkflow, lostChild int
}

// measureLatency runs warm+n samples of each wiring of A → B, one run at
// a time, alternating which goes first: a sample is from the moment the
// executor posts A's callback to the moment B's /run arrives. The first
// warm samples of each are not kept. Between samples it pauses gap, so
// that B's own callback is handled before the next A starts.
func measureLatency(ctx context.Context, e *executor, api *jobAPI, r *rig, n, warm int, gap time.Duration) (latencies, error) {
	var out latencies
	for i := range warm + n {
		for k := range 2 {
			child := (i+k)%2 == 1
			d, ok, err := sample(ctx, e, api, r, child, i)
			if err != nil {
				return out, err
			}
			if i < warm {
				continue
			}
			switch {
			case child && ok:
				out.child = append(out.child, d)
			case child:
				out.lostChild++
			case ok:
				out.workflow = append(out.workflow, d)
			default:
				out.lostWorkflow++
			}
			select {
			case <-ctx.Done():
				return out, ctx.Err()
			case <-time.After(gap):
			}
		}
	}
	return out, nil
}

// sample starts one A → B run and waits for B's /run.
func sample(ctx context.Context, e *executor, api *jobAPI, r *rig, child bool, i int) (time.Duration, bool, error) {
	p := r.chainWF
	if child {
		p = r.chainChild
	}
	a, b := p.jobs[1], p.jobs[2]
	key, name := strconv.Itoa(i), "seq"
	bBefore := 0
	if child {
		e.waitFor(ctx, func(runs, _ []event) bool {
			for _, ev := range runs {
				if ev.JobID == b {
					bBefore++
				}
			}
			return true
		})
		if err := api.trigger(ctx, a, "seq="+key); err != nil {
			return 0, false, fmt.Errorf("trigger the chain's parent: %w", err)
		}
	} else {
		id, err := api.startRun(ctx, p.workflow)
		if err != nil {
			return 0, false, fmt.Errorf("start a chain run: %w", err)
		}
		key, name = id, "run"
	}
	var cb, run time.Time
	wctx, cancel := context.WithTimeout(ctx, sampleLimit)
	defer cancel()
	ok := e.waitFor(wctx, func(runs, callbacks []event) bool {
		cb, run = time.Time{}, time.Time{}
		for _, ev := range callbacks {
			if ev.JobID == a && paramValue(ev.Param, name) == key {
				cb = ev.At
			}
		}
		seen := 0
		for _, ev := range runs {
			if ev.JobID != b {
				continue
			}
			seen++
			if (child && seen > bBefore) || (!child && paramValue(ev.Param, "run") == key) {
				run = ev.At
			}
		}
		return !cb.IsZero() && !run.IsZero()
	})
	if ctx.Err() != nil {
		return 0, false, ctx.Err()
	}
	return run.Sub(cb), ok, nil
}
