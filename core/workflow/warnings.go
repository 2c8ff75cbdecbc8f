package workflow

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/xxl-admin-go/xxl-admin-go/compat/schema"
	"github.com/xxl-admin-go/xxl-admin-go/core/cron"
)

// Warnings lists what a valid workflow does that its editor may not mean:
// a node whose job has a schedule of its own fires on it independently of
// every run, on Java admins and ours alike, and one whose job has child
// jobs triggers them after each success, in a run or not (the console
// shows these beside the editor; docs/workflows.md, mixed clusters).
func Warnings(ctx context.Context, s *schema.Store, w Workflow) ([]string, error) {
	jobs := map[int]*schema.JobInfo{}
	var out []string
	for _, n := range w.Graph.Nodes {
		job, seen := jobs[n.JobID]
		if !seen {
			j, err := s.JobLoad(ctx, n.JobID)
			switch {
			case errors.Is(err, schema.ErrNotFound):
			case err != nil:
				return nil, err
			default:
				job = &j
			}
			jobs[n.JobID] = job
		}
		if job == nil {
			continue // Validate refuses it
		}
		if job.ScheduleType != cron.TypeNone && job.ScheduleType != "" {
			out = append(out, fmt.Sprintf("node %d: job %d has its own %s schedule and fires on it outside this workflow too", n.ID, job.ID, job.ScheduleType))
		}
		if job.ChildJobID != nil && strings.TrimSpace(*job.ChildJobID) != "" {
			out = append(out, fmt.Sprintf("node %d: job %d has child jobs (%s), triggered after each of its successes, in a run too", n.ID, job.ID, *job.ChildJobID))
		}
	}
	if parent, ok := w.Schedule.ParentJob(); ok {
		if _, err := s.JobLoad(ctx, parent); errors.Is(err, schema.ErrNotFound) {
			out = append(out, fmt.Sprintf("parent job %d no longer exists: the workflow does not start by itself", parent))
		} else if err != nil {
			return nil, err
		}
	}
	return out, nil
}
