// Package schema owns the unchanged xxl_job_* tables: their DDL per backend,
// the start-up schema check and the Store, where every SQL statement lives.
package schema

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strings"
	"sync/atomic"
	"time"

	sq "github.com/Masterminds/squirrel"
	_ "github.com/go-sql-driver/mysql" // MySQL and MariaDB driver
	_ "github.com/jackc/pgx/v5/stdlib" // PostgreSQL driver ("pgx")
	_ "modernc.org/sqlite"             // pure-Go SQLite driver, no cgo
)

// ErrNotFound is returned when a row looked up by key does not exist.
var ErrNotFound = errors.New("not found")

// Store runs the admin's queries (schema.md §4) against one database.
// A Store returned by WithTx runs them inside that transaction.
type Store struct {
	db    *sql.DB
	q     runner
	begin txBeginner // where WithTx begins: the pool, or Prepare's locked connection
	inTx  bool       // q is a transaction
	d     dialect
	loc   *time.Location
	sb    sq.StatementBuilderType
	errs  *atomic.Int64 // shared with the Stores of its transactions
	caps  *insertCaps   // shared likewise
	shape *Shape        // what Prepare found; shared likewise
	strs  *shortStrings // the trigger path's repeated values; shared likewise
	// scheduleRows is the size of the last schedule pre-read, the next
	// one's starting capacity; shared likewise.
	scheduleRows *atomic.Int64
	jobWrites    *jobWrites // shared likewise

	// prepareLockWait bounds how long Prepare waits on MySQL for another
	// admin preparing the same database (see prepare_lock.go).
	prepareLockWait time.Duration
	// maxIdle is the pool's idle limit (MySQL, PostgreSQL), restored after
	// an upgrade has closed the idle connections (upgrade_apply.go).
	maxIdle int

	// flavor tells MariaDB from MySQL for statement time bounds; shared
	// with the Stores of its transactions, as is slow, the list counts
	// that hit their bound (store_bound.go).
	flavor *serverFlavor
	slow   *slowCounts
	// deepSlack overrides deepSlack (store_log_deep.go) in tests.
	deepSlack int
	// wsrep tells a Galera node (causal.go); shared likewise.
	wsrep *wsrepFlag
}

// txBeginner is what *sql.DB and *sql.Conn share for WithTx.
type txBeginner interface {
	BeginTx(ctx context.Context, opts *sql.TxOptions) (*sql.Tx, error)
}

// PoolSettings map spring.datasource.hikari.* onto database/sql limits.
type PoolSettings struct {
	MaxOpen     int
	MaxIdle     int
	IdleTimeout time.Duration
	MaxLifetime time.Duration
}

// Open connects to the target and applies the pool settings; it does not
// touch the schema (see Prepare).
func Open(ctx context.Context, t Target, pool PoolSettings) (*Store, error) {
	db, err := sql.Open(t.Driver, t.DSN)
	if err != nil {
		return nil, fmt.Errorf("open %s: %w", t.Display, err)
	}
	var d dialect
	switch t.Backend {
	case MySQL:
		d = mysqlDialect{}
		db.SetMaxOpenConns(max(pool.MaxOpen, 1))
		db.SetMaxIdleConns(max(pool.MaxIdle, 0))
		db.SetConnMaxIdleTime(pool.IdleTimeout)
		db.SetConnMaxLifetime(pool.MaxLifetime)
	case Postgres:
		d = postgresDialect{}
		db.SetMaxOpenConns(max(pool.MaxOpen, 1))
		db.SetMaxIdleConns(max(pool.MaxIdle, 0))
		db.SetConnMaxIdleTime(pool.IdleTimeout)
		db.SetConnMaxLifetime(pool.MaxLifetime)
	case SQLite:
		d = sqliteDialect{}
		// SQLite has one writer; a handful of connections serve concurrent
		// readers under WAL without piling up writers on the busy timeout.
		// An in-memory database exists per connection, so it gets exactly one.
		n := min(max(pool.MaxOpen, 1), 4)
		if t.Path == ":memory:" {
			n = 1
		}
		db.SetMaxOpenConns(n)
		db.SetMaxIdleConns(n)
	default:
		db.Close()
		return nil, fmt.Errorf("unsupported backend %q", t.Backend)
	}
	if err := db.PingContext(ctx); err != nil {
		db.Close()
		return nil, fmt.Errorf("connect %s: %w", t.Display, err)
	}
	s := newStore(db, d, t.Loc)
	s.maxIdle = max(pool.MaxIdle, 0)
	return s, nil
}

