package schema

import (
	"context"
	"fmt"
	"sync"

	sq "github.com/Masterminds/squirrel"
)

// JobDue is what a schedule round's due index keeps of a job.
type JobDue struct {
	ID     int
	Status int
	Next   int64 // trigger_next_time, epoch ms
}

func scanJobDue(sc scanner) (JobDue, error) {
	var j JobDue
	err := sc.Scan(&j.ID, &j.Status, &j.Next)
	return j, err
}

var jobDueColumns = []string{"id", "trigger_status", "trigger_next_time"}

// JobDueFrom reads up to size jobs with id > after, in id order (a range of
// the primary key, the only index xxl_job_info has in either generation).
func (s *Store) JobDueFrom(ctx context.Context, after, size int) ([]JobDue, error) {
	out, err := selectAll(ctx, s, page(s.sb.Select(jobDueColumns...).From("xxl_job_info").
		Where(sq.Gt{"id": after}).OrderBy("id ASC"), 0, size), scanJobDue)
	if err != nil {
		return nil, fmt.Errorf("read job schedules after id %d: %w", after, err)
	}
	return out, nil
}

// JobDueByID reads the given jobs by key (a plain read, no lock); jobs
// that no longer exist are absent.
func (s *Store) JobDueByID(ctx context.Context, ids []int) ([]JobDue, error) {
	var out []JobDue
	err := inChunks(ids, func(chunk []int) error {
		got, err := selectAll(ctx, s, s.sb.Select(jobDueColumns...).From("xxl_job_info").Where(sq.Eq{"id": chunk}), scanJobDue)
		out = append(out, got...)
		return err
	})
	if err != nil {
		return nil, fmt.Errorf("read schedules of %d jobs: %w", len(ids), err)
	}
	return out, nil
}

// JobMaxID is the highest job id, 0 on an empty table.
func (s *Store) JobMaxID(ctx context.Context) (int, error) {
	var id *int64
	if err := s.queryRow(ctx, s.sb.Select("MAX(id)").From("xxl_job_info")).Scan(&id); err != nil {
		return 0, fmt.Errorf("highest job id: %w", err)
	}
	if id == nil {
		return 0, nil
	}
	return int(*id), nil
}

// JobScheduleQueryIDs is JobScheduleQuery restricted to the given ids (in
// ascending order): the jobs among them running and due by maxNextTime, by
// primary-key lookups, as a locking read where the backend has row locks —
// so a round locks the rows it fires, not every row a scan passes.
func (s *Store) JobScheduleQueryIDs(ctx context.Context, ids []int, maxNextTime int64) ([]JobInfo, error) {
	cols := scheduleColumns
	if s.shape.ScheduleTimezone {
		cols = scheduleColumnsZoned
	}
	var out []JobInfo
	err := inChunks(ids, func(chunk []int) error {
		b := s.sb.Select(cols...).From("xxl_job_info").Where(sq.Eq{"id": chunk}).Where(sq.Eq{"trigger_status": 1}).
			Where(sq.LtOrEq{"trigger_next_time": maxNextTime}).OrderBy("id ASC")
		if lock := s.d.lockSuffix(); lock != "" {
			b = b.Suffix(lock)
		}
		got, err := s.scheduleJobs(ctx, b, len(chunk))
		out = append(out, got...)
		return err
	})
	if err != nil {
		return nil, fmt.Errorf("pre-read %d jobs due by %d: %w", len(ids), maxNextTime, err)
	}
	return out, nil
}

// jobWrites are the ids of the jobs this process wrote outside a schedule
// round (add, update, start, stop, import), for the rounds' due index to
// read again: shared by a Store and the Stores of its transactions.
type jobWrites struct {
	mu  sync.Mutex
	ids map[int]struct{}
}

func (s *Store) noteJobWrite(ids ...int) {
	w := s.jobWrites
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.ids == nil {
		w.ids = map[int]struct{}{}
	}
	for _, id := range ids {
		w.ids[id] = struct{}{}
	}
}

// JobWritesTaken returns the ids of the jobs written through this store (or
// its transactions, committed or not) since the last call, and forgets them.
func (s *Store) JobWritesTaken() []int {
	w := s.jobWrites
	w.mu.Lock()
	defer w.mu.Unlock()
	out := make([]int, 0, len(w.ids))
	for id := range w.ids {
		out = append(out, id)
	}
	clear(w.ids)
	return out
}
