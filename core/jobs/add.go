package jobs

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/xxl-admin-go/xxl-admin-go/compat/schema"
)

// Add validates a new job in Java's order (console.md §5 add, checks 1–14)
// and inserts it, returning its id. The trigger fields are stored as given
// (the console never sends them, so a new job starts stopped); the write
// shares the schedule-lock transaction because a job added running would
// otherwise be read by a round that has not seen it.
func (s *Service) Add(ctx context.Context, j schema.JobInfo, may MayUseGroup) (int, error) {
	var id int
	err := s.underLock(ctx, func(tx *schema.Store) error {
		var err error
		id, err = s.add(ctx, tx, j, may)
		return err
	})
	if err != nil {
		return 0, err
	}
	s.audit(ctx, ActionJobSave, id, jobDetail(j))
	return id, nil
}

// add is Add inside the caller's schedule-lock transaction.
func (s *Service) add(ctx context.Context, tx *schema.Store, j schema.JobInfo, may MayUseGroup) (int, error) {
	if _, err := tx.GroupLoad(ctx, j.JobGroup); err != nil {
		if errors.Is(err, schema.ErrNotFound) {
			return 0, s.refuse("system_please_choose", "jobinfo_field_jobgroup")
		}
		return 0, err
	}
	if err := s.checkDescAuthor(j); err != nil {
		return 0, err
	}
	if err := s.checkSchedule(j, false); err != nil {
		return 0, err
	}
	if !knownGlueType(j.GlueType) {
		return 0, s.refuse("jobinfo_field_gluetype", "system_unvalid")
	}
	if j.GlueType == GlueBean && blank(j.ExecutorHandler) {
		return 0, &Refusal{Msg: s.texts.Text("system_please_input") + "JobHandler"}
	}
	if j.GlueType == GlueShell && j.GlueSource != nil {
		src := strings.ReplaceAll(*j.GlueSource, "\r", "")
		j.GlueSource = &src
	}
	if err := s.checkStrategies(j); err != nil {
		return 0, err
	}
	children, err := s.checkChildren(ctx, tx, j.ChildJobID, 0, may)
	if err != nil {
		return 0, err
	}
	j.ChildJobID = children
	j.ExecutorHandler = s.handler(j.ExecutorHandler)
	if err := s.checkLengths(j); err != nil {
		return 0, err
	}
	now := s.now()
	j.AddTime, j.UpdateTime, j.GlueUpdatetime = &now, &now, &now
	id, err := tx.JobSave(ctx, j)
	if err != nil {
		return 0, fmt.Errorf("add job: %w", err)
	}
	if id < 1 {
		return 0, s.refuse("jobinfo_field_add", "system_fail")
	}
	return id, nil
}

// checkDescAuthor is checks 2–3, shared by add and update.
func (s *Service) checkDescAuthor(j schema.JobInfo) error {
	if javaTrim(j.JobDesc) == "" {
		return s.refuse("system_please_input", "jobinfo_field_jobdesc")
	}
	if blank(j.Author) {
		return s.refuse("system_please_input", "jobinfo_field_author")
	}
	return nil
}

// handler is the JobHandler as stored: trimmed under Rules.TrimHandler. A
// missing one stays missing (3.4.2 fails there with a NullPointerException).
func (s *Service) handler(h *string) *string {
	if !s.rules.TrimHandler || h == nil {
		return h
	}
	t := javaTrim(*h)
	return &t
}