func newStore(db *sql.DB, d dialect, loc *time.Location) *Store {
	s := baseStore(db, d, loc)
	s.flavor, s.slow = &serverFlavor{}, &slowCounts{until: map[string]slowCount{}, now: time.Now}
	return s
}

func baseStore(db *sql.DB, d dialect, loc *time.Location) *Store {
	if loc == nil {
		loc = time.Local
	}
	return &Store{db: db, q: d.wrap(db), begin: db, d: d, loc: loc, sb: sq.StatementBuilder, errs: new(atomic.Int64),
		caps: &insertCaps{}, shape: &Shape{Generation: Gen2}, strs: &shortStrings{}, scheduleRows: new(atomic.Int64),
		jobWrites: &jobWrites{}, wsrep: &wsrepFlag{},
		prepareLockWait: defaultPrepareLockWait}
}

// Errors counts the statements, transactions and pings the database failed
// since the store was opened (metrics); a cancelled context is not counted.
func (s *Store) Errors() int64 { return s.errs.Load() }

// failed counts err when it is the database's and returns it.
func (s *Store) failed(ctx context.Context, err error) error {
	if g, ok := s.q.(*txGuard); ok {
		g.note(err) // also errors of rows read without Store.rowOf
	}
	if err != nil && ctx.Err() == nil && !errors.Is(err, sql.ErrNoRows) {
		s.errs.Add(1)
	}
	return err
}

// Close closes the connection pool.
func (s *Store) Close() error { return s.db.Close() }

// Backend tells which database family this store talks to.
func (s *Store) Backend() Backend { return s.d.backend() }

// Generation is the database's schema generation, as Prepare found or
// created it (Gen2 before Prepare).
func (s *Store) Generation() Generation { return s.shape.Generation }

// Location is the zone DATETIME values are read and written in.
func (s *Store) Location() *time.Location { return s.loc }

// Ping checks the database answers, for the health endpoint.
func (s *Store) Ping(ctx context.Context) error {
	var one int
	if err := s.q.QueryRowContext(ctx, "SELECT 1").Scan(&one); err != nil {
		return fmt.Errorf("ping database: %w", s.failed(ctx, err))
	}
	return nil
}

// WithTx runs fn with a Store bound to one transaction, committing when fn
// returns nil and rolling back otherwise (also on panic), so a failure never
// leaves half-written rows.
func (s *Store) WithTx(ctx context.Context, fn func(tx *Store) error) (err error) {
	if s.inTx {
		return fn(s)
	}
	tx, err := s.begin.BeginTx(ctx, nil)
	if err != nil {
		return fmt.Errorf("begin transaction: %w", s.failed(ctx, err))
	}
	defer func() {
		if p := recover(); p != nil {
			_ = tx.Rollback()
			panic(p)
		}
		if err != nil {
			_ = tx.Rollback()
		}
	}()
	txs := *s
	txs.q, txs.inTx = s.d.wrap(tx), true
	var guard *txGuard
	if s.d.backend() == MySQL {
		guard = &txGuard{r: txs.q}
		txs.q = guard
	}
	err = fn(&txs)
	if guard != nil {
		// A transaction the server rolled back is reported as the conflict
		// it is (callers redo it), whatever fn made of the error; one whose
		// fn passed over it is not committed as if whole.
		if ab := guard.aborted(); ab != nil && !IsConflict(err) {
			if err != nil {
				ab = fmt.Errorf("%w (then: %v)", ab, err)
			}
			err = ab
		}
	}
	if err != nil {
		return err
	}
	if err = tx.Commit(); err != nil {
		return fmt.Errorf("commit: %w", s.failed(ctx, err))
	}
	return nil
}

