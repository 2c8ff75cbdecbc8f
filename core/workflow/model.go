package workflow

import "time"

// Workflow is a named DAG over the jobs of one executor group.
type Workflow struct {
	ID       int
	JobGroup int
	Name     string
	Author   string
	Graph    Graph
	// Params are the default run parameters (key=value lines); a run's
	// own parameters override them by key.
	Params      string
	Schedule    Schedule
	Concurrency Concurrency
	// Enabled says whether the schedule fires (a manual or API start
	// works either way).
	Enabled    bool
	AddTime    time.Time
	UpdateTime time.Time
}

// Graph is the DAG: nodes and the edges between them.
type Graph struct {
	Nodes []Node `json:"nodes"`
	Edges []Edge `json:"edges"`
}

// Node is one step: a job of the workflow's group, run when Rule says
// its parents' outcomes allow. A job may be the job of several nodes.
type Node struct {
	// ID names the node within its workflow (positive, unique); runs and
	// edges refer to it.
	ID    int    `json:"id"`
	JobID int    `json:"jobId"`
	Rule  Rule   `json:"rule,omitempty"`
	Label string `json:"label,omitempty"`
	// Param replaces the job's executor_param when set; either is
	// expanded (Expand) before it is sent.
	Param *string `json:"param,omitempty"`
}

// Edge says To runs after From.
type Edge struct {
	From int `json:"from"`
	To   int `json:"to"`
}

// Schedule is when a workflow starts by itself.
type Schedule struct {
	// Type is cron.TypeNone (manual, API or a job's child), cron.TypeCron
	// or cron.TypeFixRate.
	Type string
	// Conf is the CRON expression or the FIX_RATE period in seconds.
	Conf string
	// TimeZone is the IANA zone a CRON expression is read in ("" = the
	// admin's zone).
	TimeZone string
	// Misfire is DO_NOTHING or FIRE_ONCE_NOW, as for a job.
	Misfire string
}

// Policy is what a start does while runs of the same workflow are still
// going.
type Policy string

// The concurrency policies.
const (
	// PolicySkip starts no run while one is going (the default).
	PolicySkip Policy = "SKIP"
	// PolicyQueue keeps one start waiting; it begins when the runs going
	// end. A further start while one waits is skipped.
	PolicyQueue Policy = "QUEUE"
	// PolicyParallel runs up to Concurrency.Max runs at once.
	PolicyParallel Policy = "PARALLEL"
)

// Concurrency is a workflow's policy and, for PolicyParallel, its bound.
type Concurrency struct {
	Policy Policy
	Max    int
}
