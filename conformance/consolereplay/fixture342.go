package consolereplay

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"time"

	sq "github.com/Masterminds/squirrel"
)

// Fixture342 is the 3.4.2 recorder's fixture: the 2.4.2 fixture's groups,
// users, jobs and log rows with the same ids (Fixture), so that scenarios
// and findings of both generations name the same rows. The 3.4.2 seed
// (schema-3.4.2.sql) also has an "AI" sample group 2 with jobs 2–4 where
// the 2.4.2 fixture puts its own: those seed rows are deleted first; seed
// group 1, job 1 and user admin stay. Passwords are SHA-256 hex, as 3.x
// stores them.
type Fixture342 struct {
	At       time.Time // "now" of the fixture
	Executor string    // the fake executor's address, "http://127.0.0.1:PORT/"
}

// sha256Hex is the stored form of a 3.x console password.
func sha256Hex(s string) string {
	sum := sha256.Sum256([]byte(s))
	return hex.EncodeToString(sum[:])
}

// Load replaces the seed's sample group 2 and jobs 2–4 by the fixture.
func (f Fixture342) Load(ctx context.Context, db *DB) error {
	if err := db.exec(ctx, db.sb.Delete("xxl_job_info").Where(sq.Eq{"id": []int{2, 3, 4}})); err != nil {
		return fmt.Errorf("delete seed jobs: %w", err)
	}
	if err := db.exec(ctx, db.sb.Delete("xxl_job_group").Where(sq.Eq{"id": 2})); err != nil {
		return fmt.Errorf("delete seed group: %w", err)
	}
	return loadFixture(ctx, db, f.At, f.Executor, sha256Hex)
}
