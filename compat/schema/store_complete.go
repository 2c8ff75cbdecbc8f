package schema

import (
	"context"
	"fmt"

	sq "github.com/Masterminds/squirrel"
)

// LogFinish writes the handle result only while the row is still open
// (handle_code <= 0), and reports whether this caller wrote it. It is the
// compare-and-set form of updateHandleInfo: of two deliveries of the same
// callback racing each other (the executor re-sends after a timeout), only
// one finishes the log and fires its child jobs.
func (s *Store) LogFinish(ctx context.Context, l JobLog) (bool, error) {
	n, err := s.exec(ctx, s.sb.Update("xxl_job_log").
		Set("handle_time", s.dbTimePtr(l.HandleTime)).Set("handle_code", l.HandleCode).
		Set("handle_msg", l.HandleMsg).
		Where(sq.Eq{"id": l.ID}).Where(sq.LtOrEq{"handle_code": 0}))
	if err != nil {
		return false, fmt.Errorf("finish log %d: %w", l.ID, err)
	}
	return n > 0, nil
}
