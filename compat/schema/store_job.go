package schema

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"time"

	sq "github.com/Masterminds/squirrel"
)

// ErrNoScheduleTimezone is a job with a time zone written to a database
// whose xxl_job_info has no schedule_timezone column.
var ErrNoScheduleTimezone = errors.New("xxl_job_info has no schedule_timezone column")

// jobColumns are the xxl_job_info columns of both Java generations, in
// the order scanJob reads them; jobColumnsZoned adds the optional
// schedule_timezone, read and written where the database has it.
var jobColumns = []string{"id", "job_group", "job_desc", "add_time", "update_time", "author", "alarm_email",
	"schedule_type", "schedule_conf", "misfire_strategy", "executor_route_strategy", "executor_handler",
	"executor_param", "executor_block_strategy", "executor_timeout", "executor_fail_retry_count",
	"glue_type", "glue_source", "glue_remark", "glue_updatetime", "child_jobid",
	"trigger_status", "trigger_last_time", "trigger_next_time"}

var jobColumnsZoned = append(slices.Clone(jobColumns), ColScheduleTimezone)

// HasScheduleTimezone tells whether the database has the optional
// xxl_job_info.schedule_timezone column (per-job time zones).
func (s *Store) HasScheduleTimezone() bool { return s.shape.ScheduleTimezone }

// jobCols are the columns jobs are read and written with.
func (s *Store) jobCols() []string {
	if s.shape.ScheduleTimezone {
		return jobColumnsZoned
	}
	return jobColumns
}

func (s *Store) scanJob(sc scanner) (JobInfo, error) {
	var j JobInfo
	dest := []any{&j.ID, &j.JobGroup, &j.JobDesc, s.scanTime(&j.AddTime), s.scanTime(&j.UpdateTime),
		&j.Author, &j.AlarmEmail, &j.ScheduleType, &j.ScheduleConf, &j.MisfireStrategy,
		&j.ExecutorRouteStrategy, &j.ExecutorHandler, &j.ExecutorParam, &j.ExecutorBlockStrategy,
		&j.ExecutorTimeout, &j.ExecutorFailRetryCount, &j.GlueType, &j.GlueSource, &j.GlueRemark,
		s.scanTime(&j.GlueUpdatetime), &j.ChildJobID, &j.TriggerStatus, &j.TriggerLastTime, &j.TriggerNextTime}
	if s.shape.ScheduleTimezone {
		dest = append(dest, &j.ScheduleTimezone)
	}
	err := sc.Scan(dest...)
	return j, err
}

func (s *Store) jobs(ctx context.Context, b sq.SelectBuilder) ([]JobInfo, error) {
	return selectAll(ctx, s, b, s.scanJob)
}

func (s *Store) jobSelect() sq.SelectBuilder { return s.sb.Select(s.jobCols()...).From("xxl_job_info") }

// JobFilter holds the optional pageList conditions of xxl_job_info; the
// zero value matches every job.
type JobFilter struct {
	JobGroup        int   // > 0 to filter
	JobGroups       []int // non-nil: only jobs of these groups (a normal user's permitted groups)
	TriggerStatus   *int  // non-nil to filter (the console's -1 "all" is nil)
	JobDesc         string
	ExecutorHandler string
	Author          string
}

func (f JobFilter) apply(s *Store, b sq.SelectBuilder) sq.SelectBuilder {
	if f.JobGroup > 0 {
		b = b.Where(sq.Eq{"job_group": f.JobGroup})
	}
	if f.JobGroups != nil {
		b = b.Where(inOrNone("job_group", f.JobGroups))
	}
	if f.TriggerStatus != nil {
		b = b.Where(sq.Eq{"trigger_status": *f.TriggerStatus})
	}
	if f.JobDesc != "" {
		b = b.Where(s.likeContains("job_desc", f.JobDesc))
	}
	if f.ExecutorHandler != "" {
		b = b.Where(s.likeContains("executor_handler", f.ExecutorHandler))
	}
	if f.Author != "" {
		b = b.Where(s.likeContains("author", f.Author))
	}
	return b
}

// JobPageList is pageList and pageListCount (newest id first), with an
// exact total and no time bound.
func (s *Store) JobPageList(ctx context.Context, offset, size int, f JobFilter) ([]JobInfo, int, error) {
	list, t, err := s.JobPage(ctx, offset, size, f, Bounds{})
	return list, t.N, err
}

