package workflow

import (
	"context"
	"fmt"
	"time"

	"github.com/xxl-admin-go/xxl-admin-go/compat/schema"
)

// The read side of workflows, shared by the console's pages and the API:
// plain values, times as time.Time (zero when unset), nothing to decode.

// ListQuery selects a page of workflows, as the job list selects jobs.
type ListQuery struct {
	Group int // > 0: only this group
	// Groups, when non-nil, limits the list to these groups (a normal
	// user's permitted groups); an empty non-nil slice matches nothing.
	Groups  []int
	Name    string // part of the name, case-insensitive
	Enabled *bool
	Offset  int
	Size    int // <= 0: every one
}

// Summary is a workflow in a list.
type Summary struct {
	ID          int
	JobGroup    int
	Name        string
	Author      string
	Nodes       int
	Edges       int
	Schedule    Schedule
	Concurrency Concurrency
	Enabled     bool
	// NextFire is the schedule's next fire time (zero: none).
	NextFire   time.Time
	UpdateTime time.Time
}

// List is a page of workflows (newest first) and how many match in all.
func List(ctx context.Context, s *schema.Store, q ListQuery) ([]Summary, int, error) {
	rows, total, err := s.WorkflowPageList(ctx, q.Offset, q.Size, schema.WorkflowFilter{JobGroup: q.Group, JobGroups: q.Groups,
		Name: q.Name, Enabled: q.Enabled})
	if err != nil {
		return nil, 0, err
	}
	out := make([]Summary, 0, len(rows))
	for _, r := range rows {
		w, err := FromRow(r)
		if err != nil {
			return nil, 0, err
		}
		sum := Summary{ID: w.ID, JobGroup: w.JobGroup, Name: w.Name, Author: w.Author, Nodes: len(w.Graph.Nodes),
			Edges: len(w.Graph.Edges), Schedule: w.Schedule, Concurrency: w.Concurrency, Enabled: w.Enabled, UpdateTime: w.UpdateTime}
		if r.TriggerNextTime > 0 {
			sum.NextFire = time.UnixMilli(r.TriggerNextTime)
		}
		out = append(out, sum)
	}
	return out, total, nil
}

// JobRef is what a page shows of a node's job.
type JobRef struct {
	ID       int
	JobGroup int
	JobDesc  string
}

// Detail is a workflow with the jobs its nodes name (a deleted job is
// absent from Jobs) and what Warnings says of them.
type Detail struct {
	Workflow Workflow
	NextFire time.Time
	Jobs     map[int]JobRef
	Warnings []string
	// Parent is the job the workflow starts after (schedule JOB; a
	// deleted one has only its id).
	Parent *JobRef
}

// Load reads a workflow with its nodes' jobs; schema.ErrNotFound when it
// does not exist.
func Load(ctx context.Context, s *schema.Store, id int) (Detail, error) {
	row, err := s.WorkflowLoad(ctx, id)
	if err != nil {
		return Detail{}, err
	}
	w, err := FromRow(row)
	if err != nil {
		return Detail{}, err
	}
	d := Detail{Workflow: w}
	if row.TriggerNextTime > 0 {
		d.NextFire = time.UnixMilli(row.TriggerNextTime)
	}
	if d.Jobs, err = nodeJobs(ctx, s, w.Graph); err != nil {
		return Detail{}, err
	}
	if d.Warnings, err = Warnings(ctx, s, w); err != nil {
		return Detail{}, err
	}
	if parent, ok := w.Schedule.ParentJob(); ok {
		jobs, err := nodeJobs(ctx, s, Graph{Nodes: []Node{{JobID: parent}}})
		if err != nil {
			return Detail{}, err
		}
		ref, ok := jobs[parent]
		if !ok {
			ref = JobRef{ID: parent}
		}
		d.Parent = &ref
	}
	return d, nil
}

func nodeJobs(ctx context.Context, s *schema.Store, g Graph) (map[int]JobRef, error) {
	ids := make([]int, 0, len(g.Nodes))
	for _, n := range g.Nodes {
		ids = append(ids, n.JobID)
	}
	jobs, err := s.JobNames(ctx, ids)
	if err != nil {
		return nil, fmt.Errorf("jobs of the workflow's nodes: %w", err)
	}
	out := make(map[int]JobRef, len(jobs))
	for id, j := range jobs {
		out[id] = JobRef{ID: id, JobGroup: j.JobGroup, JobDesc: j.JobDesc}
	}
	return out, nil
}

// RunQuery selects a page of a workflow's runs.
type RunQuery struct {
	States []RunState // none: every state
	Offset int
	Size   int // <= 0: every one
}

