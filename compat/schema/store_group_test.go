package schema

import (
	"context"
	"errors"
	"reflect"
	"testing"
)

// trickyNames are filter values whose LIKE metacharacters, quotes and
// backslashes must be taken literally; none is a substring of another.
var trickyNames = []string{"a_c", "abc", "a%c", "a!c", "a'c", `a\c`, `a"c`}

func groupTitles(gs []Group) []string {
	out := []string{}
	for _, g := range gs {
		out = append(out, g.Title)
	}
	return out
}

// TestGroupCRUD covers save/load/update/remove of schema.md §4.1.
func TestGroupCRUD(t *testing.T) {
	forEachPrepared(t, func(t *testing.T, s *Store) {
		ctx := context.Background()
		when := at(s, 2024, 2, 29, 23, 59, 59)
		bare := Group{AppName: "app-bare", Title: "无地址", AddressType: 0}
		id1, err := s.GroupSave(ctx, bare)
		mustNoErr(t, err)
		full := Group{AppName: "app-full", Title: "", AddressType: 1, AddressList: Ptr(""), UpdateTime: &when}
		id2, err := s.GroupSave(ctx, full)
		mustNoErr(t, err)
		if id1 <= 1 || id2 != id1+1 {
			t.Fatalf("ids %d, %d: want increasing after the seed group", id1, id2)
		}
		bare.ID, full.ID = id1, id2
		for _, want := range []Group{bare, full} {
			got, err := s.GroupLoad(ctx, want.ID)
			mustNoErr(t, err)
			assertRow(t, got, want)
		}

		// update is a full overwrite: NULL goes back to NULL.
		full.AppName, full.Title, full.AddressType, full.AddressList, full.UpdateTime = "app-full2", "改", 0, nil, nil
		n, err := s.GroupUpdate(ctx, full)
		mustNoErr(t, err)
		if n != 1 {
			t.Errorf("GroupUpdate = %d, want 1", n)
		}
		got, err := s.GroupLoad(ctx, id2)
		mustNoErr(t, err)
		assertRow(t, got, full)

		// Found-rows semantics: rewriting identical values still counts (§3).
		n, err = s.GroupUpdate(ctx, full)
		mustNoErr(t, err)
		if n != 1 {
			t.Errorf("unchanged GroupUpdate = %d, want 1", n)
		}
		if n, _ := s.GroupUpdate(ctx, Group{ID: 9999, AppName: "x", Title: "x"}); n != 0 {
			t.Errorf("GroupUpdate of missing id = %d", n)
		}

		later := at(s, 2024, 3, 1, 0, 0, 1)
		mustNoErr(t, s.GroupUpdateAddressList(ctx, id2, Ptr("10.0.0.1:9999,10.0.0.2:9999"), later))
		full.AddressList, full.UpdateTime = Ptr("10.0.0.1:9999,10.0.0.2:9999"), &later
		got, err = s.GroupLoad(ctx, id2)
		mustNoErr(t, err)
		assertRow(t, got, full)

		n, err = s.GroupRemove(ctx, id1)
		mustNoErr(t, err)
		if n != 1 {
			t.Errorf("GroupRemove = %d", n)
		}
		if _, err := s.GroupLoad(ctx, id1); !errors.Is(err, ErrNotFound) {
			t.Errorf("GroupLoad of removed = %v, want ErrNotFound", err)
		}
		if n, _ := s.GroupRemove(ctx, id1); n != 0 {
			t.Errorf("second GroupRemove = %d", n)
		}
	})
}

