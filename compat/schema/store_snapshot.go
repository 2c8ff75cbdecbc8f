package schema

import (
	"context"
	"database/sql"
	"fmt"
)

// readSnapshot runs fn with a Store bound to a read-only transaction that
// sees one snapshot (REPEATABLE READ), so several statements answering one
// question — a list's page found in steps — agree with each other while
// triggers insert and retention deletes. Inside a transaction fn runs in
// it.
func (s *Store) readSnapshot(ctx context.Context, fn func(tx *Store) error) error {
	if s.inTx {
		return fn(s)
	}
	tx, err := s.begin.BeginTx(ctx, &sql.TxOptions{Isolation: sql.LevelRepeatableRead, ReadOnly: true})
	if err != nil {
		return fmt.Errorf("begin read: %w", s.failed(ctx, err))
	}
	defer func() { _ = tx.Rollback() }()
	txs := *s
	txs.q, txs.inTx = s.d.wrap(tx), true
	if err := fn(&txs); err != nil {
		return err
	}
	return tx.Commit()
}
