package schema

import (
	"context"
	"database/sql"
	"database/sql/driver"
	"fmt"
	"io"
	"strings"
	"sync"
	"testing"
)

// A scripted database/sql driver for fault injection: each step names the
// call it expects (begin, exec, query, commit, rollback), a substring of the
// statement, and what to answer. (go-sqlmock would do, but go.mod no longer
// lists it; this is the small part of it the fault tests need.)

type step struct {
	op     string // begin | exec | query | commit | rollback
	match  string // substring the statement must contain (exec, query)
	err    error
	result driver.Result
	cols   []string
	rows   [][]driver.Value
	rowErr error // returned by Next instead of the last row, when set
}

type script struct {
	t     *testing.T
	mu    sync.Mutex
	steps []step
	pos   int
}

// newScriptDB returns a *sql.DB that follows steps in order and fails the
// test on any unexpected call or on steps left over at the end.
func newScriptDB(t *testing.T, steps ...step) *sql.DB {
	t.Helper()
	sc := &script{t: t, steps: steps}
	db := sql.OpenDB(sc)
	db.SetMaxOpenConns(1)
	t.Cleanup(func() {
		_ = db.Close()
		sc.mu.Lock()
		defer sc.mu.Unlock()
		if sc.pos != len(sc.steps) {
			t.Errorf("script: %d of %d steps run; next expected %s %q", sc.pos, len(sc.steps), sc.steps[sc.pos].op, sc.steps[sc.pos].match)
		}
	})
	return db
}

func (sc *script) next(op, query string) step {
	sc.mu.Lock()
	defer sc.mu.Unlock()
	if sc.pos >= len(sc.steps) {
		sc.t.Errorf("script: unexpected %s %q after the last step", op, query)
		return step{err: fmt.Errorf("script: unexpected %s", op)}
	}
	st := sc.steps[sc.pos]
	if st.op != op || !strings.Contains(query, st.match) {
		sc.t.Errorf("script step %d: got %s %q, want %s containing %q", sc.pos, op, query, st.op, st.match)
		return step{err: fmt.Errorf("script: unexpected %s", op)}
	}
	sc.pos++
	return st
}

func (sc *script) Connect(context.Context) (driver.Conn, error) { return &scriptConn{sc: sc}, nil }
func (sc *script) Driver() driver.Driver                        { return sc }
func (sc *script) Open(string) (driver.Conn, error)             { return &scriptConn{sc: sc}, nil }

type scriptConn struct {
	sc  *script
	bad bool
}

func (c *scriptConn) Prepare(query string) (driver.Stmt, error) {
	return nil, fmt.Errorf("script: Prepare(%q) not supported", query)
}
func (c *scriptConn) Close() error  { return nil }
func (c *scriptConn) IsValid() bool { return !c.bad }
func (c *scriptConn) Begin() (driver.Tx, error) {
	return c.BeginTx(context.Background(), driver.TxOptions{})
}

func (c *scriptConn) answer(st step) error {
	if st.err == driver.ErrBadConn {
		c.bad = true
	}
	return st.err
}

func (c *scriptConn) BeginTx(context.Context, driver.TxOptions) (driver.Tx, error) {
	if err := c.answer(c.sc.next("begin", "")); err != nil {
		return nil, err
	}
	return scriptTx{c}, nil
}

func (c *scriptConn) ExecContext(_ context.Context, query string, _ []driver.NamedValue) (driver.Result, error) {
	st := c.sc.next("exec", query)
	if err := c.answer(st); err != nil {
		return nil, err
	}
	if st.result == nil {
		return driver.RowsAffected(0), nil
	}
	return st.result, nil
}

func (c *scriptConn) QueryContext(_ context.Context, query string, _ []driver.NamedValue) (driver.Rows, error) {
	st := c.sc.next("query", query)
	if err := c.answer(st); err != nil {
		return nil, err
	}
	return &scriptRows{st: st}, nil
}

type scriptTx struct{ c *scriptConn }

func (tx scriptTx) Commit() error   { return tx.c.answer(tx.c.sc.next("commit", "")) }
func (tx scriptTx) Rollback() error { return tx.c.answer(tx.c.sc.next("rollback", "")) }

type scriptRows struct {
	st step
	i  int
}

func (r *scriptRows) Columns() []string { return r.st.cols }
func (r *scriptRows) Close() error      { return nil }
func (r *scriptRows) Next(dest []driver.Value) error {
	if r.st.rowErr != nil && r.i == len(r.st.rows)-1 {
		return r.st.rowErr
	}
	if r.i >= len(r.st.rows) {
		return io.EOF
	}
	copy(dest, r.st.rows[r.i])
	r.i++
	return nil
}

type insertResult struct{ id, n int64 }

func (r insertResult) LastInsertId() (int64, error) { return r.id, nil }
func (r insertResult) RowsAffected() (int64, error) { return r.n, nil }
