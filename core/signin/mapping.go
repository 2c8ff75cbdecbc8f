package signin

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
)

// Identity is a person the provider vouched for.
type Identity struct {
	Source   string   // "oidc" or "ldap": the only source that may use the row later
	Username string   // xxl_job_user.username
	Groups   []string // group names (OIDC group claim, LDAP group names)
	Admin    bool     // the admin claim or an admin group matched
}

// Mapping turns a provider's groups into the console's role and executor
// permissions.
type Mapping struct {
	AdminGroups []string         // any of these groups (or admin claim values) makes the admin role
	Permissions map[string][]int // group name → executor group ids (xxl_job_group.id)
}

// IsAdmin tells whether one of groups is an admin group.
func (m Mapping) IsAdmin(groups []string) bool {
	for _, g := range groups {
		if slices.Contains(m.AdminGroups, g) {
			return true
		}
	}
	return false
}

// Permission is the permission column for groups: the executor group ids
// every matching group grants, sorted, comma-separated ("" for none).
func (m Mapping) Permission(groups []string) string {
	var ids []int
	for _, g := range groups {
		ids = append(ids, m.Permissions[g]...)
	}
	slices.Sort(ids)
	ids = slices.Compact(ids)
	parts := make([]string, len(ids))
	for i, id := range ids {
		parts[i] = strconv.Itoa(id)
	}
	return strings.Join(parts, ",")
}

// ParsePermissions reads a group-permissions value: entries separated by
// ";", each "group:id,id,…". The group is everything before the last ":"
// (so names with colons work); ids are executor group ids.
func ParsePermissions(v string) (map[string][]int, error) {
	out := map[string][]int{}
	for _, entry := range strings.Split(v, ";") {
		entry = strings.TrimSpace(entry)
		if entry == "" {
			continue
		}
		i := strings.LastIndex(entry, ":")
		if i <= 0 {
			return nil, fmt.Errorf("%q: want group:id,id", entry)
		}
		group := strings.TrimSpace(entry[:i])
		for _, s := range strings.Split(entry[i+1:], ",") {
			if s = strings.TrimSpace(s); s == "" {
				continue
			}
			id, err := strconv.Atoi(s)
			if err != nil || id <= 0 {
				return nil, fmt.Errorf("%q: %q is not an executor group id", entry, s)
			}
			out[group] = append(out[group], id)
		}
	}
	return out, nil
}

// SplitList reads a comma-separated list, dropping blanks.
func SplitList(v string) []string {
	var out []string
	for _, s := range strings.Split(v, ",") {
		if s = strings.TrimSpace(s); s != "" {
			out = append(out, s)
		}
	}
	return out
}