// WithScheduleLock runs fn while holding the cluster-wide schedule lock: in a
// transaction that first selects the `schedule_lock` row FOR UPDATE, exactly
// the row Java admins lock, so Java and Go admins sharing a database exclude
// each other (schema.md §4.8). On SQLite the immediate transaction holds the
// database write lock instead.
func (s *Store) WithScheduleLock(ctx context.Context, fn func(tx *Store) error) error {
	return s.WithTx(ctx, func(tx *Store) error {
		q := strings.TrimSpace("SELECT lock_name FROM xxl_job_lock WHERE lock_name = 'schedule_lock' " + s.d.lockSuffix())
		var name string
		if err := tx.q.QueryRowContext(ctx, q).Scan(&name); err != nil {
			if errors.Is(err, sql.ErrNoRows) {
				return fmt.Errorf("schedule lock: row 'schedule_lock' missing from xxl_job_lock")
			}
			return fmt.Errorf("schedule lock: %w", err)
		}
		return fn(tx)
	})
}

// ScheduleLockWaiters counts the other sessions of this database blocked on
// the schedule lock or another row lock: InnoDB reports a lock wait, or a
// locking SELECT (the schedule lock's or a round's pre-read) is still
// executing; PostgreSQL lists the waiter's lock as not granted in pg_locks.
// ok is false where the backend cannot tell (SQLite).
//
// The processlist test is needed, not a fallback: MariaDB refreshes its
// innodb_trx cache only after 100 ms without a reader, so a caller polling
// faster than that reads the table as it was before the wait began, for as
// long as it polls (TestRoundSeesConcurrentEdit hung on it in CI).
func (s *Store) ScheduleLockWaiters(ctx context.Context) (n int, ok bool, err error) {
	switch s.d.backend() {
	case MySQL:
		err = s.q.QueryRowContext(ctx, `SELECT count(1) FROM information_schema.processlist p
		LEFT JOIN information_schema.innodb_trx t ON p.id = t.trx_mysql_thread_id
		WHERE p.db = DATABASE() AND p.id <> CONNECTION_ID() AND (t.trx_state = 'LOCK WAIT'
		  OR (p.command = 'Query' AND p.info LIKE '%FOR UPDATE%' AND p.info NOT LIKE '%information_schema%'))`).Scan(&n)
	case Postgres:
		err = s.q.QueryRowContext(ctx, `SELECT count(DISTINCT l.pid) FROM pg_locks l
		JOIN pg_stat_activity a ON a.pid = l.pid
		WHERE NOT l.granted AND a.datname = current_database() AND l.pid <> pg_backend_pid()`).Scan(&n)
	default:
		return 0, false, nil
	}
	if err != nil {
		return 0, true, fmt.Errorf("count schedule lock waiters: %w", err)
	}
	return n, true, nil
}

func (s *Store) exec(ctx context.Context, b sq.Sqlizer) (int64, error) {
	query, args, err := b.ToSql()
	if err != nil {
		return 0, err
	}
	res, err := s.q.ExecContext(ctx, query, args...)
	if err != nil {
		return 0, s.failed(ctx, err)
	}
	return res.RowsAffected()
}

func (s *Store) query(ctx context.Context, b sq.Sqlizer) (*sql.Rows, error) {
	query, args, err := b.ToSql()
	if err != nil {
		return nil, err
	}
	rows, err := s.q.QueryContext(ctx, query, args...)
	return rows, s.failed(ctx, err)
}

func (s *Store) queryRow(ctx context.Context, b sq.Sqlizer) row {
	query, args, err := b.ToSql()
	if err != nil {
		return s.rowOf(ctx, "SELECT invalid query /* "+err.Error()+" */")
	}
	return s.rowOf(ctx, query, args...)
}

