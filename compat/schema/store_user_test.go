package schema

import (
	"context"
	"errors"
	"testing"
)

// TestUserCRUD covers schema.md §4.7: case-insensitive loadByUserName,
// update keeping the password when none is given, never the username.
func TestUserCRUD(t *testing.T) {
	forEachPrepared(t, func(t *testing.T, s *Store) {
		ctx := context.Background()
		u := User{Username: "Zhang_San", Password: "e10adc3949ba59abbe56e057f20f883e", Role: 0, Permission: Ptr("")}
		id, err := s.UserSave(ctx, u)
		mustNoErr(t, err)
		u.ID = id
		for _, name := range []string{"Zhang_San", "zhang_san", "ZHANG_SAN"} {
			got, err := s.UserLoadByName(ctx, name)
			mustNoErr(t, err)
			assertRow(t, got, u)
		}
		if _, err := s.UserLoadByName(ctx, "zhang%"); !errors.Is(err, ErrNotFound) {
			t.Errorf("lookup is an equality, got %v", err)
		}
		// The unique key is case-insensitive too.
		if _, err := s.UserSave(ctx, User{Username: "ADMIN", Password: "x", Role: 0}); err == nil {
			t.Errorf("saving ADMIN beside admin succeeded")
		}

		// Empty password: keep the old one; username never changes.
		n, err := s.UserUpdate(ctx, User{ID: id, Username: "other", Password: "", Role: 1, Permission: nil})
		mustNoErr(t, err)
		if n != 1 {
			t.Errorf("UserUpdate = %d", n)
		}
		u.Role, u.Permission = 1, nil
		got, err := s.UserLoadByName(ctx, "zhang_san")
		mustNoErr(t, err)
		assertRow(t, got, u)

		_, err = s.UserUpdate(ctx, User{ID: id, Password: "0123456789abcdef0123456789abcdef", Role: 0, Permission: Ptr("1,2")})
		mustNoErr(t, err)
		u.Password, u.Role, u.Permission = "0123456789abcdef0123456789abcdef", 0, Ptr("1,2")
		got, err = s.UserLoadByName(ctx, "Zhang_San")
		mustNoErr(t, err)
		assertRow(t, got, u)

		n, err = s.UserDelete(ctx, id)
		mustNoErr(t, err)
		if n != 1 {
			t.Errorf("UserDelete = %d", n)
		}
		if _, err := s.UserLoadByName(ctx, "zhang_san"); !errors.Is(err, ErrNotFound) {
			t.Errorf("deleted user: %v", err)
		}
	})
}

// TestUserPageList checks ORDER BY username, the role filter (> -1) and the
// literal username filter.
func TestUserPageList(t *testing.T) {
	forEachPrepared(t, func(t *testing.T, s *Store) {
		ctx := context.Background()
		for i, name := range []string{"carol", "Bob", "dave_x", "dave1x"} {
			_, err := s.UserSave(ctx, User{Username: name, Password: "p", Role: i % 2})
			mustNoErr(t, err)
		}
		names := func(offset, size int, filter string, role int) ([]string, int, error) {
			f := UserFilter{Username: filter}
			if role > -1 {
				f.Role = Ptr(role)
			}
			us, n, err := s.UserPageList(ctx, offset, size, f)
			var out []string
			for _, u := range us {
				out = append(out, u.Username)
			}
			return out, n, err
		}
		assertPaging(t, func(offset, size int) ([]string, int, error) { return names(offset, size, "", -1) },
			[]string{"admin", "Bob", "carol", "dave1x", "dave_x"})
		assertPaging(t, func(offset, size int) ([]string, int, error) { return names(offset, size, "", 1) },
			[]string{"admin", "Bob", "dave1x"})
		assertPaging(t, func(offset, size int) ([]string, int, error) { return names(offset, size, "", 0) },
			[]string{"carol", "dave_x"})
		assertPaging(t, func(offset, size int) ([]string, int, error) { return names(offset, size, "e_", -1) },
			[]string{"dave_x"})
		assertPaging(t, func(offset, size int) ([]string, int, error) { return names(offset, size, "B", -1) },
			[]string{"Bob"})
	})
}
