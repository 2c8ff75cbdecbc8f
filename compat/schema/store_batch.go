package schema

import (
	"cmp"
	"context"
	"database/sql"
	"fmt"
	"slices"
	"strings"
	"sync"

	sq "github.com/Masterminds/squirrel"
)

// The trigger path's statements for many rows at once: the jobs of one
// second loaded in one statement, their log rows written in one, their
// results in one. Per-row statements cost a round trip, a parse and, on
// MariaDB, about as much server CPU as the admin spends on the trigger.

// batchRows bounds the rows of one multi-row statement: long enough that
// the round trip is shared by hundreds of rows, short enough that one
// statement stays far below max_allowed_packet (a result row carries a
// trigger_msg of up to 64 KiB; typical ones are 300 bytes).
const batchRows = 500

// insertMode is how LogSaveMany learns the ids of a multi-row INSERT.
type insertMode int

const (
	// insertUnknown: not probed yet.
	insertUnknown insertMode = iota
	// insertReturning: INSERT … RETURNING id (MariaDB 10.5+, PostgreSQL)
	// hands back every id, whatever the auto-increment settings (Galera
	// included).
	insertReturning
	// insertConsecutive: one multi-row INSERT whose ids are LAST_INSERT_ID()
	// and the next ones in auto_increment_increment steps, which InnoDB
	// guarantees for a plain multi-row INSERT when innodb_autoinc_lock_mode
	// is 0 (traditional) or 1 (consecutive).
	insertConsecutive
	// insertSingle: one single-row INSERT per row, in one transaction (what
	// the group commit does): for MySQL in interleaved mode 2, the MySQL 8
	// default, where a multi-row INSERT's ids may have gaps; and SQLite,
	// which has no round trips to save.
	insertSingle
)

// insertCaps holds the probed insert mode, shared by a Store and the
// Stores of its transactions. A failed probe (database down) is retried by
// the next call.
type insertCaps struct {
	mu        sync.Mutex
	mode      insertMode
	increment int64
}

// logInsertMode probes, once, how this database can return the ids of a
// multi-row INSERT.
func (s *Store) logInsertMode(ctx context.Context) (insertMode, int64, error) {
	c := s.caps
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.mode != insertUnknown {
		return c.mode, c.increment, nil
	}
	switch s.d.backend() {
	case Postgres:
		c.mode = insertReturning
		return c.mode, 0, nil
	case SQLite:
		c.mode = insertSingle
		return c.mode, 0, nil
	}
	var version string
	var lockMode, increment int64
	err := s.q.QueryRowContext(ctx, "SELECT VERSION(), @@innodb_autoinc_lock_mode, @@auto_increment_increment").
		Scan(&version, &lockMode, &increment)
	if err != nil {
		return 0, 0, fmt.Errorf("probe insert mode: %w", s.failed(ctx, err))
	}
	c.mode, c.increment = chooseInsertMode(version, lockMode, increment), increment
	return c.mode, c.increment, nil
}

// chooseInsertMode picks the insert mode from the server's version string
// and auto-increment settings.
func chooseInsertMode(version string, lockMode, increment int64) insertMode {
	if v := mariaVersion(version); v != "" && versionAtLeast(v, 10, 5) {
		return insertReturning
	}
	if (lockMode == 0 || lockMode == 1) && increment >= 1 {
		return insertConsecutive
	}
	return insertSingle
}

// mariaVersion returns the numeric version of a MariaDB VERSION() string
// ("10.11.19-MariaDB-0+deb12u1", "5.5.5-10.11.6-MariaDB"), "" for MySQL.
func mariaVersion(v string) string {
	if !strings.Contains(v, "MariaDB") {
		return ""
	}
	v = strings.TrimPrefix(v, "5.5.5-") // the replication-compatible prefix
	if i := strings.IndexByte(v, '-'); i >= 0 {
		v = v[:i]
	}
	return v
}

// versionAtLeast compares the first two numbers of a dotted version.
func versionAtLeast(v string, major, minor int) bool {
	var a, b int
	if _, err := fmt.Sscanf(v, "%d.%d", &a, &b); err != nil {
		return false
	}
	return a > major || (a == major && b >= minor)
}

// triggerColumns are the xxl_job_info columns a trigger reads.
var triggerColumns = []string{"id", "job_group", "executor_route_strategy", "executor_handler", "executor_param",
	"executor_block_strategy", "executor_timeout", "executor_fail_retry_count", "glue_type", "glue_source",
	"glue_updatetime"}

