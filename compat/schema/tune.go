package schema

import (
	"context"
	"fmt"
	"strings"
	"time"
)

// TuneIndex is an index `db tune` offers: one that xxl-job 3.4.2 itself
// added to xxl_job_log, which a 2.x database (and our PostgreSQL and
// SQLite DDL of either generation) lacks. Java admins of both generations
// work unchanged with it; only writes of log rows pay for it.
type TuneIndex struct {
	Table   string
	Name    string
	Columns string
	Serves  string // the queries it serves
	Origin  string
}

// tuneIndexes are the offered indexes, in the order they are built.
var tuneIndexes = []TuneIndex{
	{Table: "xxl_job_log", Name: "I_jobid", Columns: "job_id", Origin: "xxl-job 3.4.2",
		Serves: "the log list and its count for one job, deleting a job's logs, the log cleanup of one job"},
	{Table: "xxl_job_log", Name: "I_jobgroup", Columns: "job_group", Origin: "xxl-job 3.4.2",
		Serves: "the log list and its count for one executor group, a normal user's log list"},
}

// isTuneIndex tells an index db tune builds (name lower-case): expected
// on either generation, so the schema check does not call it extra.
func isTuneIndex(table, name string) bool {
	for _, ix := range tuneIndexes {
		if ix.Table == table && strings.ToLower(ix.Name) == name {
			return true
		}
	}
	return false
}

// TunePlan is what `db tune` would do on this database.
type TunePlan struct {
	Backend Backend
	// Rows is the server's estimate of xxl_job_log's rows (information
	// schema, pg_class; the id span on SQLite).
	Rows    int64
	Missing []TuneStep
	Present []string // offered indexes the database has
}

// TuneStep is one index to build: its DDL, whether it leaves the table
// writable meanwhile, and a rough time for this table's size.
type TuneStep struct {
	TuneIndex
	DDL      string
	Online   bool
	Estimate time.Duration
}

// Rough build rates on a 2-core machine (docs/operations.md): MariaDB
// ~3.5 s per million rows per index while online (measured), PostgreSQL's
// CONCURRENTLY reads the table twice, SQLite writes the index alone.
var tuneRate = map[Backend]time.Duration{MySQL: 3500 * time.Millisecond, Postgres: 4 * time.Second, SQLite: 2 * time.Second}

// PlanTune lists the offered indexes the database lacks, with their DDL.
// It changes nothing.
func (s *Store) PlanTune(ctx context.Context) (TunePlan, error) {
	p := TunePlan{Backend: s.d.backend()}
	cols, err := s.d.columns(ctx, s.q, "xxl_job_log")
	if err != nil {
		return p, err
	}
	if len(cols) == 0 {
		return p, fmt.Errorf("the database has no xxl_job_log table")
	}
	have, err := s.d.indexes(ctx, s.q, "xxl_job_log")
	if err != nil {
		return p, err
	}
	names := map[string]bool{}
	for _, ix := range have {
		names[strings.ToLower(ix.Name)] = true
	}
	if p.Rows, err = s.rowsEstimate(ctx, "xxl_job_log"); err != nil {
		return p, err
	}
	for _, ix := range tuneIndexes {
		if names[strings.ToLower(ix.Name)] {
			p.Present = append(p.Present, ix.Name)
			continue
		}
		st := TuneStep{TuneIndex: ix, Estimate: time.Duration(float64(p.Rows) / 1e6 * float64(tuneRate[p.Backend]))}
		switch p.Backend {
		case MySQL:
			st.DDL = fmt.Sprintf("ALTER TABLE %s ADD INDEX %s (%s), ALGORITHM=INPLACE, LOCK=NONE", ix.Table, ix.Name, ix.Columns)
			st.Online = true
		case Postgres:
			st.DDL = fmt.Sprintf("CREATE INDEX CONCURRENTLY IF NOT EXISTS %s ON %s (%s)", strings.ToLower(ix.Name), ix.Table, ix.Columns)
			st.Online = true
		default:
			st.DDL = fmt.Sprintf("CREATE INDEX IF NOT EXISTS %s ON %s (%s)", ix.Name, ix.Table, ix.Columns)
		}
		p.Missing = append(p.Missing, st)
	}
	return p, nil
}

// rowsEstimate is the server's estimate of a table's rows (information
// schema, pg_class; the id span on SQLite), read without counting them.
func (s *Store) rowsEstimate(ctx context.Context, table string) (int64, error) {
	var q string
	switch s.d.backend() {
	case MySQL:
		q = "SELECT COALESCE(MAX(table_rows), 0) FROM information_schema.tables WHERE table_schema = DATABASE() AND table_name = '" + table + "'"
	case Postgres:
		q = "SELECT GREATEST(COALESCE(MAX(reltuples), 0), 0)::bigint FROM pg_class WHERE relname = '" + table + "' AND relnamespace = (SELECT oid FROM pg_namespace WHERE nspname = current_schema())"
	default:
		q = "SELECT COALESCE(MAX(id) - MIN(id) + 1, 0) FROM " + table
	}
	var n int64
	if err := s.q.QueryRowContext(ctx, q).Scan(&n); err != nil {
		return 0, fmt.Errorf("estimate %s rows: %w", table, err)
	}
	return n, nil
}

// ApplyTune builds one index on a connection of its own, calling progress
// every interval with the server's share done (0–1; -1 where the server
// does not say: SQLite) until it returns.
func (s *Store) ApplyTune(ctx context.Context, st TuneStep, interval time.Duration, progress func(done float64)) error {
	conn, err := s.db.Conn(ctx)
	if err != nil {
		return fmt.Errorf("tune %s: %w", st.Name, err)
	}
	defer conn.Close()
	if err := s.execWatched(ctx, conn, st.DDL, interval, progress); err != nil {
		return fmt.Errorf("tune %s: %w", st.Name, err)
	}
	return nil
}
