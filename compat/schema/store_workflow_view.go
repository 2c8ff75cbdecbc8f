package schema

import (
	"context"
	"fmt"

	sq "github.com/Masterminds/squirrel"
)

// WorkflowFilter holds the conditions of the workflow list (the console's
// and the API's); the zero value matches every workflow.
type WorkflowFilter struct {
	JobGroup  int   // > 0 to filter
	JobGroups []int // non-nil: only workflows of these groups (a normal user's permitted groups)
	Name      string
	Enabled   *bool
}

func (f WorkflowFilter) apply(s *Store, b sq.SelectBuilder) sq.SelectBuilder {
	if f.JobGroup > 0 {
		b = b.Where(sq.Eq{"job_group": f.JobGroup})
	}
	if f.JobGroups != nil {
		b = b.Where(inOrNone("job_group", f.JobGroups))
	}
	if f.Name != "" {
		b = b.Where(s.likeContains("name", f.Name))
	}
	if f.Enabled != nil {
		on := 0
		if *f.Enabled {
			on = 1
		}
		b = b.Where(sq.Eq{"enabled": on})
	}
	return b
}

// pageOrAll is page, or every row from offset on when size <= 0.
func pageOrAll(b sq.SelectBuilder, offset, size int) sq.SelectBuilder {
	if size > 0 {
		return page(b, offset, size)
	}
	if offset > 0 {
		// Every backend accepts a LIMIT this large; an OFFSET alone is not
		// valid on MySQL.
		return page(b, offset, 1<<62)
	}
	return b
}

// WorkflowPageList is (size <= 0: every one from offset) a page of workflows (newest id first) and how many
// match in all.
func (s *Store) WorkflowPageList(ctx context.Context, offset, size int, f WorkflowFilter) ([]WorkflowRow, int, error) {
	rows, err := selectAll(ctx, s, pageOrAll(f.apply(s, s.sb.Select(workflowColumns...).From(WorkflowTable)).OrderBy("id DESC"),
		offset, size), scanWorkflow)
	if err != nil {
		return nil, 0, fmt.Errorf("page workflows: %w", err)
	}
	total, err := s.count(ctx, f.apply(s, s.sb.Select("count(1)").From(WorkflowTable)))
	if err != nil {
		return nil, 0, fmt.Errorf("count workflows: %w", s.failed(ctx, err))
	}
	return rows, total, nil
}

// WorkflowRunPageList is (size <= 0: every one from offset) a page of a workflow's runs in the given states
// (all states when none), newest first, and how many match in all.
func (s *Store) WorkflowRunPageList(ctx context.Context, workflowID, offset, size int, states ...string) ([]WorkflowRun, int, error) {
	where := sq.Eq{"workflow_id": workflowID}
	if len(states) > 0 {
		where["state"] = states
	}
	rows, err := selectAll(ctx, s, pageOrAll(s.sb.Select(workflowRunColumns...).From(WorkflowRunTable).Where(where).
		OrderBy("id DESC"), offset, size), scanWorkflowRun)
	if err != nil {
		return nil, 0, fmt.Errorf("page runs of workflow %d: %w", workflowID, err)
	}
	total, err := s.count(ctx, s.sb.Select("count(1)").From(WorkflowRunTable).Where(where))
	if err != nil {
		return nil, 0, fmt.Errorf("count runs of workflow %d: %w", workflowID, s.failed(ctx, err))
	}
	return rows, total, nil
}