// rowOf runs a single-row query. Its error comes at Scan, which a
// MySQL transaction's guard (txGuard) must see.
func (s *Store) rowOf(ctx context.Context, query string, args ...any) row {
	g, _ := s.q.(*txGuard)
	return row{Row: s.q.QueryRowContext(ctx, query, args...), guard: g}
}

// row is a single row read; Scan tells the transaction's guard, if any,
// its error.
type row struct {
	*sql.Row
	guard *txGuard
}

func (r row) Scan(dest ...any) error {
	err := r.Row.Scan(dest...)
	if r.guard != nil {
		r.guard.note(err)
	}
	return err
}

// scanner is what *sql.Row and *sql.Rows share.
type scanner interface {
	Scan(dest ...any) error
}

// selectAll runs a query and scans every row with scan: the one row loop of
// the store.
func selectAll[T any](ctx context.Context, s *Store, b sq.Sqlizer, scan func(scanner) (T, error)) ([]T, error) {
	rows, err := s.query(ctx, b)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []T
	for rows.Next() {
		v, err := scan(rows)
		if err != nil {
			return nil, err
		}
		out = append(out, v)
	}
	return out, rows.Err()
}

// scanValue scans a one-column row.
func scanValue[T any](sc scanner) (T, error) {
	var v T
	err := sc.Scan(&v)
	return v, err
}

// maxInList bounds the values of one IN (...) list: SQLite refuses more than
// 32,766 bound variables per statement and long lists are slow everywhere,
// so id lists of any length are sent in chunks of this size.
const maxInList = 1000

// inChunks calls fn with consecutive chunks of at most maxInList values.
func inChunks[T any](vals []T, fn func(chunk []T) error) error {
	for len(vals) > 0 {
		n := min(len(vals), maxInList)
		if err := fn(vals[:n]); err != nil {
			return err
		}
		vals = vals[n:]
	}
	return nil
}

func (s *Store) count(ctx context.Context, b sq.SelectBuilder) (int, error) {
	var n int
	err := s.queryRow(ctx, b).Scan(&n)
	return n, err
}

// likeContains builds a LIKE pattern matching v anywhere, with the user's own
// '%' and '_' taken literally (the Java admin lets them act as wildcards),
// case-insensitive on every backend as MySQL's LIKE is. SQLite's LIKE stops
// reading its pattern at a NUL byte, so a value holding one also needs INSTR
// (on MySQL too, to keep one rule; PostgreSQL never sees a NUL, see nulFree).
func (s *Store) likeContains(column, v string) sq.Sqlizer {
	r := strings.NewReplacer("!", "!!", "%", "!%", "_", "!_")
	like := sq.Expr(column+" "+s.d.likeOp()+" ? ESCAPE '!'", "%"+r.Replace(v)+"%")
	if strings.ContainsRune(v, 0) && s.d.backend() != Postgres {
		return sq.And{like, sq.Expr("INSTR("+column+", ?) > 0", v)}
	}
	return like
}

// inOrNone is column IN (vals), or a condition matching nothing when vals is
// empty (squirrel would render an empty IN as always false too, but says so
// explicitly here because permission filters rely on it).
func inOrNone[T any](column string, vals []T) sq.Sqlizer {
	if len(vals) == 0 {
		return sq.Expr("1 = 0")
	}
	return sq.Eq{column: vals}
}

// page applies offset/count paging; negative values mean none, as MySQL
// rejects them anyway.
func page(b sq.SelectBuilder, offset, size int) sq.SelectBuilder {
	if size < 0 {
		size = 0
	}
	if offset < 0 {
		offset = 0
	}
	return b.Limit(uint64(size)).Offset(uint64(offset))
}

func notFound(err error, what string) error {
	if errors.Is(err, sql.ErrNoRows) {
		return fmt.Errorf("%s: %w", what, ErrNotFound)
	}
	return fmt.Errorf("%s: %w", what, err)
}