// JobPage is pageList and pageListCount under time bounds, as LogPage: the
// page's ids first (the primary key walked newest first), then its rows,
// the total from the look-ahead or a count within bd.Count.
func (s *Store) JobPage(ctx context.Context, offset, size int, f JobFilter, bd Bounds) ([]JobInfo, Total, error) {
	ids, t, err := s.pagedIDs(ctx, f.apply(s, s.sb.Select("id").From("xxl_job_info")).OrderBy("id DESC"), offset, size, bd)
	if err != nil {
		return nil, Total{}, fmt.Errorf("page jobs: %w", err)
	}
	if !t.Exact {
		if t, err = s.boundedCount(ctx, f.apply(s, s.sb.Select("count(1)").From("xxl_job_info")), t, bd); err != nil {
			return nil, Total{}, fmt.Errorf("count jobs: %w", err)
		}
	}
	byID := make(map[int]JobInfo, len(ids))
	err = inChunks(ids, func(chunk []int64) error {
		bctx, cancel, b := s.bounded(ctx, bd.Statement, s.jobSelect().Where(sq.Eq{"id": chunk}))
		defer cancel()
		list, err := s.jobs(bctx, b)
		for _, j := range list {
			byID[j.ID] = j
		}
		return boundErr(ctx, bctx, bd.Statement, err)
	})
	if err != nil {
		return nil, Total{}, fmt.Errorf("page jobs: %w", err)
	}
	out := make([]JobInfo, 0, len(ids))
	for _, id := range ids {
		if j, ok := byID[int(id)]; ok {
			out = append(out, j)
		}
	}
	return out, t, nil
}

// JobCount is pageListCount alone (group removal uses it).
func (s *Store) JobCount(ctx context.Context, f JobFilter) (int, error) {
	n, err := s.count(ctx, f.apply(s, s.sb.Select("count(1)").From("xxl_job_info")))
	if err != nil {
		return 0, fmt.Errorf("count jobs: %w", err)
	}
	return n, nil
}

// jobValues are the values of jobCols()[1:]. A time zone where the
// database has no column for it is refused, not dropped.
func (s *Store) jobValues(j JobInfo) ([]any, error) {
	v := []any{j.JobGroup, j.JobDesc, s.dbTimePtr(j.AddTime), s.dbTimePtr(j.UpdateTime), j.Author, j.AlarmEmail,
		j.ScheduleType, j.ScheduleConf, j.MisfireStrategy, j.ExecutorRouteStrategy, j.ExecutorHandler,
		j.ExecutorParam, j.ExecutorBlockStrategy, j.ExecutorTimeout, j.ExecutorFailRetryCount,
		j.GlueType, j.GlueSource, j.GlueRemark, s.dbTimePtr(j.GlueUpdatetime), j.ChildJobID,
		j.TriggerStatus, j.TriggerLastTime, j.TriggerNextTime}
	switch {
	case s.shape.ScheduleTimezone:
		v = append(v, j.ScheduleTimezone)
	case j.ScheduleTimezone != nil:
		return nil, ErrNoScheduleTimezone
	}
	return v, nil
}

// JobSave is save: every column but id; returns the generated id.
func (s *Store) JobSave(ctx context.Context, j JobInfo) (int, error) {
	vals, err := s.jobValues(j)
	if err != nil {
		return 0, fmt.Errorf("save job %q: %w", j.JobDesc, err)
	}
	id, err := s.d.insertID(ctx, s.q, s.sb.Insert("xxl_job_info").Columns(s.jobCols()[1:]...).Values(vals...))
	if err != nil {
		return 0, fmt.Errorf("save job %q: %w", j.JobDesc, err)
	}
	s.noteJobWrite(int(id))
	return int(id), nil
}

// JobLoad is loadById; ErrNotFound when absent.
func (s *Store) JobLoad(ctx context.Context, id int) (JobInfo, error) {
	j, err := s.scanJob(s.queryRow(ctx, s.jobSelect().Where(sq.Eq{"id": id})))
	if err != nil {
		return JobInfo{}, notFound(err, fmt.Sprintf("load job %d", id))
	}
	return j, nil
}

