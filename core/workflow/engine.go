package workflow

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"sync/atomic"
	"time"

	"github.com/rs/zerolog"

	"github.com/xxl-admin-go/xxl-admin-go/compat/schema"
	"github.com/xxl-admin-go/xxl-admin-go/core/lifecycle"
	"github.com/xxl-admin-go/xxl-admin-go/core/trigger"
)

// TriggerType is the type of a node's trigger: the kind of its pending
// row (whose decision key is the node run and the attempt) and what its
// log's trigger_msg names.
const TriggerType trigger.Type = "WORKFLOW"

// ErrSkipped is returned by Start when the workflow's concurrency policy
// refuses the start (a run is going under SKIP, one waits already under
// QUEUE, or PARALLEL's bound is reached).
var ErrSkipped = errors.New("workflow start skipped by its concurrency policy")

// Config wires an Engine.
type Config struct {
	Store *schema.Store
	// Trigger is the trigger door the nodes' triggers go through.
	Trigger trigger.Submitter
	// Durable is this admin's pending-trigger setup; the engine needs it
	// (every node trigger is a pending row).
	Durable *trigger.Durable
	// Loc is the zone of ${run.time} for a workflow without a time zone.
	Loc *time.Location
	// Interval is the time between passes over the runs in flight (0: 2 s).
	Interval time.Duration
	Now      func() time.Time
	Log      zerolog.Logger
	// Observe sees runs end, node triggers sent and runs in flight.
	Observe Observer
}

// Engine starts runs and moves them along (see the package comment). It
// implements thread.FinishHook and trigger.PendingHook, and is the
// component of the periodic pass.
type Engine struct {
	lifecycle.Base
	cfg Config
	log zerolog.Logger
	// active says a run may be in flight: while it is false the callback
	// hook does not look for node logs, so an admin without workflows pays
	// nothing per callback (the pass settles what it skipped).
	active  atomic.Bool
	plans   plans
	parents parentIndex
	// cursors are the pass's places in parent logs, by workflow id;
	// parentPass makes parent passes take turns on them.
	cursors    map[int]*parentCursor
	parentPass sync.Mutex
	passDone   func() // tests
}

// New creates an engine.
func New(cfg Config) *Engine {
	if cfg.Interval <= 0 {
		cfg.Interval = 2 * time.Second
	}
	if cfg.Now == nil {
		cfg.Now = time.Now
	}
	if cfg.Loc == nil {
		cfg.Loc = time.Local
	}
	if cfg.Observe == nil {
		cfg.Observe = noObserver{}
	}
	return &Engine{cfg: cfg, log: cfg.Log.With().Str("component", "workflow").Logger()}
}

// StartRequest is what starts a run.
type StartRequest struct {
	// TriggerType says who started it (CRON, FIX_RATE, MANUAL, API, …).
	TriggerType string
	// Params are the run's own parameters (key=value lines), laid over the
	// workflow's.
	Params string
	// At is the run's planned time (zero: now); ${run.time} shows it.
	At time.Time
}

// StartRun starts a run of a workflow, or queues it, as its concurrency
// policy says, in one transaction with the triggers of its first nodes
// (durable: sent even if this admin dies right after). It returns the
// run's id, or ErrSkipped.
func (e *Engine) StartRun(ctx context.Context, workflowID int, req StartRequest) (int64, error) {
	var runID int64
	var reqs []trigger.Request
	// A start takes the workflow's row while callbacks of its runs hold
	// their runs' rows and want it: a deadlock (seen on PostgreSQL under
	// load) rolls the whole start back, so it is redone, not answered as
	// an error.
	err := schema.RetryConflicts(ctx, 4, func() error {
		return e.cfg.Store.WithTx(ctx, func(tx *schema.Store) error {
			row, err := tx.WorkflowLock(ctx, workflowID)
			if err != nil {
				return err
			}
			runID, reqs, err = e.startIn(ctx, tx, row, req)
			return err
		})
	}, nil)
	if errors.Is(err, ErrSkipped) {
		e.cfg.Observe.RunEnded(RunSkipped)
	}
	if err != nil {
		return 0, fmt.Errorf("start workflow %d: %w", workflowID, err)
	}
	e.submit(reqs)
	return runID, nil
}

// startIn starts a run of a workflow whose row tx holds locked: the run
// and its node runs stored, its first nodes decided. It returns the run's
// id and the triggers to submit after the commit, or ErrSkipped.
func (e *Engine) startIn(ctx context.Context, tx *schema.Store, row schema.WorkflowRow, req StartRequest) (int64, []trigger.Request, error) {
	own, err := ParseParams(req.Params)
	if err != nil {
		return 0, nil, err
	}
	now := e.cfg.Now()
	if req.At.IsZero() {
		req.At = now
	}
	w, err := FromRow(row)
	if err != nil {
		return 0, nil, err
	}
	state, err := admit(ctx, tx, w)
	if err != nil {
		return 0, nil, err
	}
	defaults, err := ParseParams(w.Params)
	if err != nil {
		return 0, nil, fmt.Errorf("workflow %d: %w", w.ID, err)
	}
	run := schema.WorkflowRun{WorkflowID: w.ID, State: string(state), TriggerType: req.TriggerType, Graph: row.Graph,
		Params: optional(formatParams(MergeParams(defaults, own))), ScheduleTime: req.At, AddTime: now}
	if state == RunRunning {
		run.StartTime = now
	}
	runID, err := tx.WorkflowRunAdd(ctx, run)
	if err != nil {
		return 0, nil, err
	}
	nodes := make([]schema.WorkflowNodeRun, len(w.Graph.Nodes))
	for i, n := range w.Graph.Nodes {
		nodes[i] = schema.WorkflowNodeRun{RunID: runID, NodeID: n.ID, JobID: n.JobID, State: string(NodeWaiting), UpdateTime: now}
	}
	if err := tx.WorkflowNodeRunsAdd(ctx, nodes); err != nil {
		return 0, nil, err
	}
	e.active.Store(true)
	if state != RunRunning {
		return runID, nil, nil
	}
	reqs, err := e.advance(ctx, tx, []int64{runID})
	return runID, reqs, err
}

// admit applies the concurrency policy to a start: the state of the new
// run, or ErrSkipped. The workflow's row is locked, so starts of one
// workflow take turns here.
func admit(ctx context.Context, tx *schema.Store, w Workflow) (RunState, error) {
	running, err := tx.WorkflowRunCount(ctx, w.ID, string(RunRunning))
	if err != nil {
		return "", err
	}
	switch w.Concurrency.Policy {
	case PolicyParallel:
		if running >= max(w.Concurrency.Max, 1) {
			return "", ErrSkipped
		}
	case PolicyQueue:
		if running == 0 {
			return RunRunning, nil
		}
		queued, err := tx.WorkflowRunCount(ctx, w.ID, string(RunQueued))
		if err != nil {
			return "", err
		}
		if queued > 0 {
			return "", ErrSkipped
		}
		return RunQueued, nil
	default:
		if running > 0 {
			return "", ErrSkipped
		}
	}
	return RunRunning, nil
}

// submit queues decided node triggers after their transaction committed;
// one the door refuses stays pending and a sweeper submits it again.
func (e *Engine) submit(reqs []trigger.Request) {
	for _, r := range reqs {
		if err := e.cfg.Trigger.Submit(r); err != nil {
			e.log.Warn().Err(err).Int("job_id", r.JobID).Str("pending", "a sweeper submits it again once its lease runs out").
				Msg("workflow node trigger not queued")
		}
	}
}
