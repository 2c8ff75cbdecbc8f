package schema

import (
	"context"
	"fmt"
	"time"

	sq "github.com/Masterminds/squirrel"
)

// RegistryFindLiveValues lists the distinct live addresses registered under
// one group and key (appname), so rebuilding one app's address list does
// not read every executor's row.
func (s *Store) RegistryFindLiveValues(ctx context.Context, group, key string, timeout time.Duration, now time.Time) ([]string, error) {
	rows, err := s.query(ctx, s.sb.Select("DISTINCT registry_value").From("xxl_job_registry").
		Where(sq.Eq{"registry_group": group, "registry_key": key}).
		Where(sq.Gt{"update_time": s.dbTime(now.Add(-timeout))}))
	if err != nil {
		return nil, fmt.Errorf("live addresses of %s/%s: %w", group, key, err)
	}
	defer rows.Close()
	var out []string
	for rows.Next() {
		var v string
		if err := rows.Scan(&v); err != nil {
			return nil, fmt.Errorf("live addresses of %s/%s: %w", group, key, err)
		}
		out = append(out, v)
	}
	return out, rows.Err()
}
