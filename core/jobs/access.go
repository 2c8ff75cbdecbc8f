package jobs

import (
	"slices"
	"strconv"
	"strings"

	"github.com/xxl-admin-go/xxl-admin-go/compat/schema"
)

// Access is what a console user may do with executor groups (console.md
// §1.2): an admin (role 1) uses every group and manages groups; a normal
// user uses the group ids listed in xxl_job_user.permission. The list is
// read the way the console's group lists and "run once" read it — the
// whole field trimmed, then split on "," — which is the reading the
// console also applies to the checks Java lacks. The console keeps Java's
// second, untrimmed reading for its own add/update checks; new surfaces
// (the job API, export and import) use this one throughout.
type Access struct {
	User   string // the acting user's name, for log lines and messages
	Admin  bool
	groups []string
}

// AccessOf is the access of a stored user.
func AccessOf(u schema.User) Access {
	a := Access{User: u.Username, Admin: u.Role == 1}
	if u.Permission != nil {
		if p := strings.TrimFunc(*u.Permission, func(r rune) bool { return r <= ' ' }); p != "" {
			a.groups = strings.Split(p, ",")
		}
	}
	return a
}

// AdminAccess is an admin's access under the given name.
func AdminAccess(name string) Access { return Access{User: name, Admin: true} }

// May tells whether the user may use jobs, logs and registrations of group.
func (a Access) May(group int) bool {
	return a.Admin || slices.Contains(a.groups, strconv.Itoa(group))
}

// MayUse is May as the services' child-job check takes it.
func (a Access) MayUse() MayUseGroup { return a.May }

// GroupIDs is the group filter of the user's lists: nil for an admin (every
// group), else the listed ids (empty: none).
func (a Access) GroupIDs() []int {
	if a.Admin {
		return nil
	}
	ids := []int{}
	for _, s := range a.groups {
		if n, err := strconv.Atoi(s); err == nil {
			ids = append(ids, n)
		}
	}
	return ids
}
