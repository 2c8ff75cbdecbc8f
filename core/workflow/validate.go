package workflow

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/xxl-admin-go/xxl-admin-go/core/cron"
)

// ErrInvalid marks a workflow refused at save; the error's text lists
// every problem found.
var ErrInvalid = errors.New("invalid workflow")

// Limits of a workflow.
const (
	MaxName  = 255
	MaxNodes = 2000
)

// JobGroups tells the group of a job id, ok false when the job does not
// exist (a deleted job is unknown).
type JobGroups func(jobID int) (group int, ok bool)

// Validate checks a workflow before it is stored: a name; nodes with
// unique positive ids, known rules and jobs that exist in the workflow's
// group; edges between existing nodes, none repeated; no cycle (named
// when there is one); a schedule the job scheduler would accept; a
// concurrency policy; parameters that parse. All problems are reported
// at once, wrapped in ErrInvalid.
func Validate(w Workflow, jobs JobGroups) error {
	var p problems
	name := strings.TrimSpace(w.Name)
	switch {
	case name == "":
		p.add("the name is empty")
	case utf8.RuneCountInString(w.Name) > MaxName:
		p.add("the name is longer than %d characters", MaxName)
	}
	validGraph(w, jobs, &p)
	validSchedule(w.Schedule, &p)
	validParent(w, jobs, &p)
	switch w.Concurrency.Policy {
	case "", PolicySkip, PolicyQueue:
	case PolicyParallel:
		if w.Concurrency.Max < 1 {
			p.add("PARALLEL needs a maximum of at least 1 run, got %d", w.Concurrency.Max)
		}
	default:
		p.add("unknown concurrency policy %q (SKIP, QUEUE or PARALLEL)", w.Concurrency.Policy)
	}
	if _, err := ParseParams(w.Params); err != nil {
		p.add("%v", err)
	}
	return p.err()
}

func validGraph(w Workflow, jobs JobGroups, p *problems) {
	g := w.Graph
	switch {
	case len(g.Nodes) == 0:
		p.add("a workflow needs at least one node")
		return
	case len(g.Nodes) > MaxNodes:
		p.add("%d nodes: at most %d", len(g.Nodes), MaxNodes)
		return
	}
	ix := indexOf(g)
	shapeOK := true // no cycle is looked for in a graph of bad ids or edges
	seen := make(map[int]bool, len(g.Nodes))
	order := make([]int, 0, len(g.Nodes))
	for _, n := range g.Nodes {
		switch {
		case n.ID <= 0:
			p.add("node id %d: ids are positive", n.ID)
			shapeOK = false
		case seen[n.ID]:
			p.add("node id %d is used twice", n.ID)
			shapeOK = false
		}
		seen[n.ID] = true
		order = append(order, n.ID)
		if !n.Rule.valid() {
			p.add("node %s: unknown trigger rule %q (all_success, all_done, one_failed or none_failed)", ix.describe(n.ID), n.Rule)
		}
		group, ok := jobs(n.JobID)
		switch {
		case !ok:
			p.add("node %s: job %d does not exist", ix.describe(n.ID), n.JobID)
		case group != w.JobGroup:
			p.add("node %s: job %d belongs to executor group %d, not the workflow's group %d", ix.describe(n.ID), n.JobID, group, w.JobGroup)
		}
	}
	edges := make(map[Edge]bool, len(g.Edges))
	for _, e := range g.Edges {
		switch {
		case !seen[e.From] || !seen[e.To]:
			p.add("edge %d → %d: no node %d", e.From, e.To, missingEnd(e, seen))
			shapeOK = false
		case e.From == e.To:
			p.add("edge %d → %d: a node cannot follow itself", e.From, e.To)
			shapeOK = false
		case edges[e]:
			p.add("edge %d → %d is given twice", e.From, e.To)
		}
		edges[e] = true
	}
	if shapeOK {
		if cycle := ix.findCycle(order); cycle != nil {
			p.add("the graph has a cycle: %s", ix.describePath(cycle))
		}
	}
}

func missingEnd(e Edge, seen map[int]bool) int {
	if !seen[e.From] {
		return e.From
	}
	return e.To
}

func validSchedule(s Schedule, p *problems) {
	switch s.Type {
	case "", cron.TypeNone:
	case ScheduleJob:
		if n, err := strconv.Atoi(s.Conf); err != nil || n < 1 {
			p.add("JOB %q: want the id of the parent job", s.Conf)
		}
	case cron.TypeCron:
		if err := cron.Validate(s.Conf); err != nil {
			p.add("CRON %q: %v", s.Conf, err)
		}
	case cron.TypeFixRate:
		if n, err := strconv.Atoi(s.Conf); err != nil || n < 1 {
			p.add("FIX_RATE %q: want a whole number of seconds, at least 1", s.Conf)
		}
	default:
		p.add("unknown schedule type %q (NONE, CRON, FIX_RATE or JOB)", s.Type)
	}
	if s.TimeZone != "" {
		if err := cron.CheckZoneID(s.TimeZone); err != nil {
			p.add("time zone %q: %v", s.TimeZone, err)
		}
	}
	switch s.Misfire {
	case "", "DO_NOTHING", "FIRE_ONCE_NOW":
	default:
		p.add("unknown misfire strategy %q (DO_NOTHING or FIRE_ONCE_NOW)", s.Misfire)
	}
}

// validParent checks the parent job of a workflow started after a job: it
// exists in the workflow's group (a job its editor may use, as a node's)
// and is not the job of one of its nodes (each run would start the next).
func validParent(w Workflow, jobs JobGroups, p *problems) {
	parent, ok := w.Schedule.ParentJob()
	if !ok {
		return
	}
	group, ok := jobs(parent)
	switch {
	case !ok:
		p.add("parent job %d does not exist", parent)
	case group != w.JobGroup:
		p.add("parent job %d belongs to executor group %d, not the workflow's group %d", parent, group, w.JobGroup)
	}
	for _, n := range w.Graph.Nodes {
		if n.JobID == parent {
			p.add("parent job %d is the job of node %d: each run would start the next", parent, n.ID)
			return
		}
	}
}

// problems collects validation messages.
type problems []string

func (p *problems) add(format string, args ...any) { *p = append(*p, fmt.Sprintf(format, args...)) }
func (p *problems) empty() bool                    { return len(*p) == 0 }

func (p *problems) err() error {
	if p.empty() {
		return nil
	}
	return &InvalidError{Problems: append([]string(nil), *p...)}
}

// InvalidError is Validate's error: every problem found, one a line on
// the console's editor. It wraps ErrInvalid.
type InvalidError struct {
	Problems []string
}

func (e *InvalidError) Error() string {
	return ErrInvalid.Error() + ": " + strings.Join(e.Problems, "; ")
}

func (e *InvalidError) Unwrap() error { return ErrInvalid }
