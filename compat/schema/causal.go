package schema

import (
	"context"
	"database/sql"
	"database/sql/driver"
	"errors"
	"fmt"
	"strings"
	"sync"

	sq "github.com/Masterminds/squirrel"
)

// wsrepFlag tells whether the MySQL-family server is a Galera node with
// replication on (wsrep_on); asked once per store (and its transactions),
// again after a failed ask.
type wsrepFlag struct {
	mu    sync.Mutex
	known bool
	on    bool
}

// Galera reports whether the database is a Galera node with wsrep on. It
// asks the server the first time only; PostgreSQL and SQLite answer false
// without a statement.
func (s *Store) Galera(ctx context.Context) (bool, error) {
	if s.d.backend() != MySQL {
		return false, nil
	}
	s.wsrep.mu.Lock()
	defer s.wsrep.mu.Unlock()
	if !s.wsrep.known {
		var name, value string
		err := s.q.QueryRowContext(ctx, "SHOW VARIABLES LIKE 'wsrep_on'").Scan(&name, &value)
		switch {
		case errors.Is(err, sql.ErrNoRows):
			value = "OFF" // not a Galera build: the variable does not exist
		case err != nil:
			return false, fmt.Errorf("ask wsrep_on: %w", s.failed(ctx, err))
		}
		s.wsrep.known, s.wsrep.on = true, strings.EqualFold(value, "ON")
	}
	return s.wsrep.on, nil
}

// LogIDsCausal returns which of ids exist in xxl_job_log as a causal read
// on a Galera node: the read waits until this node has applied every write
// set the cluster committed before it (wsrep_sync_wait=1), so a row
// committed through another node before the caller learnt its id is seen.
// On any other database it is a plain read. It runs on a connection of its
// own whose session setting is restored before the connection goes back to
// the pool (or the connection is dropped when the reset fails).
func (s *Store) LogIDsCausal(ctx context.Context, ids []int64) ([]int64, error) {
	if len(ids) == 0 {
		return nil, nil
	}
	galera, err := s.Galera(ctx)
	if err != nil {
		return nil, err
	}
	read := func(st *Store) ([]int64, error) {
		var out []int64
		err := inChunks(ids, func(chunk []int64) error {
			found, err := st.ids(ctx, st.sb.Select("id").From("xxl_job_log").Where(sq.Eq{"id": chunk}))
			out = append(out, found...)
			return err
		})
		return out, err
	}
	if !galera {
		out, err := read(s)
		if err != nil {
			return nil, fmt.Errorf("read %d log ids: %w", len(ids), s.failed(ctx, err))
		}
		return out, nil
	}
	conn, err := s.db.Conn(ctx)
	if err != nil {
		return nil, fmt.Errorf("causal read: connection: %w", s.failed(ctx, err))
	}
	defer conn.Close()
	var was int
	if err := conn.QueryRowContext(ctx, "SELECT @@SESSION.wsrep_sync_wait").Scan(&was); err != nil {
		return nil, fmt.Errorf("causal read: read wsrep_sync_wait: %w", s.failed(ctx, err))
	}
	if _, err := conn.ExecContext(ctx, "SET SESSION wsrep_sync_wait = 1"); err != nil {
		return nil, fmt.Errorf("causal read: set wsrep_sync_wait: %w", s.failed(ctx, err))
	}
	cs := *s
	cs.q, cs.inTx = s.d.wrap(conn), false
	out, readErr := read(&cs)
	if _, err := conn.ExecContext(context.WithoutCancel(ctx), "SET SESSION wsrep_sync_wait = ?", was); err != nil {
		// The pool must not hand out a session that waits on every read.
		_ = conn.Raw(func(any) error { return driver.ErrBadConn })
	}
	if readErr != nil {
		return nil, fmt.Errorf("causal read of %d log ids: %w", len(ids), s.failed(ctx, readErr))
	}
	return out, nil
}
