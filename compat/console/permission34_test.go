package console

import (
	"context"
	"slices"
	"testing"

	"github.com/xxl-admin-go/xxl-admin-go/compat/schema"
	"github.com/xxl-admin-go/xxl-admin-go/internal/testsupport/storetest"
	"github.com/xxl-admin-go/xxl-admin-go/internal/testsupport/testfactory"
)

// TestMayUse34 is 3.4.2's reading of xxl_job_user.permission: items
// trimmed, blanks dropped, compared as decimal text (recording
// perm_permission_whitespace: ' 2' grants group 2 everywhere).
func TestMayUse34(t *testing.T) {
	for _, c := range []struct {
		perm  *string
		group int
		want  bool
	}{
		{schema.Ptr(" 2"), 2, true},
		{schema.Ptr("1, 2 ,3"), 2, true},
		{schema.Ptr("1,,3"), 3, true},
		{schema.Ptr("02"), 2, false},
		{schema.Ptr("12"), 2, false},
		{schema.Ptr(""), 2, false},
		{nil, 2, false},
		{schema.Ptr("0"), 0, true},
	} {
		u := &schema.User{Username: "u", Permission: c.perm}
		if got := mayUse34(u, c.group); got != c.want {
			t.Errorf("permission %v, group %d: %v, want %v", c.perm, c.group, got, c.want)
		}
	}
	if !mayUse34(&schema.User{Role: 1}, 99) {
		t.Error("an admin may use every group")
	}
}

// TestPermittedGroups34 is filterJobGroupByPermission: the groups the job
// and log pages offer.
func TestPermittedGroups34(t *testing.T) {
	s := storetest.OpenGen(t, schema.Gen3, storetest.SQLiteURL(t, ""), "", "")
	e := newEnv34(t, s, 0)
	g := testfactory.Group(t, s, testfactory.GroupOpts{})
	ids := func(u *schema.User) []int {
		gs, err := e.c.permittedGroups34(context.Background(), u)
		if err != nil {
			t.Fatal(err)
		}
		var out []int
		for _, g := range gs {
			out = append(out, g.ID)
		}
		return out
	}
	if got := ids(&schema.User{Role: 1}); len(got) != 3 || !slices.Contains(got, 1) || !slices.Contains(got, g.ID) {
		t.Errorf("admin: %v", got)
	}
	if got := ids(&schema.User{Permission: schema.Ptr(" 2, " + itoa(g.ID))}); len(got) != 2 || !slices.Contains(got, 2) || !slices.Contains(got, g.ID) {
		t.Errorf("normal user: %v", got)
	}
	if got := ids(&schema.User{}); len(got) != 0 {
		t.Errorf("no permission: %v", got)
	}
}
