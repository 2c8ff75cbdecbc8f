package schema

import (
	"context"
	"database/sql"
	"fmt"

	sq "github.com/Masterminds/squirrel"
)

// A deep page of 3.4.2's list of all logs (newest id first, no filter).
// Walking the primary key to offset n reads n whole rows — their messages
// with them, about 46 rows a page on a real table — so page 5,000 reads
// some 1,100 pages and offset 5,000,000 about 110,000. The ids alone are
// ordered by id in every secondary index within one value of its column
// (InnoDB appends the primary key), and I_handle_code, which both
// generations have, holds a handful of values. So the rows above an id x
// are counted from I_handle_code's entries (handle_code, id) — one range a
// code, 17 bytes an entry, some 900 entries a page — and only the last
// stretch to the page is walked on the primary key:
//
//  1. in one snapshot, top = MAX(id) and the handle codes present (a
//     loose index scan: a dive per code);
//  2. x = top - offset: at most offset ids lie in (x, top], so counting
//     them (above) never passes the page; while the page is more than
//     deepSlack rows further, x moves down by what is left (scaled by the
//     ids' density seen so far; a step that would pass the page is taken
//     back and retried unscaled) and the new stretch is counted;
//  3. the page is the walk id <= x ORDER BY id DESC from offset-above.
//
// The page is the one the walk from the top would give in that snapshot.
// The cost is still proportional to the offset (counted entries), about
// 20 times less than the walk: a jump millions deep remains seconds, and
// past the statement bound an error (docs/operations.md). MariaDB only:
// the count relies on its range over the extended key (handle_code, id),
// checked by the plan tests; MySQL keeps the walk.

// deepFrom is the offset from which a page is found by counting.
const deepFrom = 2000

// deepSlack is how far from the page the counting stops and the walk
// takes over (Store.deepSlack when set: tests).
const deepSlack = 2000

// deepCodes is the most handle codes the count takes (one range each);
// with more the list walks.
const deepCodes = 64

// deepNewestIDs is pagedIDs for 3.4.2's list of all logs at a deep
// offset; b is the list's id query (ORDER BY id DESC).
func (s *Store) deepNewestIDs(ctx context.Context, b sq.SelectBuilder, offset, size int, bd Bounds) ([]int64, Total, error) {
	if maria, err := s.isMariaDB(ctx); err != nil || !maria {
		return s.pagedIDs(ctx, b, offset, size, bd)
	}
	var ids []int64
	var t Total
	err := s.readSnapshot(ctx, func(tx *Store) error {
		x, above, ok, err := tx.newestSkip(ctx, offset, bd)
		if err != nil || !ok {
			if err == nil {
				ids, t, err = tx.pagedIDs(ctx, b, offset, size, bd)
			}
			return err
		}
		if x <= 0 { // every row counted: the page is past the end
			ids, t = nil, Total{N: above, Exact: true}
			return nil
		}
		ids, t, err = tx.pagedIDs(ctx, b.Where(sq.LtOrEq{"id": x}), offset-above, size, bd)
		// Past the end below x (no ids), the rows above are still a lower
		// bound for the count to improve on.
		t.N += above
		return err
	})
	return ids, t, err
}

// newestSkip finds an id x and the number of rows above it (above <=
// offset); ok is false when the table's shape does not allow it (no rows,
// too many handle codes).
func (s *Store) newestSkip(ctx context.Context, offset int, bd Bounds) (x int64, above int, ok bool, err error) {
	var top sql.NullInt64
	if err := s.boundedScan(ctx, bd, s.sb.Select("MAX(id)").From("xxl_job_log"), &top); err != nil {
		return 0, 0, false, fmt.Errorf("newest log id: %w", err)
	}
	codes, err := s.handleCodes(ctx, bd)
	if err != nil || !top.Valid || len(codes) == 0 || len(codes) > deepCodes {
		return 0, 0, false, err
	}
	count := func(lo, hi int64) (int, error) {
		var n int
		err := s.boundedScan(ctx, bd, s.deepCountQuery(codes, lo, hi), &n)
		return n, err
	}
	x = max(top.Int64-int64(offset), 0)
	if above, err = count(x, top.Int64); err != nil {
		return 0, 0, false, fmt.Errorf("count logs above %d: %w", x, err)
	}
	slack := deepSlack
	if s.deepSlack > 0 {
		slack = s.deepSlack
	}
	scaled := true
	for i := 0; i < 6 && offset-above > slack && x > 0; i++ {
		left := int64(offset - above)
		step := left
		if scaled && above > 0 {
			// The ids' density so far (gaps: rows deleted, ids a
			// failed insert used, auto_increment_increment in a cluster).
			step = left * (top.Int64 - x) / int64(above)
		}
		nx := max(x-step, 0)
		n, err := count(nx, x)
		if err != nil {
			return 0, 0, false, fmt.Errorf("count logs in (%d, %d]: %w", nx, x, err)
		}
		if int64(n) > left {
			scaled = false // would pass the page: count less, unscaled
			continue
		}
		x, above = nx, above+n
	}
	return x, above, true, nil
}

// deepCountQuery counts the logs with lo < id <= hi from I_handle_code's
// entries: a range (code, lo) .. (code, hi] a code.
func (s *Store) deepCountQuery(codes []int, lo, hi int64) sq.SelectBuilder {
	return s.sb.Select("count(1)").From("xxl_job_log FORCE INDEX (I_handle_code)").
		Where(sq.Eq{"handle_code": codes}).Where(sq.Gt{"id": lo}).Where(sq.LtOrEq{"id": hi})
}

// handleCodesQuery selects the handle codes present (at most deepCodes+1).
func (s *Store) handleCodesQuery() sq.SelectBuilder {
	return s.sb.Select("DISTINCT handle_code").From("xxl_job_log FORCE INDEX (I_handle_code)").Limit(deepCodes + 1)
}

// handleCodes lists the handle codes present in xxl_job_log, at most
// deepCodes+1 of them, by a loose scan of I_handle_code; a NULL (not in
// either generation's table) gives none, so the caller walks.
func (s *Store) handleCodes(ctx context.Context, bd Bounds) ([]int, error) {
	bctx, cancel, b := s.bounded(ctx, bd.Statement, s.handleCodesQuery())
	defer cancel()
	codes, err := selectAll(bctx, s, b, scanValue[sql.NullInt64])
	if err != nil {
		return nil, fmt.Errorf("handle codes: %w", boundErr(ctx, bctx, bd.Statement, err))
	}
	out := make([]int, 0, len(codes))
	for _, c := range codes {
		if !c.Valid {
			return nil, nil
		}
		out = append(out, int(c.Int64))
	}
	return out, nil
}

// boundedScan runs a one-row statement under the statement bound.
func (s *Store) boundedScan(ctx context.Context, bd Bounds, b sq.SelectBuilder, dest ...any) error {
	bctx, cancel, bb := s.bounded(ctx, bd.Statement, b)
	defer cancel()
	return boundErr(ctx, bctx, bd.Statement, s.queryRow(bctx, bb).Scan(dest...))
}
