package schema

import (
	"context"
	"fmt"

	sq "github.com/Masterminds/squirrel"
)

// AddScheduleTimezoneSQL is the statement that adds the optional
// xxl_job_info.schedule_timezone column on a backend (docs/job-time-zones.md
// prints these three): NULL for every existing job, so every job keeps
// firing in the admin's zone until one is given a zone of its own. Java
// admins read and write xxl_job_info by explicit column lists and are not
// affected by the column.
func AddScheduleTimezoneSQL(b Backend) string {
	if b == MySQL {
		return "ALTER TABLE xxl_job_info ADD COLUMN schedule_timezone varchar(64) DEFAULT NULL COMMENT 'IANA time zone of the CRON schedule, NULL for the admin zone'"
	}
	return "ALTER TABLE xxl_job_info ADD COLUMN schedule_timezone varchar(64) DEFAULT NULL"
}

// AddScheduleTimezone adds the column with AddScheduleTimezoneSQL unless
// it exists, and reads and writes jobs with it from then on. Prepare
// never alters tables: this is for an operator's explicit step (and tests).
func (s *Store) AddScheduleTimezone(ctx context.Context) error {
	cols, err := s.d.columns(ctx, s.q, "xxl_job_info")
	if err != nil {
		return err
	}
	if _, ok := cols[ColScheduleTimezone]; !ok {
		if _, err := s.q.ExecContext(ctx, AddScheduleTimezoneSQL(s.d.backend())); err != nil {
			return fmt.Errorf("add xxl_job_info.%s: %w", ColScheduleTimezone, err)
		}
	}
	s.shape.ScheduleTimezone = true
	return nil
}

// ZonedJob is a running CRON job with a time zone of its own, as the
// check for admins that ignore the zone reads it.
type ZonedJob struct {
	ID              int
	ScheduleConf    string
	Zone            string
	TriggerNextTime int64 // epoch ms
}

// JobsZoned lists the running CRON jobs whose schedule_timezone is set, in
// id order; none on a database without the column.
func (s *Store) JobsZoned(ctx context.Context) ([]ZonedJob, error) {
	if !s.shape.ScheduleTimezone {
		return nil, nil
	}
	b := s.sb.Select("id", "schedule_conf", ColScheduleTimezone, "trigger_next_time").From("xxl_job_info").
		Where(sq.Eq{"trigger_status": 1, "schedule_type": "CRON"}).
		Where(sq.NotEq{ColScheduleTimezone: nil}).Where(sq.NotEq{ColScheduleTimezone: ""}).OrderBy("id ASC")
	jobs, err := selectAll(ctx, s, b, func(sc scanner) (ZonedJob, error) {
		var j ZonedJob
		var conf *string
		err := sc.Scan(&j.ID, &conf, &j.Zone, &j.TriggerNextTime)
		if conf != nil {
			j.ScheduleConf = *conf
		}
		return j, err
	})
	if err != nil {
		return nil, fmt.Errorf("zoned jobs: %w", err)
	}
	return jobs, nil
}
