package schema

import (
	"context"
	"fmt"

	sq "github.com/Masterminds/squirrel"
)

// LogLoadMany loads the given logs in one statement (a callback POST carries
// many results); ids that do not exist are absent from the map.
func (s *Store) LogLoadMany(ctx context.Context, ids []int64) (map[int64]JobLog, error) {
	out := make(map[int64]JobLog, len(ids))
	if len(ids) == 0 {
		return out, nil
	}
	logs, err := s.logs(ctx, s.sb.Select(logColumns...).From("xxl_job_log").Where(sq.Eq{"id": ids}))
	if err != nil {
		return nil, fmt.Errorf("load %d logs: %w", len(ids), err)
	}
	for _, l := range logs {
		out[l.ID] = l
	}
	return out, nil
}