// JobTriggerLoad is JobLoadMany for the trigger flow: only the columns a
// trigger reads (id, group, route, handler, param, block strategy,
// timeout, retry count, GLUE type, source and update time; the rest stay
// zero). At thousands of triggers a second the other columns' scanning,
// three DATETIMEs among them, cost more than the rest of the load.
func (s *Store) JobTriggerLoad(ctx context.Context, ids []int) (map[int]JobInfo, error) {
	out := make(map[int]JobInfo, len(ids))
	seen := make(map[int]bool, len(ids))
	uniq := make([]int, 0, len(ids))
	for _, id := range ids {
		if !seen[id] {
			seen[id] = true
			uniq = append(uniq, id)
		}
	}
	// Every row is scanned into j by scanners made once (scan.go).
	var j JobInfo
	glueTime := timeCol{timeScanner: s.scanTime(&j.GlueUpdatetime)}
	cols := []any{&intCol{&j.ID}, &intCol{&j.JobGroup}, &nullStringCol{&j.ExecutorRouteStrategy, s.strs},
		&nullStringCol{&j.ExecutorHandler, s.strs}, &nullStringCol{&j.ExecutorParam, s.strs},
		&nullStringCol{&j.ExecutorBlockStrategy, s.strs}, &intCol{&j.ExecutorTimeout}, &intCol{&j.ExecutorFailRetryCount},
		&stringCol{&j.GlueType, s.strs}, &nullStringCol{&j.GlueSource, s.strs}, &glueTime}
	err := inChunks(uniq, func(chunk []int) error {
		rows, err := s.query(ctx, s.sb.Select(triggerColumns...).From("xxl_job_info").Where(sq.Eq{"id": chunk}))
		if err != nil {
			return err
		}
		defer rows.Close()
		for rows.Next() {
			j = JobInfo{}
			if err := rows.Scan(cols...); err != nil {
				return err
			}
			out[j.ID] = j
		}
		return rows.Err()
	})
	if err != nil {
		return nil, fmt.Errorf("load %d jobs to trigger: %w", len(uniq), err)
	}
	return out, nil
}

