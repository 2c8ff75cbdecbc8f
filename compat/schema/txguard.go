package schema

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"sync"

	"github.com/go-sql-driver/mysql"
)

// ErrTxRolledBack is a statement not sent because its MySQL transaction
// had already been rolled back by the server (error 1213). It wraps that
// error, so IsConflict holds for it.
var ErrTxRolledBack = errors.New("transaction already rolled back by the server; statement not sent")

// txGuard runs the statements of one MySQL/MariaDB transaction and stops
// them at the first error 1213. That error means the server has rolled
// the whole transaction back and left the session in autocommit: any
// later statement on the connection would run and commit on its own, and
// the final COMMIT would succeed with nothing in it. A caller that passes
// over the error (or a Galera node that raises it at a plain read, when a
// write committed through another node aborted the transaction) would so
// commit the transaction's tail without its head — issue 28: a workflow
// node triggered after a parent whose end was lost with the callback's
// result. PostgreSQL refuses every statement of a failed transaction by
// itself; SQLite has no such error.
type txGuard struct {
	r runner

	mu  sync.Mutex
	err error // the 1213 that ended the transaction
}

// note records err when it ended the transaction.
func (g *txGuard) note(err error) {
	var me *mysql.MySQLError
	if err == nil || !errors.As(err, &me) || me.Number != erLockDeadlock {
		return
	}
	g.mu.Lock()
	if g.err == nil {
		g.err = err
	}
	g.mu.Unlock()
}

// aborted is the error every statement gets once the transaction was
// rolled back (nil before).
func (g *txGuard) aborted() error {
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.err == nil {
		return nil
	}
	return fmt.Errorf("%w: %w", ErrTxRolledBack, g.err)
}

func (g *txGuard) ExecContext(ctx context.Context, query string, args ...any) (sql.Result, error) {
	if err := g.aborted(); err != nil {
		return nil, err
	}
	res, err := g.r.ExecContext(ctx, query, args...)
	g.note(err)
	return res, err
}

func (g *txGuard) QueryContext(ctx context.Context, query string, args ...any) (*sql.Rows, error) {
	if err := g.aborted(); err != nil {
		return nil, err
	}
	rows, err := g.r.QueryContext(ctx, query, args...)
	g.note(err)
	return rows, err
}

// QueryRowContext cannot see the error of its row: Scan returns it, and
// the store's single-row reads (Store.rowOf) note it there. After a
// rollback the row is asked for under a cancelled context, so nothing is
// sent and Scan fails.
func (g *txGuard) QueryRowContext(ctx context.Context, query string, args ...any) *sql.Row {
	if g.aborted() != nil {
		done, cancel := context.WithCancel(ctx)
		cancel()
		return g.r.QueryRowContext(done, query, args...)
	}
	return g.r.QueryRowContext(ctx, query, args...)
}

// PrepareContext prepares on the transaction (see Store.prepare).
func (g *txGuard) PrepareContext(ctx context.Context, query string) (*sql.Stmt, error) {
	if err := g.aborted(); err != nil {
		return nil, err
	}
	p, ok := g.r.(preparer)
	if !ok {
		return nil, fmt.Errorf("prepare: %T cannot prepare statements", g.r)
	}
	stmt, err := p.PrepareContext(ctx, query)
	g.note(err)
	return stmt, err
}
