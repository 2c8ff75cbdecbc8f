package schema

import (
	"context"
	"fmt"
	"time"

	sq "github.com/Masterminds/squirrel"
)

var groupColumns = []string{"id", "app_name", "title", "address_type", "address_list", "update_time"}

func (s *Store) scanGroup(sc scanner) (Group, error) {
	var g Group
	err := sc.Scan(&g.ID, &g.AppName, &g.Title, &g.AddressType, &g.AddressList, s.scanTime(&g.UpdateTime))
	return g, err
}

func (s *Store) groups(ctx context.Context, b sq.SelectBuilder) ([]Group, error) {
	return selectAll(ctx, s, b, s.scanGroup)
}

func (s *Store) groupSelect() sq.SelectBuilder {
	return s.sb.Select(groupColumns...).From("xxl_job_group")
}

// groupOrder is findAll's ORDER BY app_name, title, id, with MySQL's
// case-insensitive comparison of names (schema.md §4.9).
func (s *Store) groupOrder() []string {
	return []string{s.d.sortCaseless("app_name"), s.d.sortCaseless("title"), "id ASC"}
}

// GroupFindAll is findAll: every group by app_name, title, id.
func (s *Store) GroupFindAll(ctx context.Context) ([]Group, error) {
	g, err := s.groups(ctx, s.groupSelect().OrderBy(s.groupOrder()...))
	if err != nil {
		return nil, fmt.Errorf("list groups: %w", err)
	}
	return g, nil
}

// GroupFindByAddressType is findByAddressType.
func (s *Store) GroupFindByAddressType(ctx context.Context, addressType int) ([]Group, error) {
	g, err := s.groups(ctx, s.groupSelect().Where(sq.Eq{"address_type": addressType}).OrderBy(s.groupOrder()...))
	if err != nil {
		return nil, fmt.Errorf("list groups of address type %d: %w", addressType, err)
	}
	return g, nil
}

// GroupSave is save; it returns the generated id.
func (s *Store) GroupSave(ctx context.Context, g Group) (int, error) {
	id, err := s.d.insertID(ctx, s.q, s.sb.Insert("xxl_job_group").
		Columns("app_name", "title", "address_type", "address_list", "update_time").
		Values(g.AppName, g.Title, g.AddressType, g.AddressList, s.dbTimePtr(g.UpdateTime)))
	if err != nil {
		return 0, fmt.Errorf("save group %q: %w", g.AppName, err)
	}
	return int(id), nil
}

// GroupUpdate is update: a full overwrite of the row.
func (s *Store) GroupUpdate(ctx context.Context, g Group) (int64, error) {
	n, err := s.exec(ctx, s.sb.Update("xxl_job_group").
		Set("app_name", g.AppName).Set("title", g.Title).Set("address_type", g.AddressType).
		Set("address_list", g.AddressList).Set("update_time", s.dbTimePtr(g.UpdateTime)).
		Where(sq.Eq{"id": g.ID}))
	if err != nil {
		return 0, fmt.Errorf("update group %d: %w", g.ID, err)
	}
	return n, nil
}

// GroupUpdateAddressList rewrites address_list and update_time only; the
// registry monitor uses it so a concurrent console edit of the title is not
// overwritten with a stale copy.
func (s *Store) GroupUpdateAddressList(ctx context.Context, id int, addressList *string, now time.Time) error {
	if _, err := s.exec(ctx, s.sb.Update("xxl_job_group").
		Set("address_list", addressList).Set("update_time", s.dbTime(now)).Where(sq.Eq{"id": id})); err != nil {
		return fmt.Errorf("update address list of group %d: %w", id, err)
	}
	return nil
}

// GroupRemove is remove.
func (s *Store) GroupRemove(ctx context.Context, id int) (int64, error) {
	n, err := s.exec(ctx, s.sb.Delete("xxl_job_group").Where(sq.Eq{"id": id}))
	if err != nil {
		return 0, fmt.Errorf("remove group %d: %w", id, err)
	}
	return n, nil
}

// GroupLoad is load; ErrNotFound when the id does not exist.
func (s *Store) GroupLoad(ctx context.Context, id int) (Group, error) {
	g, err := s.scanGroup(s.queryRow(ctx, s.groupSelect().Where(sq.Eq{"id": id})))
	if err != nil {
		return Group{}, notFound(err, fmt.Sprintf("load group %d", id))
	}
	return g, nil
}

// GroupFilter holds the optional pageList conditions of xxl_job_group; the
// zero value matches every group.
type GroupFilter struct {
	AppName string
	Title   string
}

func (f GroupFilter) apply(s *Store, b sq.SelectBuilder) sq.SelectBuilder {
	if f.AppName != "" {
		b = b.Where(s.likeContains("app_name", f.AppName))
	}
	if f.Title != "" {
		b = b.Where(s.likeContains("title", f.Title))
	}
	return b
}

// GroupPageList is pageList and pageListCount.
func (s *Store) GroupPageList(ctx context.Context, offset, size int, f GroupFilter) ([]Group, int, error) {
	list, err := s.groups(ctx, page(f.apply(s, s.groupSelect()).OrderBy(s.groupOrder()...), offset, size))
	if err != nil {
		return nil, 0, fmt.Errorf("page groups: %w", err)
	}
	total, err := s.count(ctx, f.apply(s, s.sb.Select("count(1)").From("xxl_job_group")))
	if err != nil {
		return nil, 0, fmt.Errorf("count groups: %w", err)
	}
	return list, total, nil
}
