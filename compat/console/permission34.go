package console

import (
	"context"
	"slices"
	"strconv"
	"strings"

	"github.com/xxl-admin-go/xxl-admin-go/compat/schema"
)

// Group permissions of the 3.4.2 console (JobGroupPermissionUtil, shared by
// its JSON endpoints and pages). An admin (role 1) uses every group; a
// normal user the ids in xxl_job_user.permission, read one way throughout:
// split on ",", every item trimmed, blank items dropped (xxl-tool's
// StringTool.split) — "1, 2" grants 1 and 2, "02" grants nothing.
//
// Where 3.4.2 fails with a NullPointerException — a normal user whose
// permission is NULL or blank, on every group check — the user simply has
// no group here.

// groupsOf34 is the group ids a normal user's permission lists.
func groupsOf34(u *schema.User) []string {
	if u.Permission == nil {
		return nil
	}
	var out []string
	for _, item := range strings.Split(*u.Permission, ",") {
		if item = javaTrim(item); item != "" {
			out = append(out, item)
		}
	}
	return out
}

// mayUse34 is hasJobGroupPermission: may u use jobs, logs and the
// registrations of group?
func mayUse34(u *schema.User, group int) bool {
	return u.Role == 1 || slices.Contains(groupsOf34(u), strconv.Itoa(group))
}

// checkGroup34 is validJobGroupPermission: the permission exception,
// "java.lang.RuntimeException: 权限拦截[username=…]", for a group u may not
// use.
func (c *Console) checkGroup34(u *schema.User, group int) error {
	if !mayUse34(u, group) {
		return runtimeException(c.permissionText(u))
	}
	return nil
}

// permittedGroups34 is filterJobGroupByPermission: every group for an
// admin, the listed ones for a normal user, in findAll's order (the job
// and log pages' group selects).
func (c *Console) permittedGroups34(ctx context.Context, u *schema.User) ([]schema.Group, error) {
	all, err := c.store.GroupFindAll(ctx)
	if err != nil {
		return nil, err
	}
	if u.Role == 1 {
		return all, nil
	}
	out := all[:0]
	for _, g := range all {
		if mayUse34(u, g.ID) {
			out = append(out, g)
		}
	}
	return out, nil
}