// TestGroupOrderAndFilters checks ORDER BY app_name, title, id (with the
// case-insensitive collation of §4.9), findByAddressType and pageList's
// filters and paging.
func TestGroupOrderAndFilters(t *testing.T) {
	forEachPrepared(t, func(t *testing.T, s *Store) {
		ctx := context.Background()
		rawExec(t, s, "DELETE FROM xxl_job_group")
		for _, g := range []Group{
			{AppName: "beta", Title: "t2", AddressType: 1},
			{AppName: "Alpha", Title: "t9"},
			{AppName: "alpha", Title: "T1", AddressType: 1},
			{AppName: "beta", Title: "t2"},
			{AppName: "beta", Title: "T1"},
		} {
			_, err := s.GroupSave(ctx, g)
			mustNoErr(t, err)
		}
		all, err := s.GroupFindAll(ctx)
		mustNoErr(t, err)
		var order [][2]any
		for _, g := range all {
			order = append(order, [2]any{g.AppName, g.Title})
		}
		want := [][2]any{{"alpha", "T1"}, {"Alpha", "t9"}, {"beta", "T1"}, {"beta", "t2"}, {"beta", "t2"}}
		if !reflect.DeepEqual(order, want) {
			t.Errorf("GroupFindAll order = %v, want %v", order, want)
		}
		if all[3].ID > all[4].ID {
			t.Errorf("ties not by id: %d before %d", all[3].ID, all[4].ID)
		}
		manual, err := s.GroupFindByAddressType(ctx, 1)
		mustNoErr(t, err)
		if got := groupTitles(manual); !reflect.DeepEqual(got, []string{"T1", "t2"}) || manual[0].AppName != "alpha" {
			t.Errorf("GroupFindByAddressType(1) = %v", manual)
		}

		// Case-insensitive LIKE, as MySQL's _ci collation.
		list, total, err := s.GroupPageList(ctx, 0, 10, GroupFilter{AppName: "ALPHA", Title: ""})
		mustNoErr(t, err)
		if total != 2 || len(list) != 2 {
			t.Errorf("filter ALPHA = %d/%d, want 2", len(list), total)
		}
		list, total, err = s.GroupPageList(ctx, 0, 10, GroupFilter{AppName: "bet", Title: "t2"})
		mustNoErr(t, err)
		if total != 2 || len(list) != 2 {
			t.Errorf("filter bet+t2 = %d/%d, want 2", len(list), total)
		}
		assertPaging(t, func(offset, size int) ([]string, int, error) {
			gs, n, err := s.GroupPageList(ctx, offset, size, GroupFilter{AppName: "", Title: ""})
			var names []string
			for _, g := range gs {
				names = append(names, g.AppName+"/"+g.Title)
			}
			return names, n, err
		}, []string{"alpha/T1", "Alpha/t9", "beta/T1", "beta/t2", "beta/t2"})
	})
}

// TestGroupFilterLiteral checks a user-typed %, _, !, quote or backslash
// matches only itself (store.go likeContains; the Java admin would treat %
// and _ as wildcards, schema.md §4 conventions).
func TestGroupFilterLiteral(t *testing.T) {
	forEachPrepared(t, func(t *testing.T, s *Store) {
		ctx := context.Background()
		rawExec(t, s, "DELETE FROM xxl_job_group")
		for _, name := range trickyNames {
			_, err := s.GroupSave(ctx, Group{AppName: "app" + name, Title: name})
			mustNoErr(t, err)
		}
		for _, name := range trickyNames {
			for _, filter := range []struct{ app, title string }{{"app" + name, ""}, {"", name}} {
				list, total, err := s.GroupPageList(ctx, 0, 10, GroupFilter{AppName: filter.app, Title: filter.title})
				mustNoErr(t, err)
				if total != 1 || !reflect.DeepEqual(groupTitles(list), []string{name}) {
					t.Errorf("filter %+v matched %q (total %d), want only %q", filter, groupTitles(list), total, name)
				}
			}
		}
		for _, meta := range []string{"_", "%", "!", "'", `\`, `"`} {
			list, _, err := s.GroupPageList(ctx, 0, 10, GroupFilter{AppName: "", Title: meta})
			mustNoErr(t, err)
			if len(list) != 1 {
				t.Errorf("filter %q matched %q, want one row", meta, groupTitles(list))
			}
		}
	})
}

// assertPaging checks LIMIT offset, size semantics against the full
// ordered list: boundaries, offset past the end and size 0.
func assertPaging(t *testing.T, pageFn func(offset, size int) ([]string, int, error), all []string) {
	t.Helper()
	n := len(all)
	cases := []struct{ offset, size int }{
		{0, n}, {0, n + 5}, {0, 1}, {1, 2}, {max(n-2, 0), 2}, {max(n-1, 0), 10}, {n, 10}, {n + 3, 10}, {0, 0}, {2, 0},
	}
	for _, c := range cases {
		got, total, err := pageFn(c.offset, c.size)
		if err != nil {
			t.Fatalf("page(%d,%d): %v", c.offset, c.size, err)
		}
		lo, hi := min(c.offset, n), min(c.offset+c.size, n)
		want := all[lo:hi]
		if len(got) != len(want) || (len(want) > 0 && !reflect.DeepEqual(got, want)) {
			t.Errorf("page(%d,%d) = %q, want %q", c.offset, c.size, got, want)
		}
		if total != n {
			t.Errorf("page(%d,%d) total = %d, want %d", c.offset, c.size, total, n)
		}
	}
}
