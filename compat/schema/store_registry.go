package schema

import (
	"context"
	"fmt"
	"time"

	sq "github.com/Masterminds/squirrel"
)

// RegistryFindDead is findDead: ids not refreshed for timeout before now.
// The threshold is computed here rather than with DATE_ADD so every backend
// compares the same value.
func (s *Store) RegistryFindDead(ctx context.Context, timeout time.Duration, now time.Time) ([]int64, error) {
	ids, err := s.ids(ctx, s.sb.Select("id").From("xxl_job_registry").
		Where(sq.Lt{"update_time": s.dbTime(now.Add(-timeout))}))
	if err != nil {
		return nil, fmt.Errorf("find dead registrations: %w", err)
	}
	return ids, nil
}

// RegistryRemoveDead is removeDead.
func (s *Store) RegistryRemoveDead(ctx context.Context, ids []int64) (int64, error) {
	var total int64
	err := inChunks(ids, func(chunk []int64) error {
		n, err := s.exec(ctx, s.sb.Delete("xxl_job_registry").Where(sq.Eq{"id": chunk}))
		total += n
		return err
	})
	if err != nil {
		return total, fmt.Errorf("remove %d dead registrations: %w", len(ids), err)
	}
	return total, nil
}

// RegistryFindAll is findAll: registrations refreshed within timeout of now.
func (s *Store) RegistryFindAll(ctx context.Context, timeout time.Duration, now time.Time) ([]Registry, error) {
	out, err := selectAll(ctx, s, s.sb.Select("id", "registry_group", "registry_key", "registry_value", "update_time").
		From("xxl_job_registry").Where(sq.Gt{"update_time": s.dbTime(now.Add(-timeout))}), func(sc scanner) (Registry, error) {
		var r Registry
		err := sc.Scan(&r.ID, &r.RegistryGroup, &r.RegistryKey, &r.RegistryValue, s.scanTime(&r.UpdateTime))
		return r, err
	})
	if err != nil {
		return nil, fmt.Errorf("list live registrations: %w", err)
	}
	return out, nil
}

// RegistryUpdate is registryUpdate; it returns the matched row count.
func (s *Store) RegistryUpdate(ctx context.Context, group, key, value string, now time.Time) (int64, error) {
	n, err := s.exec(ctx, s.sb.Update("xxl_job_registry").Set("update_time", s.dbTime(now)).
		Where(sq.Eq{"registry_group": group, "registry_key": key, "registry_value": value}))
	if err != nil {
		return 0, fmt.Errorf("refresh registration %s/%s/%s: %w", group, key, value, err)
	}
	return n, nil
}

// RegistrySave is registrySave. Where the registrations have 3.4.2's
// unique key it is registrySaveOrUpdate (an insert that refreshes the row
// another admin inserted a moment before), so a race between admins
// neither fails a beat nor, on PostgreSQL, aborts the group commit's
// shared transaction.
func (s *Store) RegistrySave(ctx context.Context, group, key, value string, now time.Time) error {
	b := s.sb.Insert("xxl_job_registry").
		Columns("registry_group", "registry_key", "registry_value", "update_time").
		Values(group, key, value, s.dbTime(now))
	if s.shape.RegistryUnique {
		b = b.Suffix(s.d.registryUpsert())
	}
	if _, err := s.exec(ctx, b); err != nil {
		return fmt.Errorf("save registration %s/%s/%s: %w", group, key, value, err)
	}
	return nil
}

// RegistryUpsert refreshes a registration or inserts it when no row matched
// (the Java admin's update-then-insert). It reports whether a row was inserted.
func (s *Store) RegistryUpsert(ctx context.Context, group, key, value string, now time.Time) (bool, error) {
	n, err := s.RegistryUpdate(ctx, group, key, value, now)
	if err != nil {
		return false, err
	}
	if n > 0 {
		return false, nil
	}
	return true, s.RegistrySave(ctx, group, key, value, now)
}

// RegistryDelete is registryDelete.
func (s *Store) RegistryDelete(ctx context.Context, group, key, value string) (int64, error) {
	n, err := s.exec(ctx, s.sb.Delete("xxl_job_registry").
		Where(sq.Eq{"registry_group": group, "registry_key": key, "registry_value": value}))
	if err != nil {
		return 0, fmt.Errorf("delete registration %s/%s/%s: %w", group, key, value, err)
	}
	return n, nil
}

// RegistryRemoveByKey is the 3.4.2 removeByRegistryGroupAndKey: every
// registration of one group and key (an executor appname), live or dead,
// compared by SQL's = as Java's statement does.
func (s *Store) RegistryRemoveByKey(ctx context.Context, group, key string) (int64, error) {
	n, err := s.exec(ctx, s.sb.Delete("xxl_job_registry").Where(sq.Eq{"registry_group": group, "registry_key": key}))
	if err != nil {
		return 0, fmt.Errorf("delete registrations %s/%s: %w", group, key, err)
	}
	return n, nil
}

// RegistryFindLiveValues lists the distinct live addresses registered under
// one group and key (appname), so rebuilding one app's address list does
// not read every executor's row.
//
// Group, key and address are compared exactly, in Go, as Java's registry
// monitor compares them: SQL's = (and DISTINCT) would follow the column's
// collation, under which MariaDB takes "CASE-APP" and "case-app " for
// "case-app" and SQLite does not, so one group's list would change with
// the backend and flap between this and the monitor's rebuild.
func (s *Store) RegistryFindLiveValues(ctx context.Context, group, key string, timeout time.Duration, now time.Time) ([]string, error) {
	type row struct{ group, key, value string }
	rows, err := selectAll(ctx, s, s.sb.Select("registry_group", "registry_key", "registry_value").From("xxl_job_registry").
		Where(sq.Eq{"registry_group": group, "registry_key": key}).
		Where(sq.Gt{"update_time": s.dbTime(now.Add(-timeout))}), func(sc scanner) (row, error) {
		var r row
		err := sc.Scan(&r.group, &r.key, &r.value)
		return r, err
	})
	if err != nil {
		return nil, fmt.Errorf("live addresses of %s/%s: %w", group, key, err)
	}
	out := make([]string, 0, len(rows))
	seen := make(map[string]bool, len(rows))
	for _, r := range rows {
		if r.group != group || r.key != key || seen[r.value] {
			continue
		}
		seen[r.value] = true
		out = append(out, r.value)
	}
	return out, nil
}
