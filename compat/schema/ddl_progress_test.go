package schema

import (
	"context"
	"testing"
	"time"
)

// TestExecWatched builds an index on 62,500 rows on each backend while
// polling the server's progress every millisecond: the polls come, each
// says a share (0–1) or nothing (-1), MariaDB says a share, and a failing
// statement's error comes back.
func TestExecWatched(t *testing.T) {
	forEachBackend(t, func(t *testing.T, s *Store) {
		ctx := context.Background()
		for _, q := range []string{
			"CREATE TABLE watched (id INT NOT NULL PRIMARY KEY, v INT NOT NULL)",
			// 250 × 250 rows (MariaDB stops a recursion at 1,000 steps).
			`INSERT INTO watched (id, v) SELECT i, i * 7 FROM (WITH RECURSIVE n(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM n WHERE i < 249) SELECT a.i * 250 + b.i AS i FROM n a, n b) x`,
		} {
			if _, err := s.db.ExecContext(ctx, q); err != nil {
				t.Fatalf("%s: %v", q, err)
			}
		}
		conn, err := s.db.Conn(ctx)
		mustNoErr(t, err)
		defer conn.Close()
		var polls []float64
		mustNoErr(t, s.execWatched(ctx, conn, "CREATE INDEX i_watched_v ON watched (v)", time.Millisecond, func(done float64) {
			polls = append(polls, done)
		}))
		if len(polls) == 0 {
			t.Fatal("no progress while the index was built")
		}
		said := false
		for _, p := range polls {
			if p < -1 || p > 1 {
				t.Errorf("progress %v is neither a share nor -1", p)
			}
			said = said || p >= 0
		}
		if s.Backend() == MySQL && !said {
			t.Errorf("MariaDB's PROCESSLIST said no progress in %d polls", len(polls))
		}
		if err := s.execWatched(ctx, conn, "CREATE INDEX i_watched_v ON watched (v)", time.Millisecond, func(float64) {}); err == nil {
			t.Error("a second index of the same name was not refused")
		}
	})
}