// RunSummary is a run in a list.
type RunSummary struct {
	ID           int64
	WorkflowID   int
	State        RunState
	TriggerType  string
	Params       string
	ScheduleTime time.Time
	StartTime    time.Time // zero while queued
	EndTime      time.Time // zero while open
	Msg          string
	// ParentLogID is the log of the parent job whose success started the
	// run (trigger type PARENT; 0 otherwise).
	ParentLogID int64
}

func runSummary(r schema.WorkflowRun) RunSummary {
	return RunSummary{ID: r.ID, WorkflowID: r.WorkflowID, State: RunState(r.State), TriggerType: r.TriggerType,
		Params: deref(r.Params), ScheduleTime: r.ScheduleTime, StartTime: r.StartTime, EndTime: r.EndTime, Msg: deref(r.Msg)}
}

// Runs is a page of a workflow's runs (newest first) and how many match
// in all.
func Runs(ctx context.Context, s *schema.Store, workflowID int, q RunQuery) ([]RunSummary, int, error) {
	states := make([]string, len(q.States))
	for i, st := range q.States {
		states[i] = string(st)
	}
	rows, total, err := s.WorkflowRunPageList(ctx, workflowID, q.Offset, q.Size, states...)
	if err != nil {
		return nil, 0, err
	}
	out := make([]RunSummary, len(rows))
	var started []int64
	for i, r := range rows {
		out[i] = runSummary(r)
		if r.TriggerType == TriggerParent {
			started = append(started, r.ID)
		}
	}
	if len(started) > 0 {
		parents, err := s.WorkflowRunParents(ctx, started)
		if err != nil {
			return nil, 0, err
		}
		for i := range out {
			out[i].ParentLogID = parents[out[i].ID]
		}
	}
	return out, total, nil
}

// NodeLog is a log row written for a node's attempt (one per shard of a
// broadcast): its id in xxl_job_log and its result once known (0: none).
type NodeLog struct {
	LogID      int64
	Attempt    int
	ShardIndex int
	ShardTotal int
	Result     int
}

// NodeView is a node of a run: the node as the run's graph has it and
// where it stands.
type NodeView struct {
	Node
	State   NodeState
	Attempt int // triggers so far, from 1 (0: not triggered)
	// LogID is the first log row of the current attempt (0: none).
	LogID      int64
	Param      string // the expanded parameter sent, once triggered
	Msg        string
	UpdateTime time.Time
	Logs       []NodeLog // every attempt's, oldest first
}

// RunDetail is a run with its graph and nodes, in the graph's node order.
type RunDetail struct {
	Run   RunSummary
	Graph Graph
	Nodes []NodeView
}

// LoadRun reads a run with its nodes and their log rows;
// schema.ErrNotFound when it does not exist.
func LoadRun(ctx context.Context, s *schema.Store, runID int64) (RunDetail, error) {
	r, err := s.WorkflowRunLoad(ctx, runID)
	if err != nil {
		return RunDetail{}, err
	}
	g, err := DecodeGraph(r.Graph)
	if err != nil {
		return RunDetail{}, fmt.Errorf("run %d: %w", runID, err)
	}
	rows, err := s.WorkflowNodeRuns(ctx, []int64{runID}, false)
	if err != nil {
		return RunDetail{}, err
	}
	byNode := make(map[int]schema.WorkflowNodeRun, len(rows))
	ids := make([]int64, 0, len(rows))
	for _, n := range rows {
		byNode[n.NodeID] = n
		ids = append(ids, n.ID)
	}
	logs, err := s.WorkflowNodeLogsOfRuns(ctx, ids, false)
	if err != nil {
		return RunDetail{}, err
	}
	logsOf := map[int64][]NodeLog{}
	for _, l := range logs {
		logsOf[l.NodeRunID] = append(logsOf[l.NodeRunID], NodeLog{LogID: l.LogID, Attempt: l.Attempt,
			ShardIndex: l.ShardIndex, ShardTotal: l.ShardTotal, Result: l.Result})
	}
	d := RunDetail{Run: runSummary(r), Graph: g, Nodes: make([]NodeView, 0, len(g.Nodes))}
	if r.TriggerType == TriggerParent {
		parents, err := s.WorkflowRunParents(ctx, []int64{runID})
		if err != nil {
			return RunDetail{}, err
		}
		d.Run.ParentLogID = parents[runID]
	}
	for _, n := range g.Nodes {
		v := NodeView{Node: n, State: NodeWaiting}
		if row, ok := byNode[n.ID]; ok {
			v.State, v.Attempt, v.LogID = NodeState(row.State), row.Attempt, row.LogID
			v.Param, v.Msg, v.UpdateTime, v.Logs = deref(row.ExecutorParam), deref(row.Msg), row.UpdateTime, logsOf[row.ID]
		}
		d.Nodes = append(d.Nodes, v)
	}
	return d, nil
}
