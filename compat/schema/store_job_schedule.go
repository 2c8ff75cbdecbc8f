package schema

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"slices"

	sq "github.com/Masterminds/squirrel"
)

// ErrScheduleConflict is a schedule write-back that found a job row no
// longer holding the trigger_next_time it was read with: another writer
// moved, stopped or removed the job in between. Nothing was written; the
// caller must roll back and fire nothing.
var ErrScheduleConflict = errors.New("job schedule moved by another writer since it was read")

// JobScheduleQuery is scheduleJobQuery: running jobs due by maxNextTime
// (ms), in id order, at most size (schema.md §4.2). Where the backend has
// row locks it is a locking read (… ORDER BY id LIMIT n FOR UPDATE), unlike
// Java's: it returns the latest committed version of each row rather than
// the transaction's snapshot, keeps the rows locked until commit, and on a
// multi-primary cluster (Galera) a write of the same rows committed on
// another node aborts this transaction (error 1213) instead of letting both
// commit. SQLite needs none: the immediate transaction is the only writer.
//
// It reads only the columns a round uses (id, group, schedule type and
// conf, misfire strategy, trigger status and times; the rest stay zero):
// thousands of jobs a second, their descriptions, GLUE sources and three
// DATETIMEs each were most of the round's cost in the admin.
func (s *Store) JobScheduleQuery(ctx context.Context, maxNextTime int64, size int) ([]JobInfo, error) {
	cols := scheduleColumns
	if s.shape.ScheduleTimezone {
		cols = scheduleColumnsZoned
	}
	b := page(s.sb.Select(cols...).From("xxl_job_info").Where(sq.Eq{"trigger_status": 1}).
		Where(sq.LtOrEq{"trigger_next_time": maxNextTime}).OrderBy("id ASC"), 0, size)
	if lock := s.d.lockSuffix(); lock != "" {
		b = b.Suffix(lock)
	}
	j, err := s.scheduleJobs(ctx, b, size)
	if err != nil {
		return nil, fmt.Errorf("pre-read jobs due by %d: %w", maxNextTime, err)
	}
	return j, nil
}

// scheduleColumns are the xxl_job_info columns a schedule round reads;
// scheduleColumnsZoned adds the job's time zone where the column exists.
var (
	scheduleColumns = []string{"id", "job_group", "schedule_type", "schedule_conf", "misfire_strategy",
		"trigger_status", "trigger_last_time", "trigger_next_time"}
	scheduleColumnsZoned = append(slices.Clone(scheduleColumns), ColScheduleTimezone)
)

// scheduleJobs runs a select of scheduleColumns (or scheduleColumnsZoned), at most size rows, each
// scanned into one reused JobInfo by the column scanners of scan.go; the
// result starts at the last pre-read's size, not doubling up to it.
func (s *Store) scheduleJobs(ctx context.Context, b sq.Sqlizer, size int) ([]JobInfo, error) {
	rows, err := s.query(ctx, b)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var j JobInfo
	cols := []any{&intCol{&j.ID}, &intCol{&j.JobGroup}, &stringCol{&j.ScheduleType, s.strs},
		&nullStringCol{&j.ScheduleConf, s.strs}, &stringCol{&j.MisfireStrategy, s.strs}, &intCol{&j.TriggerStatus},
		&int64Col{&j.TriggerLastTime}, &int64Col{&j.TriggerNextTime}}
	if s.shape.ScheduleTimezone {
		cols = append(cols, &nullStringCol{&j.ScheduleTimezone, s.strs})
	}
	out := make([]JobInfo, 0, min(max(size, 0), int(s.scheduleRows.Load())+16))
	for rows.Next() {
		j = JobInfo{}
		if err := rows.Scan(cols...); err != nil {
			return nil, err
		}
		out = append(out, j)
	}
	if err := rows.Err(); err != nil {
		return nil, err
	}
	s.scheduleRows.Store(int64(len(out)))
	return out, nil
}

// JobScheduleUpdate is scheduleUpdate: last/next trigger time and status only.
func (s *Store) JobScheduleUpdate(ctx context.Context, j JobInfo) error {
	if _, err := s.exec(ctx, s.sb.Update("xxl_job_info").
		Set("trigger_last_time", j.TriggerLastTime).Set("trigger_next_time", j.TriggerNextTime).
		Set("trigger_status", j.TriggerStatus).Where(sq.Eq{"id": j.ID})); err != nil {
		return fmt.Errorf("schedule update of job %d: %w", j.ID, err)
	}
	s.noteJobWrite(j.ID)
	return nil
}

