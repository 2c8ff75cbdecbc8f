package console

import (
	"context"
	"slices"
	"strconv"
	"strings"
	"unicode"

	"github.com/xxl-admin-go/xxl-admin-go/compat/schema"
	"github.com/xxl-admin-go/xxl-admin-go/core/jobs"
)

// Group permissions (console.md §1.2). An admin (role 1) may use every
// group; a normal user the ids listed in xxl_job_user.permission. Java
// reads that list two ways and both are kept, so users see what they saw:
// its own group checks split the field as stored (" 2" grants nothing), its
// group lists and "run once" trim the field first (" 2" grants group 2).
// The checks Java lacks — listing, starting, stopping, removing other
// groups' jobs, reading and killing their logs — use the trimmed reading.

// mayUse is Java's validPermission: the untrimmed reading.
func mayUse(u *schema.User, group int) bool {
	if u.Role == 1 {
		return true
	}
	if u.Permission == nil || strings.TrimFunc(*u.Permission, unicode.IsSpace) == "" {
		return false
	}
	return slices.Contains(strings.Split(*u.Permission, ","), strconv.Itoa(group))
}

// accessOf is the trimmed reading (jobs.Access, shared with the job API).
func accessOf(u *schema.User) jobs.Access { return jobs.AccessOf(*u) }

// checkGroup is Java's validJobGroupPermission: the permission exception
// for a group the user may not use.
func (c *Console) checkGroup(u *schema.User, group int) error {
	if !mayUse(u, group) {
		return runtimeException(c.permissionText(u))
	}
	return nil
}

// checkGroupTrimmed guards the endpoints Java leaves open, with the same
// exception.
func (c *Console) checkGroupTrimmed(u *schema.User, group int) error {
	if !accessOf(u).May(group) {
		return runtimeException(c.permissionText(u))
	}
	return nil
}

// permittedGroups is Java's filterJobGroupByRole: every group for an admin,
// the listed ones (trimmed reading) for a normal user, ordered like findAll.
func (c *Console) permittedGroups(ctx context.Context, u *schema.User) ([]schema.Group, error) {
	all, err := c.store.GroupFindAll(ctx)
	if err != nil {
		return nil, err
	}
	if u.Role == 1 {
		return all, nil
	}
	a := accessOf(u)
	out := all[:0]
	for _, g := range all {
		if a.May(g.ID) {
			out = append(out, g)
		}
	}
	return out, nil
}
