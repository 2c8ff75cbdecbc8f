package schema

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"time"

	sq "github.com/Masterminds/squirrel"
	"github.com/go-sql-driver/mysql"
	"github.com/jackc/pgx/v5/pgconn"
)

// ErrStatementTimeout is returned when a statement run under a time bound
// (a console list on a large table) did not finish within it. The database
// stopped the statement: MariaDB by max_statement_time, MySQL by
// MAX_EXECUTION_TIME, PostgreSQL and SQLite by the cancelled context.
var ErrStatementTimeout = errors.New("the database did not answer within the statement's time bound")

// backstop is how much longer than its bound a statement's context lives:
// the server stops the statement itself, the context only ends a wait on a
// server that no longer answers.
const backstop = 2 * time.Second

// serverFlavor tells MariaDB from MySQL, whose per-statement time bounds
// are spelt differently; asked once per store (and its transactions), and
// again after a failed ask (a cancelled request must not decide it).
type serverFlavor struct {
	mu      sync.Mutex
	known   bool
	mariaDB bool
}

func (s *Store) isMariaDB(ctx context.Context) (bool, error) {
	s.flavor.mu.Lock()
	defer s.flavor.mu.Unlock()
	if !s.flavor.known {
		var v string
		if err := s.q.QueryRowContext(ctx, "SELECT VERSION()").Scan(&v); err != nil {
			return false, fmt.Errorf("server version: %w", err)
		}
		s.flavor.known, s.flavor.mariaDB = true, strings.Contains(strings.ToLower(v), "mariadb")
	}
	return s.flavor.mariaDB, nil
}

// bounded adapts a SELECT to run for at most d (none when d <= 0): the
// server-side bound on MySQL and MariaDB (go-sql-driver only closes the
// connection on a cancelled context and the server would run on), and a
// context that ends d later than that, or at d on PostgreSQL (pgx sends a
// cancel request) and SQLite (the driver interrupts the statement).
func (s *Store) bounded(ctx context.Context, d time.Duration, b sq.SelectBuilder) (context.Context, context.CancelFunc, sq.SelectBuilder) {
	if d <= 0 {
		return ctx, func() {}, b
	}
	if s.d.backend() != MySQL {
		c, cancel := context.WithTimeout(ctx, d)
		return c, cancel, b
	}
	ms := max(d.Milliseconds(), 1)
	maria, err := s.isMariaDB(ctx)
	switch {
	case err != nil:
		// Unknown flavour: the context alone bounds the wait (the server
		// may run on; the next statement asks again).
		c, cancel := context.WithTimeout(ctx, d)
		return c, cancel, b
	case maria:
		b = b.Prefix(fmt.Sprintf("SET STATEMENT max_statement_time=%.3f FOR", float64(ms)/1000))
	default:
		b = b.Options(fmt.Sprintf("/*+ MAX_EXECUTION_TIME(%d) */", ms))
	}
	c, cancel := context.WithTimeout(ctx, d+backstop)
	return c, cancel, b
}

// timedOut reports whether err is a statement stopped by its time bound
// (bctx the bounded context, ctx the caller's).
func timedOut(ctx, bctx context.Context, err error) bool {
	if err == nil || ctx.Err() != nil {
		return false
	}
	if bctx.Err() != nil {
		return true
	}
	var me *mysql.MySQLError
	if errors.As(err, &me) {
		return me.Number == 1969 || me.Number == 3024 // ER_STATEMENT_TIMEOUT, ER_QUERY_TIMEOUT
	}
	var pe *pgconn.PgError
	return errors.As(err, &pe) && pe.Code == "57014"
}

// boundErr turns a timed-out statement into ErrStatementTimeout.
func boundErr(ctx, bctx context.Context, d time.Duration, err error) error {
	if timedOut(ctx, bctx, err) {
		return fmt.Errorf("%w (%s): %v", ErrStatementTimeout, d, err)
	}
	return err
}

// Bounds are the time bounds of a console list's statements.
type Bounds struct {
	// Statement bounds each statement (0: none); hitting it is
	// ErrStatementTimeout.
	Statement time.Duration
	// Count is what an exact count may take (0: Statement's bound) before
	// the list settles for a lower bound of its total (Total.Exact false).
	Count time.Duration
}

// DefaultBounds are the lists' bounds unless configured
// (xxl.job.console.statement-timeout, xxl.job.console.count-timeout): no
// list statement runs longer than 5 s (the caller is told so instead of
// waiting), and a list's exact total may take 80 ms of the database before
// the list settles for a lower bound — on a table of millions of logs an
// exact count costs seconds, the page of rows it belongs to milliseconds.
var DefaultBounds = Bounds{Statement: 5 * time.Second, Count: 80 * time.Millisecond}

// Total is a list's total number of rows: exact, as the Java admin's
// pageListCount is, or when counting them all would cost more than the
// count's bound, a lower bound (there are more rows than N).
type Total struct {
	N     int
	Exact bool
}

