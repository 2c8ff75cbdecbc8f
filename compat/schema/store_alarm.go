package schema

import (
	"context"
	"fmt"

	sq "github.com/Masterminds/squirrel"
)

// AlarmClaim is a failed log held in a transient alarm state.
type AlarmClaim struct {
	ID          int64
	AlarmStatus int
}

// LogFindAlarmClaims lists failed logs whose alarm_status is one of the
// given transient values (-1 claimed, -2 sending), oldest id first. It has
// the shape of findFailJobLogIds so it costs what that query costs.
func (s *Store) LogFindAlarmClaims(ctx context.Context, statuses []int, size int) ([]AlarmClaim, error) {
	rows, err := s.query(ctx, page(s.sb.Select("id", "alarm_status").From("xxl_job_log").
		Where("NOT ((trigger_code IN (0, 200) AND handle_code = 0) OR (handle_code = 200))").
		Where(sq.Eq{"alarm_status": statuses}).OrderBy("id ASC"), 0, size))
	if err != nil {
		return nil, fmt.Errorf("find claimed alarms: %w", err)
	}
	defer rows.Close()
	var out []AlarmClaim
	for rows.Next() {
		var c AlarmClaim
		if err := rows.Scan(&c.ID, &c.AlarmStatus); err != nil {
			return nil, fmt.Errorf("find claimed alarms: %w", err)
		}
		out = append(out, c)
	}
	return out, rows.Err()
}