// scheduleBatch is the default number of jobs of one batched
// scheduleUpdate (each CASE list names every job twice);
// xxl.job.schedule.batchsize sets it (SetScheduleBatchSize).
const scheduleBatch = 200

// JobScheduleUpdateBatch writes scheduleUpdate (trigger_last_time,
// trigger_next_time, trigger_status by id) for many jobs, unconditionally;
// the rows end exactly as after one statement per job. The schedule round
// uses the compare-and-set JobScheduleMove instead.
func (s *Store) JobScheduleUpdateBatch(ctx context.Context, jobs []JobInfo) error {
	// CASE takes the first WHEN of an id, one statement per job the last:
	// keep the last values of a repeated id so both paths agree.
	jobs = lastPerID(jobs)
	moves := make([]ScheduleMove, len(jobs))
	for i, j := range jobs {
		moves[i] = ScheduleMove{ID: j.ID, Status: j.TriggerStatus, Last: j.TriggerLastTime, Next: j.TriggerNextTime}
	}
	_, err := s.scheduleWrite(ctx, moves, false)
	for _, j := range jobs {
		s.noteJobWrite(j.ID)
	}
	return err
}

// ScheduleMove is one job's write-back from a schedule round: the trigger
// fields it sets, and FromNext, the trigger_next_time the round read,
// which the row must still hold for the move to happen.
type ScheduleMove struct {
	ID         int
	FromNext   int64
	Status     int
	Last, Next int64
}

// JobScheduleMove writes a schedule round's moves as one compare-and-set:
// each row is updated only where trigger_next_time still equals FromNext,
// and unless every row was, nothing is written and the error wraps
// ErrScheduleConflict. A round that fires only after this succeeded fires
// a job only if its own transaction moved it from the value it read — on
// one server and on a multi-primary cluster alike, where a write-back that
// changes nothing (another node already wrote the same values) would carry
// no row in its write set and pass certification.
//
// On MySQL and PostgreSQL one statement carries 200 jobs (per-job round trips dominated a
// round: 30× slower at 1,000 jobs); SQLite runs one prepared statement per
// job, since it parses long CASE lists slowly and has no round trips. The
// moves run in a transaction of their own unless already inside one.
func (s *Store) JobScheduleMove(ctx context.Context, moves []ScheduleMove) error {
	seen := make(map[int]bool, len(moves))
	for _, m := range moves {
		if seen[m.ID] {
			return fmt.Errorf("schedule move: job %d moved twice in one write-back", m.ID)
		}
		seen[m.ID] = true
	}
	return s.WithTx(ctx, func(tx *Store) error {
		n, err := tx.scheduleWrite(ctx, moves, true)
		if err != nil {
			return err
		}
		if n != len(moves) {
			return fmt.Errorf("schedule move: %d of %d jobs no longer at the trigger time read: %w",
				len(moves)-n, len(moves), ErrScheduleConflict)
		}
		return nil
	})
}

// scheduleWrite runs the write-back in batches and returns the rows matched
// (the driver reports matched rows, as Connector/J does). With cas, a row
// only matches while its trigger_next_time is still FromNext.
func (s *Store) scheduleWrite(ctx context.Context, moves []ScheduleMove, cas bool) (int, error) {
	if p, ok := s.q.(preparer); ok && s.d.backend() == SQLite {
		return s.scheduleWritePrepared(ctx, p, moves, cas)
	}
	matched := 0
	shared, moves := groupMoves(moves, cas)
	for _, g := range shared {
		err := inChunks(g.ids, func(ids []int) error {
			b := s.sb.Update(s.d.byID("xxl_job_info")).Set("trigger_last_time", g.last).Set("trigger_next_time", g.next).
				Set("trigger_status", g.status).Where(sq.Eq{"id": ids})
			if cas {
				b = b.Where(sq.Eq{"trigger_next_time": g.from})
			}
			got, err := s.exec(ctx, b)
			matched += int(got)
			return err
		})
		if err != nil {
			return 0, fmt.Errorf("schedule update of %d jobs moving to %d: %w", len(g.ids), g.next, err)
		}
	}
	for len(moves) > 0 {
		n := min(len(moves), s.scheduleBatchSize())
		got, err := s.exec(ctx, scheduleUpdateSQL(s.d, moves[:n], cas))
		if err != nil {
			return 0, fmt.Errorf("schedule update of %d jobs from id %d: %w", n, moves[0].ID, err)
		}
		matched += int(got)
		moves = moves[n:]
	}
	return matched, nil
}

