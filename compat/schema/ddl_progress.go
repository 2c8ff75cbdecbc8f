package schema

import (
	"context"
	"database/sql"
	"time"
)

// execWatched runs one DDL statement on q (a single connection: *sql.Conn
// or *sql.Tx, so the server's progress of that session can be found) and
// calls progress every interval until it returns, with the share the
// server says is done: 0–1, or -1 where it says nothing (SQLite, MySQL, a
// PostgreSQL statement that is not an index build). MariaDB reports every
// ALTER and CREATE INDEX in PROCESSLIST.PROGRESS; PostgreSQL reports index
// builds in pg_stat_progress_create_index. progress nil: a plain Exec.
func (s *Store) execWatched(ctx context.Context, q runner, stmt string, interval time.Duration, progress func(done float64)) error {
	if progress == nil {
		_, err := q.ExecContext(ctx, stmt)
		return err
	}
	poll, err := s.progressPoll(ctx, q)
	if err != nil {
		return err
	}
	finished := make(chan error, 1)
	go func() {
		_, err := q.ExecContext(ctx, stmt)
		finished <- err
	}()
	tick := time.NewTicker(interval)
	defer tick.Stop()
	for {
		select {
		case err := <-finished:
			return err
		case <-tick.C:
			// A poll waiting for a free connection must not hold up the
			// next one nor the statement's end.
			pctx, cancel := context.WithTimeout(ctx, interval)
			progress(poll(pctx))
			cancel()
		}
	}
}

// progressPoll finds q's session on the server and returns what reads its
// progress through another connection of the pool.
func (s *Store) progressPoll(ctx context.Context, q runner) (func(context.Context) float64, error) {
	switch s.d.backend() {
	case MySQL:
		var id int64
		if err := q.QueryRowContext(ctx, "SELECT CONNECTION_ID()").Scan(&id); err != nil {
			return nil, err
		}
		return func(ctx context.Context) float64 {
			var pct sql.NullFloat64
			// MariaDB's PROCESSLIST has PROGRESS (percent); MySQL has none.
			if err := s.db.QueryRowContext(ctx, "SELECT progress FROM information_schema.processlist WHERE id = ?", id).Scan(&pct); err != nil || !pct.Valid {
				return -1
			}
			return pct.Float64 / 100
		}, nil
	case Postgres:
		var pid int64
		if err := q.QueryRowContext(ctx, "SELECT pg_backend_pid()").Scan(&pid); err != nil {
			return nil, err
		}
		return func(ctx context.Context) float64 {
			var done, total sql.NullFloat64
			err := s.db.QueryRowContext(ctx, "SELECT blocks_done, blocks_total FROM pg_stat_progress_create_index WHERE pid = $1", pid).Scan(&done, &total)
			if err != nil || !total.Valid || total.Float64 == 0 {
				return -1
			}
			return done.Float64 / total.Float64
		}, nil
	default:
		return func(context.Context) float64 { return -1 }, nil
	}
}
