package schema

import (
	"context"
	"fmt"

	sq "github.com/Masterminds/squirrel"
)

var (
	userColumns24 = []string{"id", "username", "password", "role", "permission"}
	userColumns34 = []string{"id", "username", "password", "role", "permission", "token"}
)

// userColumns are the columns of xxl_job_user in the database's generation.
func (s *Store) userColumns() []string {
	if s.shape.Generation == Gen3 {
		return userColumns34
	}
	return userColumns24
}

func (s *Store) scanUser(sc scanner) (User, error) {
	var u User
	dest := []any{&u.ID, &u.Username, &u.Password, &u.Role, &u.Permission}
	if s.shape.Generation == Gen3 {
		dest = append(dest, &u.Token)
	}
	err := sc.Scan(dest...)
	return u, err
}

// UserFilter holds the optional pageList conditions of xxl_job_user; the zero
// value matches every user.
type UserFilter struct {
	Username string
	Role     *int // non-nil to filter (the console's -1 "all" is nil)
}

func (f UserFilter) apply(s *Store, b sq.SelectBuilder) sq.SelectBuilder {
	if f.Username != "" {
		b = b.Where(s.likeContains("username", f.Username))
	}
	if f.Role != nil {
		b = b.Where(sq.Eq{"role": *f.Role})
	}
	return b
}

// UserPageList is pageList and pageListCount (by username).
func (s *Store) UserPageList(ctx context.Context, offset, size int, f UserFilter) ([]User, int, error) {
	out, err := selectAll(ctx, s, page(f.apply(s, s.sb.Select(s.userColumns()...).From("xxl_job_user")).OrderBy(s.d.sortCaseless("username")+" ASC"), offset, size), s.scanUser)
	if err != nil {
		return nil, 0, fmt.Errorf("page users: %w", err)
	}
	total, err := s.count(ctx, f.apply(s, s.sb.Select("count(1)").From("xxl_job_user")))
	if err != nil {
		return nil, 0, fmt.Errorf("count users: %w", err)
	}
	return out, total, nil
}

// UserLoadByName is loadByUserName (case-insensitive, as MySQL's collation).
func (s *Store) UserLoadByName(ctx context.Context, username string) (User, error) {
	u, err := s.scanUser(s.queryRow(ctx, s.sb.Select(s.userColumns()...).From("xxl_job_user").Where(s.d.eqCaseless("username", username))))
	if err != nil {
		return User{}, notFound(err, fmt.Sprintf("load user %q", username))
	}
	return u, nil
}

// UserSave is save; returns the generated id.
func (s *Store) UserSave(ctx context.Context, u User) (int, error) {
	id, err := s.d.insertID(ctx, s.q, s.sb.Insert("xxl_job_user").Columns("username", "password", "role", "permission").
		Values(u.Username, u.Password, u.Role, u.Permission))
	if err != nil {
		return 0, fmt.Errorf("save user %q: %w", u.Username, err)
	}
	return int(id), nil
}

// UserUpdate is update: the password only when non-empty; never the username.
// On a 3.4 database a new password also clears the login token, so that
// every session of the user ends with it (Java 3.4.2 keeps them; a Java
// admin sharing the database then refuses them too).
func (s *Store) UserUpdate(ctx context.Context, u User) (int64, error) {
	b := s.sb.Update("xxl_job_user")
	if u.Password != "" {
		b = b.Set("password", u.Password)
		if s.shape.Generation == Gen3 {
			b = b.Set("token", "")
		}
	}
	n, err := s.exec(ctx, b.Set("role", u.Role).Set("permission", u.Permission).Where(sq.Eq{"id": u.ID}))
	if err != nil {
		return 0, fmt.Errorf("update user %d: %w", u.ID, err)
	}
	return n, nil
}

// UserLoadByID is loadById.
func (s *Store) UserLoadByID(ctx context.Context, id int) (User, error) {
	u, err := s.scanUser(s.queryRow(ctx, s.sb.Select(s.userColumns()...).From("xxl_job_user").Where(sq.Eq{"id": id})))
	if err != nil {
		return User{}, notFound(err, fmt.Sprintf("load user %d", id))
	}
	return u, nil
}

// UserUpdateToken is updateToken (3.4): the login token of a user, set at
// each login to a fresh random value (so one login per user at a time) and
// to "" at logout.
func (s *Store) UserUpdateToken(ctx context.Context, id int, token string) (int64, error) {
	if s.shape.Generation != Gen3 {
		return 0, fmt.Errorf("update login token of user %d: the %s schema has no token column", id, s.shape.Generation)
	}
	n, err := s.exec(ctx, s.sb.Update("xxl_job_user").Set("token", token).Where(sq.Eq{"id": id}))
	if err != nil {
		return 0, fmt.Errorf("update login token of user %d: %w", id, err)
	}
	return n, nil
}

// UserDelete is delete.
func (s *Store) UserDelete(ctx context.Context, id int) (int64, error) {
	n, err := s.exec(ctx, s.sb.Delete("xxl_job_user").Where(sq.Eq{"id": id}))
	if err != nil {
		return 0, fmt.Errorf("delete user %d: %w", id, err)
	}
	return n, nil
}