// JobLoadForUpdate is loadById as a locking read (SELECT … FOR UPDATE where
// the backend has row locks): inside the schedule-lock transaction it reads
// the latest committed row and, on a multi-primary cluster, makes a
// concurrent write of the same job on another node abort one of the two.
func (s *Store) JobLoadForUpdate(ctx context.Context, id int) (JobInfo, error) {
	query, args, err := s.jobSelect().Where(sq.Eq{"id": id}).Suffix(s.d.lockSuffix()).ToSql()
	if err != nil {
		return JobInfo{}, err
	}
	j, err := s.scanJob(s.rowOf(ctx, query, args...))
	if err != nil {
		return JobInfo{}, notFound(err, fmt.Sprintf("load job %d for update", id))
	}
	return j, nil
}

// JobUpdateGlue writes the GLUE source columns only (the GLUE IDE's save).
// Java rewrites the whole row from a copy read earlier, which can undo a
// schedule round's trigger times; these columns are all the save changes.
func (s *Store) JobUpdateGlue(ctx context.Context, j JobInfo) (int64, error) {
	n, err := s.exec(ctx, s.sb.Update("xxl_job_info").Set("glue_source", j.GlueSource).Set("glue_remark", j.GlueRemark).
		Set("glue_updatetime", s.dbTimePtr(j.GlueUpdatetime)).Set("update_time", s.dbTimePtr(j.UpdateTime)).
		Where(sq.Eq{"id": j.ID}))
	if err != nil {
		return 0, fmt.Errorf("update glue of job %d: %w", j.ID, err)
	}
	return n, nil
}

// JobUpdate is update: every column except id and add_time (with
// schedule_timezone where the database has it; a Java admin's update
// leaves that column alone).
func (s *Store) JobUpdate(ctx context.Context, j JobInfo) (int64, error) {
	vals, err := s.jobValues(j)
	if err != nil {
		return 0, fmt.Errorf("update job %d: %w", j.ID, err)
	}
	b := s.sb.Update("xxl_job_info")
	for i, col := range s.jobCols()[1:] {
		if col == "add_time" {
			continue
		}
		b = b.Set(col, vals[i])
	}
	n, err := s.exec(ctx, b.Where(sq.Eq{"id": j.ID}))
	if err != nil {
		return 0, fmt.Errorf("update job %d: %w", j.ID, err)
	}
	s.noteJobWrite(j.ID)
	return n, nil
}

// JobDelete is delete.
func (s *Store) JobDelete(ctx context.Context, id int) (int64, error) {
	n, err := s.exec(ctx, s.sb.Delete("xxl_job_info").Where(sq.Eq{"id": id}))
	if err != nil {
		return 0, fmt.Errorf("delete job %d: %w", id, err)
	}
	return n, nil
}

// JobsByGroup is getJobsByGroup (id order).
func (s *Store) JobsByGroup(ctx context.Context, group int) ([]JobInfo, error) {
	j, err := s.jobs(ctx, s.jobSelect().Where(sq.Eq{"job_group": group}).OrderBy("id ASC"))
	if err != nil {
		return nil, fmt.Errorf("jobs of group %d: %w", group, err)
	}
	return j, nil
}

// JobFindAllCount is findAllCount.
// JobCountBounded is JobFindAllCount for the dashboard. A table the
// server estimates at under bigJobTable rows is counted as Java counts it;
// a larger one is counted exactly when that takes the database at most
// bound, else its count is the server's estimate (exact false): a million
// jobs take MariaDB ~0.4 s to count, on every visit of the dashboard.
func (s *Store) JobCountBounded(ctx context.Context, bound time.Duration) (n int, exact bool, err error) {
	est, err := s.rowsEstimate(ctx, "xxl_job_info")
	if err != nil {
		return 0, false, err
	}
	if est < bigJobTable {
		n, err := s.JobFindAllCount(ctx)
		return n, err == nil, err
	}
	t, err := s.boundedCount(ctx, s.sb.Select("count(1)").From("xxl_job_info"), Total{N: int(est)}, Bounds{Statement: bound, Count: bound})
	if err != nil {
		return 0, false, fmt.Errorf("count all jobs: %w", err)
	}
	return t.N, t.Exact, nil
}

// bigJobTable is the estimated size from which the dashboard's job count
// is bounded.
const bigJobTable = 100_000

func (s *Store) JobFindAllCount(ctx context.Context) (int, error) {
	n, err := s.count(ctx, s.sb.Select("count(1)").From("xxl_job_info"))
	if err != nil {
		return 0, fmt.Errorf("count all jobs: %w", err)
	}
	return n, nil
}