// LogSaveMany is save for many rows (job_group, job_id, trigger_time and
// the two codes, as LogSave, and the executor columns of logInsertColumns);
// ids[i] is the id of rows[i]. Rows are written
// in order, so ids ascend with the index as with one save after another.
// Every id comes from the database itself (RETURNING), from InnoDB's
// consecutive-id guarantee, or from one statement per row (see insertMode).
// Either every row is written or none is.
func (s *Store) LogSaveMany(ctx context.Context, rows []JobLog) ([]int64, error) {
	switch len(rows) {
	case 0:
		return nil, nil
	case 1: // one autocommitted statement: no transaction round trips
		id, err := s.d.insertID(ctx, s.q, s.logInsert(rows))
		if err != nil {
			return nil, fmt.Errorf("save log of job %d: %w", rows[0].JobID, err)
		}
		return []int64{id}, nil
	}
	mode, increment, err := s.logInsertMode(ctx)
	if err != nil {
		return nil, err
	}
	ids := make([]int64, 0, len(rows))
	err = s.WithTx(ctx, func(tx *Store) error {
		ids = ids[:0]
		if mode == insertSingle {
			return tx.logSaveSingles(ctx, rows, &ids)
		}
		for start := 0; start < len(rows); start += batchRows {
			chunk := rows[start:min(start+batchRows, len(rows))]
			var err error
			if mode == insertReturning {
				err = tx.logSaveReturning(ctx, chunk, &ids)
			} else {
				err = tx.logSaveConsecutive(ctx, chunk, increment, &ids)
			}
			if err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("save %d logs: %w", len(rows), err)
	}
	return ids, nil
}

// logInsertColumns are the columns LogSaveMany writes: save's, and the
// executor columns a trigger knows before its /run (handler, parameters,
// shard, retries), so that the result only has to write what the /run
// decides (LogTriggerResultMany). A row that grows from NULLs to its
// trigger_msg costs MariaDB most of an update; each column less written
// then saved about a fifth of the result's server CPU (BenchmarkTriggerPath).
var logInsertColumns = []string{"job_group", "job_id", "trigger_time", "trigger_code", "handle_code",
	"executor_handler", "executor_param", "executor_sharding_param", "executor_fail_retry_count"}

func (s *Store) logInsertValues(l JobLog) []any {
	return []any{l.JobGroup, l.JobID, s.dbTimePtr(l.TriggerTime), l.TriggerCode, l.HandleCode,
		l.ExecutorHandler, l.ExecutorParam, l.ExecutorShardingParam, l.ExecutorFailRetryCount}
}

func (s *Store) logInsert(rows []JobLog) sq.InsertBuilder {
	b := s.sb.Insert("xxl_job_log").Columns(logInsertColumns...)
	for _, l := range rows {
		b = b.Values(s.logInsertValues(l)...)
	}
	return b
}

// logSaveReturning inserts rows in one statement and reads their ids back.
// The ids are matched to the rows by job id in order (rows of one job are
// alike but for trigger_time, which the result update writes again), so
// even a server that returned rows out of order could not mix up jobs.
func (s *Store) logSaveReturning(ctx context.Context, rows []JobLog, ids *[]int64) error {
	res, err := s.query(ctx, s.logInsert(rows).Suffix("RETURNING id, job_id"))
	if err != nil {
		return err
	}
	defer res.Close()
	got := make(map[int][]int64, len(rows))
	n := 0
	for res.Next() {
		var id int64
		var job int
		if err := res.Scan(&id, &job); err != nil {
			return err
		}
		got[job] = append(got[job], id)
		n++
	}
	if err := res.Err(); err != nil {
		return err
	}
	if n != len(rows) {
		return fmt.Errorf("insert of %d logs returned %d ids", len(rows), n)
	}
	for _, l := range rows {
		q := got[l.JobID]
		if len(q) == 0 {
			return fmt.Errorf("insert returned no id for job %d", l.JobID)
		}
		*ids = append(*ids, q[0])
		got[l.JobID] = q[1:]
	}
	return nil
}

// logSaveConsecutive inserts rows in one statement; InnoDB gives a plain
// multi-row INSERT consecutive ids (in auto_increment_increment steps) in
// lock modes 0 and 1, and LAST_INSERT_ID() is the first.
func (s *Store) logSaveConsecutive(ctx context.Context, rows []JobLog, increment int64, ids *[]int64) error {
	query, args, err := s.logInsert(rows).ToSql()
	if err != nil {
		return err
	}
	res, err := s.q.ExecContext(ctx, query, args...)
	if err != nil {
		return s.failed(ctx, err)
	}
	first, err := res.LastInsertId()
	if err != nil {
		return err
	}
	if n, err := res.RowsAffected(); err != nil || n != int64(len(rows)) {
		return fmt.Errorf("insert of %d logs affected %d rows (%v)", len(rows), n, err)
	}
	for i := range rows {
		*ids = append(*ids, first+int64(i)*increment)
	}
	return nil
}

// logSaveSingles runs one prepared single-row INSERT per row.
func (s *Store) logSaveSingles(ctx context.Context, rows []JobLog, ids *[]int64) error {
	query, _, err := s.logInsert(rows[:1]).ToSql()
	if err != nil {
		return err
	}
	stmt, err := s.prepare(ctx, query)
	if err != nil {
		return err
	}
	defer stmt.Close()
	for _, l := range rows {
		res, err := stmt.ExecContext(ctx, s.logInsertValues(l)...)
		if err != nil {
			return s.failed(ctx, err)
		}
		id, err := res.LastInsertId()
		if err != nil {
			return err
		}
		*ids = append(*ids, id)
	}
	return nil
}

// prepare prepares a statement on the store's transaction (or pool).
func (s *Store) prepare(ctx context.Context, query string) (*sql.Stmt, error) {
	p, ok := s.q.(preparer)
	if !ok {
		return nil, fmt.Errorf("prepare: %T cannot prepare statements", s.q)
	}
	stmt, err := p.PrepareContext(ctx, query)
	if err != nil {
		return nil, s.failed(ctx, err)
	}
	return stmt, nil
}

// triggerInfoColumns are the columns updateTriggerInfo writes, in the order
// of triggerInfoValues.
var triggerInfoColumns = []string{"trigger_time", "trigger_code", "trigger_msg", "executor_address",
	"executor_handler", "executor_param", "executor_sharding_param", "executor_fail_retry_count"}

func (s *Store) triggerInfoValues(l JobLog) []any {
	return []any{s.dbTimePtr(l.TriggerTime), l.TriggerCode, l.TriggerMsg, l.ExecutorAddress,
		l.ExecutorHandler, l.ExecutorParam, l.ExecutorShardingParam, l.ExecutorFailRetryCount}
}

// LogUpdateTriggerInfoMany is updateTriggerInfo for many rows: on MySQL and
// PostgreSQL one UPDATE per 100 rows, on SQLite one prepared UPDATE per
// row; all in one transaction. Rows are updated in id order, so two
// batches cannot deadlock on each other. A row that no longer exists is
// skipped, as by a single UPDATE.
func (s *Store) LogUpdateTriggerInfoMany(ctx context.Context, rows []JobLog) error {
	return s.logUpdateMany(ctx, rows, triggerInfoColumns, s.triggerInfoValues)
}

// triggerResultColumns are what a /run decides of a row LogSaveMany wrote:
// updateTriggerInfo's other columns were written with the row.
var triggerResultColumns = []string{"trigger_code", "trigger_msg", "executor_address"}

// LogTriggerResultMany is updateTriggerInfo for many rows written by
// LogSaveMany with their trigger_time and executor columns: it writes only
// trigger_code, trigger_msg and executor_address, which leaves each row as
// updateTriggerInfo would (batched as LogUpdateTriggerInfoMany).
func (s *Store) LogTriggerResultMany(ctx context.Context, rows []JobLog) error {
	return s.logUpdateMany(ctx, rows, triggerResultColumns, func(l JobLog) []any {
		return []any{l.TriggerCode, l.TriggerMsg, l.ExecutorAddress}
	})
}

func (s *Store) logUpdateMany(ctx context.Context, rows []JobLog, columns []string, values func(JobLog) []any) error {
	switch len(rows) {
	case 0:
		return nil
	case 1: // one autocommitted statement: no transaction round trips
		if _, err := s.exec(ctx, sq.Expr(logUpdateOne(columns), append(values(rows[0]), rows[0].ID)...)); err != nil {
			return fmt.Errorf("update trigger info of log %d: %w", rows[0].ID, err)
		}
		return nil
	}
	sorted := make([]JobLog, len(rows))
	copy(sorted, rows)
	sortLogsByID(sorted)
	err := s.WithTx(ctx, func(tx *Store) error {
		if s.d.backend() == SQLite {
			return tx.logUpdateSingles(ctx, sorted, columns, values)
		}
		for start := 0; start < len(sorted); start += caseRows {
			if _, err := tx.exec(ctx, tx.logUpdateCase(sorted[start:min(start+caseRows, len(sorted))], columns, values)); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		return fmt.Errorf("update trigger info of %d logs: %w", len(rows), err)
	}
	return nil
}

// caseRows bounds the rows of one CASE-batched UPDATE: each CASE is
// scanned per row, so its cost grows with the square of the rows.
const caseRows = 100

// logUpdateCase builds UPDATE xxl_job_log SET c = CASE id WHEN ? THEN ?
// … END, … WHERE id IN (…). CASE, unlike a join with the values as a
// derived table, needs no temporary table: the long trigger_msg values
// made MariaDB write one to disk per statement. A repeated id takes its
// last values, as one statement per row would leave it.
func (s *Store) logUpdateCase(rows []JobLog, columns []string, value func(JobLog) []any) sq.Sqlizer {
	rows = lastLogPerID(rows)
	values := make([][]any, len(rows))
	for i, l := range rows {
		values[i] = value(l)
	}
	return logCase(s.d, rows, columns, values, "")
}

// logCase is the caseBatch of xxl_job_log setting columns to values[i]
// for rows[i], with an extra condition (may be "").
func logCase(d dialect, rows []JobLog, columns []string, values [][]any, where string) sq.Sqlizer {
	ids := make([]any, len(rows))
	for i, l := range rows {
		ids[i] = l.ID
	}
	return caseBatch{table: "xxl_job_log", ids: ids, set: columns, values: values, where: where}.build(d)
}

// logUpdateOne is UPDATE xxl_job_log SET c = ?, … WHERE id = ?, the
// values in the order of columns and the id last.
func logUpdateOne(columns []string) string {
	set := make([]string, len(columns))
	for i, c := range columns {
		set[i] = c + " = ?"
	}
	return "UPDATE xxl_job_log SET " + strings.Join(set, ", ") + " WHERE id = ?"
}

func (s *Store) logUpdateSingles(ctx context.Context, rows []JobLog, columns []string, values func(JobLog) []any) error {
	stmt, err := s.prepare(ctx, logUpdateOne(columns))
	if err != nil {
		return err
	}
	defer stmt.Close()
	for _, l := range rows {
		if _, err := stmt.ExecContext(ctx, append(values(l), l.ID)...); err != nil {
			return s.failed(ctx, err)
		}
	}
	return nil
}

// sortLogsByID sorts stably, so of rows sharing an id the last stays last.
func sortLogsByID(rows []JobLog) {
	slices.SortStableFunc(rows, func(a, b JobLog) int { return cmp.Compare(a.ID, b.ID) })
}

// lastLogPerID keeps the last of rows sharing an id, in first-seen order.
func lastLogPerID(rows []JobLog) []JobLog {
	at := make(map[int64]int, len(rows))
	out := make([]JobLog, 0, len(rows))
	for _, l := range rows {
		if i, ok := at[l.ID]; ok {
			out[i] = l
			continue
		}
		at[l.ID] = len(out)
		out = append(out, l)
	}
	return out
}

// LogLoadManyForUpdate is LogLoadMany as a locking read (FOR UPDATE where
// the backend has row locks): inside a transaction, no other one can
// finish these logs until it ends, so what it decides from their
// handle_code holds when it writes (LogFinishMany).
func (s *Store) LogLoadManyForUpdate(ctx context.Context, ids []int64) (map[int64]JobLog, error) {
	out := make(map[int64]JobLog, len(ids))
	err := inChunks(ids, func(chunk []int64) error {
		logs, err := s.logs(ctx, s.sb.Select(logColumns...).From(s.d.byID("xxl_job_log")).Where(sq.Eq{"id": chunk}).
			OrderBy("id").Suffix(s.d.lockSuffix()))
		for _, l := range logs {
			out[l.ID] = l
		}
		return err
	})
	if err != nil {
		return nil, fmt.Errorf("load %d logs for update: %w", len(ids), err)
	}
	return out, nil
}

// LogFinishMany is LogFinish for many logs: the handle result of each row
// still open (handle_code <= 0), one statement per 100 rows on MySQL and
// PostgreSQL, one prepared statement per row on SQLite. It returns how many rows it
// finished; callers that need to know which lock them first
// (LogLoadManyForUpdate).
func (s *Store) LogFinishMany(ctx context.Context, rows []JobLog) (int64, error) {
	if len(rows) == 0 {
		return 0, nil
	}
	if len(rows) == 1 {
		ok, err := s.LogFinish(ctx, rows[0])
		if ok {
			return 1, err
		}
		return 0, err
	}
	sorted := make([]JobLog, len(rows))
	copy(sorted, rows)
	sortLogsByID(sorted)
	var n int64
	err := s.WithTx(ctx, func(tx *Store) error {
		n = 0
		if s.d.backend() == SQLite {
			stmt, err := tx.prepare(ctx, "UPDATE xxl_job_log SET handle_time = ?, handle_code = ?, handle_msg = ? WHERE id = ? AND handle_code <= 0")
			if err != nil {
				return err
			}
			defer stmt.Close()
			for _, l := range sorted {
				res, err := stmt.ExecContext(ctx, s.dbTimePtr(l.HandleTime), l.HandleCode, l.HandleMsg, l.ID)
				if err != nil {
					return s.failed(ctx, err)
				}
				k, _ := res.RowsAffected()
				n += k
			}
			return nil
		}
		for start := 0; start < len(sorted); start += caseRows {
			k, err := tx.exec(ctx, tx.handleInfoCase(sorted[start:min(start+caseRows, len(sorted))]))
			if err != nil {
				return err
			}
			n += k
		}
		return nil
	})
	if err != nil {
		return 0, fmt.Errorf("finish %d logs: %w", len(rows), err)
	}
	return n, nil
}

// handleInfoCase builds the batched LogFinish (see logUpdateCase), only
// for rows still open. Of rows sharing an id the first wins, as the first
// of several single statements would.
func (s *Store) handleInfoCase(rows []JobLog) sq.Sqlizer {
	seen := make(map[int64]bool, len(rows))
	var first []JobLog
	var values [][]any
	for _, l := range rows {
		if !seen[l.ID] {
			seen[l.ID] = true
			first = append(first, l)
			values = append(values, []any{s.dbTimePtr(l.HandleTime), l.HandleCode, l.HandleMsg})
		}
	}
	return logCase(s.d, first, []string{"handle_time", "handle_code", "handle_msg"}, values, " AND handle_code <= 0")
}
