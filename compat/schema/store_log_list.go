package schema

import (
	"context"
	"fmt"
	"time"

	sq "github.com/Masterminds/squirrel"
)

// LogFilter holds the optional pageList conditions of xxl_job_log.
// The zero value matches every log.
type LogFilter struct {
	JobGroup  int   // > 0 to filter; 2.4.2 ignores it when JobID > 0 (see GroupWithJob)
	JobGroups []int // non-nil: only logs of these groups (a normal user's permitted groups)
	JobID     int   // > 0 to filter
	From, To  *time.Time
	LogStatus int // 1 success, 2 failed, 3 running, other: all
	// GroupWithJob applies JobGroup together with JobID, as 3.4.2's
	// pageList does; 2.4.2's uses the group only without a job.
	GroupWithJob bool
	// NewestID orders LogPageList by id, newest first (3.4.2), instead of
	// by trigger time (2.4.2).
	NewestID bool
}

func (s *Store) applyLogFilter(b sq.SelectBuilder, f LogFilter) sq.SelectBuilder {
	if f.JobGroup > 0 && (f.JobID == 0 || f.GroupWithJob) {
		b = b.Where(sq.Eq{"job_group": f.JobGroup})
	}
	if f.JobGroups != nil {
		b = b.Where(inOrNone("job_group", f.JobGroups))
	}
	if f.JobID > 0 {
		b = b.Where(sq.Eq{"job_id": f.JobID})
	}
	if f.From != nil {
		b = b.Where(sq.GtOrEq{"trigger_time": s.dbTime(*f.From)})
	}
	if f.To != nil {
		b = b.Where(sq.LtOrEq{"trigger_time": s.dbTime(*f.To)})
	}
	switch f.LogStatus {
	case 1:
		b = b.Where(sq.Eq{"handle_code": 200})
	case 2:
		b = b.Where("(trigger_code NOT IN (0, 200) OR handle_code NOT IN (0, 200))")
	case 3:
		b = b.Where(sq.Eq{"trigger_code": 200, "handle_code": 0})
	}
	return b
}

// LogPageList is pageList and pageListCount (newest trigger first), with
// an exact total and no time bound.
func (s *Store) LogPageList(ctx context.Context, offset, size int, f LogFilter) ([]JobLog, int, error) {
	list, t, err := s.LogPage(ctx, offset, size, f, Bounds{})
	return list, t.N, err
}

// LogPage is pageList and pageListCount under time bounds. The page is
// found by ids alone (what the order's index holds, so a deep offset walks
// the index and not the rows and their messages), then its rows are read
// by id. The total needs no count when the list ends within the look-ahead;
// otherwise it is counted, within bd.Count when that is set.
func (s *Store) LogPage(ctx context.Context, offset, size int, f LogFilter, bd Bounds) ([]JobLog, Total, error) {
	order := "trigger_time DESC"
	if f.NewestID {
		order = "id DESC"
	}
	ids, t, err := s.pagedIDs(ctx, s.applyLogFilter(s.sb.Select("id").From("xxl_job_log"), f).OrderBy(order), offset, size, bd)
	if err != nil {
		return nil, Total{}, fmt.Errorf("page logs: %w", err)
	}
	if !t.Exact {
		if t, err = s.boundedCount(ctx, s.applyLogFilter(s.sb.Select("count(1)").From("xxl_job_log"), f), t, bd); err != nil {
			return nil, Total{}, fmt.Errorf("count logs: %w", err)
		}
	}
	list, err := s.logsByIDs(ctx, ids, bd)
	if err != nil {
		return nil, Total{}, fmt.Errorf("page logs: %w", err)
	}
	return list, t, nil
}

// logsByIDs reads the rows of ids in their order (ids a page found and a
// retention deleted since are left out).
func (s *Store) logsByIDs(ctx context.Context, ids []int64, bd Bounds) ([]JobLog, error) {
	byID := make(map[int64]JobLog, len(ids))
	err := inChunks(ids, func(chunk []int64) error {
		bctx, cancel, b := s.bounded(ctx, bd.Statement, s.sb.Select(logColumns...).From("xxl_job_log").Where(sq.Eq{"id": chunk}))
		defer cancel()
		logs, err := s.logs(bctx, b)
		for _, l := range logs {
			byID[l.ID] = l
		}
		return boundErr(ctx, bctx, bd.Statement, err)
	})
	if err != nil {
		return nil, err
	}
	out := make([]JobLog, 0, len(ids))
	for _, id := range ids {
		if l, ok := byID[id]; ok {
			out = append(out, l)
		}
	}
	return out, nil
}
