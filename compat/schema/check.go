package schema

import (
	"context"
	"fmt"
	"sort"
)

// CheckSchema is Prepare's check without its writes, for `db check`: it
// places the database's generation and lists what Prepare would warn of or
// refuse (the error), but creates no table on an empty database and
// inserts no missing schedule_lock row (a warning names it instead). The
// store's shape is left as it is.
func (s *Store) CheckSchema(ctx context.Context, opts PrepareOptions) (PrepareResult, error) {
	var res PrepareResult
	found, err := s.inspect(ctx)
	if err != nil {
		return res, err
	}
	if len(found) == 0 {
		return res, fmt.Errorf("check schema: %w (an admin creates them at its first start)", ErrNoSchema)
	}
	res.Generation = detectGeneration(found)
	if err := checkColumns(found, res.Generation, s.d.columnType, opts, &res); err != nil {
		return res, err
	}
	var shape Shape
	if err := s.checkIndexes(ctx, res.Generation, &shape, &res); err != nil {
		return res, err
	}
	n, err := s.count(ctx, s.sb.Select("count(1)").From("xxl_job_lock").Where("lock_name = 'schedule_lock'"))
	if err != nil {
		return res, fmt.Errorf("check schedule_lock row: %w", err)
	}
	if n == 0 {
		res.Warnings = append(res.Warnings, "xxl_job_lock has no schedule_lock row (the admin inserts it at start; without it clustered admins fire jobs twice)")
	}
	sort.Strings(res.Warnings)
	return res, nil
}