// sharedMove is a write-back that several jobs of a round share: the same
// time read (with cas), the same status and times to write.
type sharedMove struct {
	from, last, next int64
	status           int
	ids              []int
}

// groupMoves returns the moves that several jobs share, each as one group,
// and the others: jobs due together on one schedule (every hourly cron at
// the hour, FIX_RATE jobs on one grid) are written by one plain UPDATE …
// WHERE id IN (…), which costs the server a fraction of the CASE lists.
func groupMoves(moves []ScheduleMove, cas bool) (shared []sharedMove, rest []ScheduleMove) {
	type key struct {
		from, last, next int64
		status           int
	}
	keyOf := func(m ScheduleMove) key {
		k := key{last: m.Last, next: m.Next, status: m.Status}
		if cas {
			k.from = m.FromNext
		}
		return k
	}
	count := make(map[key]int, len(moves))
	for _, m := range moves {
		count[keyOf(m)]++
	}
	at := map[key]int{}
	for _, m := range moves {
		k := keyOf(m)
		if count[k] < 2 {
			rest = append(rest, m)
			continue
		}
		i, ok := at[k]
		if !ok {
			i = len(shared)
			at[k] = i
			shared = append(shared, sharedMove{from: k.from, last: k.last, next: k.next, status: k.status})
		}
		shared[i].ids = append(shared[i].ids, m.ID)
	}
	return shared, rest
}

// scheduleUpdateSQL is the batched scheduleUpdate of moves (distinct ids),
// with cas only where trigger_next_time is still the value read.
func scheduleUpdateSQL(d dialect, moves []ScheduleMove, cas bool) sq.Sqlizer {
	c := caseBatch{table: "xxl_job_info", set: []string{"trigger_last_time", "trigger_next_time", "trigger_status"},
		ids: make([]any, len(moves)), values: make([][]any, len(moves))}
	if cas {
		c.match = []string{"trigger_next_time"}
	}
	for i, m := range moves {
		c.ids[i] = m.ID
		c.values[i] = []any{m.Last, m.Next, int64(m.Status)}
		if cas {
			c.values[i] = append(c.values[i], m.FromNext)
		}
	}
	return c.build(d)
}

func lastPerID(jobs []JobInfo) []JobInfo {
	at := make(map[int]int, len(jobs))
	out := make([]JobInfo, 0, len(jobs))
	for _, j := range jobs {
		if i, ok := at[j.ID]; ok {
			out[i] = j
			continue
		}
		at[j.ID] = len(out)
		out = append(out, j)
	}
	return out
}

type preparer interface {
	PrepareContext(ctx context.Context, query string) (*sql.Stmt, error)
}

func (s *Store) scheduleWritePrepared(ctx context.Context, p preparer, moves []ScheduleMove, cas bool) (int, error) {
	query := "UPDATE xxl_job_info SET trigger_last_time = ?, trigger_next_time = ?, trigger_status = ? WHERE id = ?"
	if cas {
		query += " AND trigger_next_time = ?"
	}
	stmt, err := p.PrepareContext(ctx, query)
	if err != nil {
		return 0, fmt.Errorf("prepare schedule update: %w", err)
	}
	defer stmt.Close()
	matched := 0
	for _, m := range moves {
		args := []any{m.Last, m.Next, m.Status, m.ID}
		if cas {
			args = append(args, m.FromNext)
		}
		res, err := stmt.ExecContext(ctx, args...)
		if err != nil {
			return 0, fmt.Errorf("schedule update of job %d: %w", m.ID, err)
		}
		n, err := res.RowsAffected()
		if err != nil {
			return 0, fmt.Errorf("schedule update of job %d: %w", m.ID, err)
		}
		matched += int(n)
	}
	return matched, nil
}

// SetScheduleBatchSize sets how many jobs one schedule write-back
// statement carries (xxl.job.schedule.batchsize, 3.4.0; Java batches its
// scheduleUpdate the same way). Call it before the store is in use.
func (s *Store) SetScheduleBatchSize(n int) { s.shape.ScheduleBatch = n }

func (s *Store) scheduleBatchSize() int {
	if s.shape.ScheduleBatch > 0 {
		return s.shape.ScheduleBatch
	}
	return scheduleBatch
}
