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
// by id. The total needs no count when the list ends within the look-ahead
// or when the id query read every matching id anyway (a sorted plan on
// MariaDB); otherwise it is counted, within bd.Count when that is set.
func (s *Store) LogPage(ctx context.Context, offset, size int, f LogFilter, bd Bounds) ([]JobLog, Total, error) {
	l, err := s.logList(ctx, f)
	if err != nil {
		return nil, Total{}, fmt.Errorf("page logs: %w", err)
	}
	ids, t, err := s.logPageIDs(ctx, l, offset, size, bd)
	if err != nil {
		return nil, Total{}, fmt.Errorf("page logs: %w", err)
	}
	if !t.Exact {
		if t, err = s.boundedCount(ctx, s.logCountQuery(f), t, bd); err != nil {
			return nil, Total{}, fmt.Errorf("count logs: %w", err)
		}
	}
	list, err := s.logsByIDs(ctx, ids, bd)
	if err != nil {
		return nil, Total{}, fmt.Errorf("page logs: %w", err)
	}
	return list, t, nil
}

// logPageIDs finds a page's ids (and the look-ahead's) by the cheapest of
// three ways that give the same page: a sorted plan reads every matching
// id anyway, so on MariaDB it also gives the exact total (found rows); a
// deep page of 3.4.2's list of all logs is reached by counting thin index
// entries instead of walking the rows (store_log_deep.go); otherwise the
// id query walks to the page.
func (s *Store) logPageIDs(ctx context.Context, l logList, offset, size int, bd Bounds) ([]int64, Total, error) {
	if l.sorts && s.d.backend() == MySQL {
		if maria, err := s.isMariaDB(ctx); err == nil && maria {
			return s.pagedIDsFound(ctx, l.ids, offset, size, bd)
		}
	}
	if l.newestAll && offset >= deepFrom && s.shape.LogCodeIndex && s.d.backend() == MySQL {
		return s.deepNewestIDs(ctx, l.ids, offset, size, bd)
	}
	return s.pagedIDs(ctx, l.ids, offset, size, bd)
}

// logList is a log list's id query and what its plan does.
type logList struct {
	ids sq.SelectBuilder // the ids in the list's order, unpaged
	// sorts: the named index reads every matching id, which are then
	// sorted (a time window under 3.4.2's order by id, one small job
	// under 2.4.2's order by time).
	sorts bool
	// newestAll: 3.4.2's order by id without a filter (the primary key).
	newestAll bool
}

// logIDsQuery selects the ids of a log list in its order, unpaged.
func (s *Store) logIDsQuery(ctx context.Context, f LogFilter) (sq.SelectBuilder, error) {
	l, err := s.logList(ctx, f)
	return l.ids, err
}

// logList builds a log list's id query.
//
// On MySQL and MariaDB it names the index, because MariaDB's choice by
// cost goes wrong both ways on a large table: with a filter it cannot
// estimate (a group, "failed") it may read the whole table and sort it
// rather than walk I_trigger_time to the page, and with 3.4.2's order by
// id it walks the primary key from the newest row even for a time window
// long past (seen: 0.7 s for a one-day window on 1M rows). PostgreSQL's
// and SQLite's planners are left alone (their statistics know how
// trigger_time follows id); the plans are pinned in plan_test.go.
func (s *Store) logList(ctx context.Context, f LogFilter) (logList, error) {
	order := "trigger_time DESC"
	if f.NewestID {
		order = "id DESC"
	}
	index := ""
	if s.d.backend() == MySQL {
		var err error
		if index, err = s.logListIndex(ctx, f); err != nil {
			return logList{}, err
		}
	}
	from := "xxl_job_log"
	if index != "" {
		from += " FORCE INDEX (" + index + ")"
	}
	l := logList{ids: s.applyLogFilter(s.sb.Select("id").From(from), f).OrderBy(order)}
	l.sorts = f.NewestID && index == "I_trigger_time" || !f.NewestID && index == "I_jobid"
	l.newestAll = f.NewestID && f.JobGroup <= 0 && f.JobGroups == nil && f.JobID <= 0 && f.From == nil && f.To == nil &&
		f.LogStatus != 1 && f.LogStatus != 2 && f.LogStatus != 3
	return l, nil
}

// smallJob is the number of logs below which a job's list reads all its
// ids from I_jobid and sorts them, rather than walking I_trigger_time.
const smallJob = 20_000

// logListIndex is the index a MySQL log list reads ("" for the
// optimizer's choice).
func (s *Store) logListIndex(ctx context.Context, f LogFilter) (string, error) {
	job := f.JobID > 0 && s.shape.LogJobIndex
	byTime := s.shape.LogTimeIndex
	switch {
	case f.NewestID && job:
		return "I_jobid", nil // ordered by id within the job: no sort
	case f.NewestID && f.From != nil && f.To != nil && byTime:
		if force, err := s.windowByIndex(ctx, *f.From, *f.To); err != nil || force {
			return "I_trigger_time", err
		}
		return "", nil
	case f.NewestID:
		return "", nil // the primary key from the newest row
	case job:
		// A small job's ids are few to sort; a large one's rows are close
		// together on I_trigger_time.
		var n int
		if err := s.queryRow(ctx, s.sb.Select("count(1)").FromSelect(
			page(s.sb.Select("1").From("xxl_job_log").Where(sq.Eq{"job_id": f.JobID}), 0, smallJob), "t")).Scan(&n); err != nil {
			return "", fmt.Errorf("size of job %d's logs: %w", f.JobID, err)
		}
		if n < smallJob || !byTime {
			return "I_jobid", nil
		}
		return "I_trigger_time", nil
	case f.LogStatus == 3 || !byTime:
		return "", nil // running: few rows, found by I_handle_code
	default:
		return "I_trigger_time", nil
	}
}

// windowByIndex tells whether 3.4.2's list by id reads a time window's ids
// from I_trigger_time (and sorts them) rather than walking the primary key
// from the newest row: trigger_time follows id closely, so the rows newer
// than the window are about as many as its time after the window, and
// when the window is short beside that (under a fifth) the index wins.
// Two index dives on I_trigger_time.
func (s *Store) windowByIndex(ctx context.Context, from, to time.Time) (bool, error) {
	var oldest, newest *time.Time
	if err := s.queryRow(ctx, s.sb.Select("MIN(trigger_time)", "MAX(trigger_time)").From("xxl_job_log")).
		Scan(s.scanTime(&oldest), s.scanTime(&newest)); err != nil {
		return false, fmt.Errorf("time span of logs: %w", err)
	}
	if oldest == nil || newest == nil || !to.Before(*newest) {
		return false, nil
	}
	if from.Before(*oldest) {
		from = *oldest
	}
	return to.Sub(from) < newest.Sub(to)*5, nil
}

// logCountQuery counts a log list.
func (s *Store) logCountQuery(f LogFilter) sq.SelectBuilder {
	return s.applyLogFilter(s.sb.Select("count(1)").From("xxl_job_log"), f)
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