// lookAhead is how many ids past a page a list reads: when the list ends
// within them its total needs no count; otherwise they give the pager a
// few pages ahead when the count is given up.
func lookAhead(size int) int { return min(4*size, 1000) }

// pagedIDs runs a list's id query for the page at offset (size ids) and
// the look-ahead behind it; its total is exact when the ids ran out.
func (s *Store) pagedIDs(ctx context.Context, b sq.SelectBuilder, offset, size int, bd Bounds) ([]int64, Total, error) {
	offset, size = max(offset, 0), max(size, 0)
	probe := size
	if size < maxProbe {
		probe = size + lookAhead(size) + 1
	}
	bctx, cancel, bb := s.bounded(ctx, bd.Statement, page(b, offset, probe))
	defer cancel()
	ids, err := s.ids(bctx, bb)
	if err != nil {
		return nil, Total{}, boundErr(ctx, bctx, bd.Statement, err)
	}
	t := Total{}
	if len(ids) < probe && (len(ids) > 0 || offset == 0) {
		t = Total{N: offset + len(ids), Exact: true}
	} else if len(ids) > 0 {
		t = Total{N: offset + len(ids)}
	}
	return ids[:min(size, len(ids))], t, nil
}

// pagedIDsFound is pagedIDs for a plan that reads every matching id and
// sorts them, on MariaDB: SQL_CALC_FOUND_ROWS has the server count the rows
// it sorted (with the same priority queue for the page), so the total is
// exact at no cost where a count would read them all a second time. No
// look-ahead is needed. FOUND_ROWS() is asked on the same connection (a
// read-only transaction).
func (s *Store) pagedIDsFound(ctx context.Context, b sq.SelectBuilder, offset, size int, bd Bounds) ([]int64, Total, error) {
	var ids []int64
	var found int
	err := s.readSnapshot(ctx, func(tx *Store) error {
		bctx, cancel, bb := tx.bounded(ctx, bd.Statement, page(b.Options("SQL_CALC_FOUND_ROWS"), offset, size))
		defer cancel()
		var err error
		if ids, err = tx.ids(bctx, bb); err != nil {
			return boundErr(ctx, bctx, bd.Statement, err)
		}
		return tx.q.QueryRowContext(ctx, "SELECT FOUND_ROWS()").Scan(&found)
	})
	if err != nil {
		return nil, Total{}, err
	}
	return ids, Total{N: found, Exact: true}, nil
}

// maxProbe is the page size above which a list reads no look-ahead (a
// "huge length" request is answered, within its time bound, but not
// doubled).
const maxProbe = 100_000

// boundedCount counts under the count bound; on timeout it keeps the
// lower bound it has, and once the same count (same statement, same
// values) hit its bound twice it is not tried again for slowCountTTL: a person paging through a large list
// does not pay the bound on every page, nor the database the work.
func (s *Store) boundedCount(ctx context.Context, b sq.SelectBuilder, lower Total, bd Bounds) (Total, error) {
	d := bd.Count
	if d <= 0 {
		d = bd.Statement
	}
	key := ""
	if bd.Count > 0 {
		q, args, err := b.ToSql()
		if err != nil {
			return Total{}, err
		}
		key = fmt.Sprint(q, args)
		if s.slow.has(key) {
			return lower, nil
		}
	}
	bctx, cancel, bb := s.bounded(ctx, d, b)
	defer cancel()
	n, err := s.count(bctx, bb)
	switch {
	case err == nil:
		return Total{N: n, Exact: true}, nil
	case bd.Count > 0 && timedOut(ctx, bctx, err):
		s.slow.add(key)
		return lower, nil
	default:
		return Total{}, boundErr(ctx, bctx, d, err)
	}
}

// slowCountTTL is how long a count that hit its bound twice is not tried
// again: its list shows a lower bound for that long even if the table
// shrank. Once is not enough: the first count of a filter often reads
// pages from disk that the next one finds in memory.
const slowCountTTL = time.Minute

// slowCounts remembers the counts that hit their bound (at most
// slowCountsMax; older entries are dropped when full).
type slowCounts struct {
	mu    sync.Mutex
	until map[string]slowCount
	now   func() time.Time
}

type slowCount struct {
	until time.Time
	times int // bound hits within the TTL
}

const slowCountsMax = 1024

func (c *slowCounts) has(key string) bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	e, ok := c.until[key]
	if ok && c.now().After(e.until) {
		delete(c.until, key)
		return false
	}
	return ok && e.times >= 2
}

func (c *slowCounts) add(key string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	now := c.now()
	if len(c.until) >= slowCountsMax {
		for k, e := range c.until {
			if now.After(e.until) {
				delete(c.until, k)
			}
		}
		if len(c.until) >= slowCountsMax {
			clear(c.until)
		}
	}
	e := c.until[key]
	c.until[key] = slowCount{until: now.Add(slowCountTTL), times: e.times + 1}
}
