package workflow

import (
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/xxl-admin-go/xxl-admin-go/compat/schema"
	"github.com/xxl-admin-go/xxl-admin-go/core/cron"
)

// EncodeGraph is the graph as stored (JSON).
func EncodeGraph(g Graph) (string, error) {
	b, err := json.Marshal(g)
	if err != nil {
		return "", fmt.Errorf("encode workflow graph: %w", err)
	}
	return string(b), nil
}

// DecodeGraph reads a stored graph.
func DecodeGraph(s string) (Graph, error) {
	var g Graph
	if err := json.Unmarshal([]byte(s), &g); err != nil {
		return g, fmt.Errorf("decode workflow graph: %w", err)
	}
	return g, nil
}

// Row is the workflow as stored.
func (w Workflow) Row() (schema.WorkflowRow, error) {
	graph, err := EncodeGraph(w.Graph)
	if err != nil {
		return schema.WorkflowRow{}, err
	}
	typ := w.Schedule.Type
	if typ == "" {
		typ = cron.TypeNone
	}
	return schema.WorkflowRow{ID: w.ID, JobGroup: w.JobGroup, Name: w.Name, Author: optional(w.Author), Graph: graph,
		Params: optional(w.Params), ScheduleType: typ, ScheduleConf: optional(w.Schedule.Conf),
		ScheduleTimezone: optional(w.Schedule.TimeZone), MisfireStrategy: or(w.Schedule.Misfire, "DO_NOTHING"),
		Concurrency: string(or(w.Concurrency.Policy, PolicySkip)), MaxParallel: max(w.Concurrency.Max, 1),
		Enabled: w.Enabled, AddTime: w.AddTime, UpdateTime: w.UpdateTime}, nil
}

// FromRow reads a stored workflow.
func FromRow(r schema.WorkflowRow) (Workflow, error) {
	g, err := DecodeGraph(r.Graph)
	if err != nil {
		return Workflow{}, fmt.Errorf("workflow %d: %w", r.ID, err)
	}
	return Workflow{ID: r.ID, JobGroup: r.JobGroup, Name: r.Name, Author: deref(r.Author), Graph: g, Params: deref(r.Params),
		Schedule: Schedule{Type: r.ScheduleType, Conf: deref(r.ScheduleConf), TimeZone: deref(r.ScheduleTimezone),
			Misfire: r.MisfireStrategy},
		Concurrency: Concurrency{Policy: Policy(r.Concurrency), Max: r.MaxParallel},
		Enabled:     r.Enabled, AddTime: r.AddTime, UpdateTime: r.UpdateTime}, nil
}

// formatParams writes parameters as ParseParams reads them, by key.
func formatParams(p map[string]string) string {
	var b strings.Builder
	for _, k := range slices.Sorted(maps.Keys(p)) {
		b.WriteString(k)
		b.WriteByte('=')
		b.WriteString(p[k])
		b.WriteByte('\n')
	}
	return b.String()
}

func optional(s string) *string {
	if s == "" {
		return nil
	}
	return &s
}

func deref(s *string) string {
	if s == nil {
		return ""
	}
	return *s
}

func or[T comparable](v, def T) T {
	var zero T
	if v == zero {
		return def
	}
	return v
}
