package jobs

import (
	"context"
	"errors"
	"fmt"

	"github.com/xxl-admin-go/xxl-admin-go/compat/schema"
)

// Update validates and writes a job's editable fields (console.md §5
// update). The stored row is read with a locking read inside the
// schedule-lock transaction, so the fields update does not own — trigger
// status, last trigger time, GLUE source — are written back as they are
// now, never from a stale copy. A running job whose schedule changed gets
// its next fire time after now + 5 s (the pre-read window).
func (s *Service) Update(ctx context.Context, j schema.JobInfo, may MayUseGroup) error {
	err := s.underLock(ctx, func(tx *schema.Store) error {
		return s.update(ctx, tx, j, may)
	})
	if err != nil {
		return err
	}
	s.audit(ctx, ActionJobUpdate, j.ID, jobDetail(j))
	return nil
}

// update is Update inside the caller's schedule-lock transaction.
func (s *Service) update(ctx context.Context, tx *schema.Store, j schema.JobInfo, may MayUseGroup) error {
	if err := s.checkDescAuthor(j); err != nil {
		return err
	}
	if err := s.checkSchedule(j, true); err != nil {
		return err
	}
	if err := s.checkStrategies(j); err != nil {
		return err
	}
	children, err := s.checkChildren(ctx, tx, j.ChildJobID, j.ID, may)
	if err != nil {
		return err
	}
	if _, err := tx.GroupLoad(ctx, j.JobGroup); err != nil {
		if errors.Is(err, schema.ErrNotFound) {
			return s.refuse("jobinfo_field_jobgroup", "system_unvalid")
		}
		return err
	}
	old, err := tx.JobLoadForUpdate(ctx, j.ID)
	if errors.Is(err, schema.ErrNotFound) {
		return s.refuseAs(ErrNotFound, "jobinfo_field_id", "system_not_found")
	}
	if err != nil {
		return err
	}
	next := old.TriggerNextTime
	if old.TriggerStatus == 1 && (old.ScheduleType != j.ScheduleType || str(old.ScheduleConf) != str(j.ScheduleConf)) {
		t, ok := s.nextAfterPreRead(j)
		if !ok {
			return s.refuse("schedule_type", "system_unvalid")
		}
		next = t
	}
	now := s.now()
	old.JobGroup, old.JobDesc, old.Author, old.AlarmEmail = j.JobGroup, j.JobDesc, j.Author, j.AlarmEmail
	old.ScheduleType, old.ScheduleConf, old.MisfireStrategy = j.ScheduleType, j.ScheduleConf, j.MisfireStrategy
	old.ExecutorRouteStrategy, old.ExecutorHandler, old.ExecutorParam = j.ExecutorRouteStrategy, s.handler(j.ExecutorHandler), j.ExecutorParam
	old.ExecutorBlockStrategy, old.ExecutorTimeout, old.ExecutorFailRetryCount = j.ExecutorBlockStrategy, j.ExecutorTimeout, j.ExecutorFailRetryCount
	old.ChildJobID, old.TriggerNextTime, old.UpdateTime = children, next, &now
	if err := s.checkLengths(old); err != nil {
		return err
	}
	if _, err := tx.JobUpdate(ctx, old); err != nil {
		return fmt.Errorf("update job %d: %w", j.ID, err)
	}
	return nil
}
