package jobs

import (
	"context"
	"fmt"
	"time"

	"github.com/xxl-admin-go/xxl-admin-go/compat/schema"
	"github.com/xxl-admin-go/xxl-admin-go/core/cron"
)

// preRead is the schedule loop's read-ahead window: a job started or
// rescheduled now first fires after it, so no round has already passed its
// first fire time (Java: now + PRE_READ_MS).
const preRead = 5 * time.Second

// nextAfterPreRead is the next fire time of j after now + 5 s, in epoch ms.
func (s *Service) nextAfterPreRead(j schema.JobInfo) (int64, bool) {
	t, ok, err := cron.NextTimeWith(s.fixRate, j.ScheduleType, str(j.ScheduleConf), s.now().Add(preRead), s.loc)
	if err != nil || !ok {
		return 0, false
	}
	return t.UnixMilli(), true
}

// Start switches a job on with its first fire time after now + 5 s
// (console.md §5 start). A NONE job, or one without a next fire time, is
// refused; an unknown id is ErrNotFound.
func (s *Service) Start(ctx context.Context, id int) error {
	err := s.underLock(ctx, func(tx *schema.Store) error {
		j, err := tx.JobLoadForUpdate(ctx, id)
		if err != nil {
			return notFound(err, id)
		}
		return s.start(ctx, tx, j)
	})
	if err != nil {
		return err
	}
	s.audit(ctx, ActionJobStart, id, nil)
	return nil
}

// start switches j, read for update in the caller's schedule-lock
// transaction, on.
func (s *Service) start(ctx context.Context, tx *schema.Store, j schema.JobInfo) error {
	if j.ScheduleType != cron.TypeCron && j.ScheduleType != cron.TypeFixRate {
		return s.refuse("schedule_type_none_limit_start")
	}
	next, ok := s.nextAfterPreRead(j)
	if !ok {
		return s.refuse("schedule_type", "system_unvalid")
	}
	now := s.now()
	j.TriggerStatus, j.TriggerLastTime, j.TriggerNextTime, j.UpdateTime = 1, 0, next, &now
	if _, err := tx.JobUpdate(ctx, j); err != nil {
		return fmt.Errorf("start job %d: %w", j.ID, err)
	}
	return nil
}

// Stop switches a job off (console.md §5 stop); an unknown id is
// ErrNotFound.
func (s *Service) Stop(ctx context.Context, id int) error {
	err := s.underLock(ctx, func(tx *schema.Store) error {
		j, err := tx.JobLoadForUpdate(ctx, id)
		if err != nil {
			return notFound(err, id)
		}
		return s.stop(ctx, tx, j)
	})
	if err != nil {
		return err
	}
	s.audit(ctx, ActionJobStop, id, nil)
	return nil
}

// stop switches j, read for update in the caller's schedule-lock
// transaction, off.
func (s *Service) stop(ctx context.Context, tx *schema.Store, j schema.JobInfo) error {
	now := s.now()
	j.TriggerStatus, j.TriggerLastTime, j.TriggerNextTime, j.UpdateTime = 0, 0, 0, &now
	if _, err := tx.JobUpdate(ctx, j); err != nil {
		return fmt.Errorf("stop job %d: %w", j.ID, err)
	}
	return nil
}

// Remove deletes a job, then its logs and GLUE versions (console.md §5
// remove); an unknown id is not an error. Only the job row is deleted
// under the schedule lock: a job's logs can be many, and deleting them
// must not hold up scheduling.
func (s *Service) Remove(ctx context.Context, id int) error {
	var removed bool
	err := s.underLock(ctx, func(tx *schema.Store) error {
		n, err := tx.JobDelete(ctx, id)
		removed = n > 0
		return err
	})
	if err != nil {
		return err
	}
	if !removed {
		return nil
	}
	if _, err := s.store.LogDeleteByJob(ctx, id); err != nil {
		return err
	}
	if _, err := s.store.GlueDeleteByJob(ctx, id); err != nil {
		return err
	}
	s.audit(ctx, ActionJobRemove, id, nil)
	return nil
}
