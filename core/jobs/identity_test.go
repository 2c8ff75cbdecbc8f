package jobs

import (
	"context"
	"errors"
	"slices"
	"testing"

	"github.com/xxl-admin-go/xxl-admin-go/compat/schema"
	"github.com/xxl-admin-go/xxl-admin-go/internal/testsupport/storetest"
	"github.com/xxl-admin-go/xxl-admin-go/internal/testsupport/testfactory"
)

// TestSplitKey checks the key marker's round trip and that descriptions
// that only look like one keep their text.
func TestSplitKey(t *testing.T) {
	for _, c := range []struct{ stored, desc, key string }{
		{"Nightly report [key:reports/nightly]", "Nightly report", "reports/nightly"},
		{"[key:a]", "[key:a]", ""}, // no leading space: not a marker
		{"x [key:]", "x [key:]", ""},
		{"x [key:bad key]", "x [key:bad key]", ""},
		{"x [key:-a]", "x [key:-a]", ""},
		{"a [key:b] [key:c]", "a [key:b]", "c"},
		{"plain", "plain", ""},
		{"", "", ""},
	} {
		desc, key := SplitKey(c.stored)
		if desc != c.desc || key != c.key {
			t.Errorf("SplitKey(%q) = %q, %q; want %q, %q", c.stored, desc, key, c.desc, c.key)
		}
		if c.key != "" && JoinKey(desc, key) != c.stored {
			t.Errorf("JoinKey(%q, %q) = %q", desc, key, JoinKey(desc, key))
		}
	}
	for k, want := range map[string]bool{"a": true, "deploy/app-1.nightly@prod:x_y": true, "": false, "-a": false,
		"a b": false, "ü": false, string(make([]byte, 65)): false} {
		if ValidKey(k) != want {
			t.Errorf("ValidKey(%q) = %v", k, !want)
		}
	}
}

// TestFindJob matches by key over every group, else by group, handler and
// description; several matches are a conflict.
func TestFindJob(t *testing.T) {
	storetest.ForEach(t, func(t *testing.T, s *schema.Store) {
		ctx := context.Background()
		svc := newService(s, "en", t0)
		g := testfactory.ManualGroup(t, s, "http://127.0.0.1:19991/")
		keyed := testfactory.Job(t, s, testfactory.JobOpts{Group: g.ID, Desc: "report [key:rep]", Handler: "h"})
		plain := testfactory.Job(t, s, testfactory.JobOpts{Group: g.ID, Desc: "cleanup", Handler: "h"})
		testfactory.Job(t, s, testfactory.JobOpts{Group: 1, Desc: "cleanup", Handler: "h"}) // other group
		for _, c := range []struct {
			id   Identity
			want int
		}{
			{Identity{Key: "rep"}, keyed.ID},
			{Identity{Key: "re"}, 0},
			{Identity{JobGroup: g.ID, ExecutorHandler: "h", JobDesc: "report"}, keyed.ID}, // a keyed job by its plain description
			{Identity{JobGroup: g.ID, ExecutorHandler: "h", JobDesc: "cleanup"}, plain.ID},
			{Identity{JobGroup: g.ID, ExecutorHandler: "other", JobDesc: "cleanup"}, 0},
		} {
			j, ok, err := svc.FindJob(ctx, c.id)
			if err != nil || ok != (c.want != 0) || ok && j.ID != c.want {
				t.Errorf("%v: job %d ok %v err %v, want %d", c.id, j.ID, ok, err, c.want)
			}
		}
		testfactory.Job(t, s, testfactory.JobOpts{Group: g.ID, Desc: "cleanup", Handler: "h"})
		if _, _, err := svc.FindJob(ctx, Identity{JobGroup: g.ID, ExecutorHandler: "h", JobDesc: "cleanup"}); !errors.Is(err, ErrConflict) {
			t.Errorf("two matches: %v, want a conflict", err)
		}
		testfactory.Group(t, s, testfactory.GroupOpts{AppName: g.AppName})
		if _, _, err := svc.FindGroup(ctx, g.AppName); !errors.Is(err, ErrConflict) {
			t.Errorf("two groups with one app name: %v, want a conflict", err)
		}
		if got, ok, err := svc.FindGroup(ctx, "xxl-job-executor-sample"); err != nil || !ok || got.ID != 1 {
			t.Errorf("seed group: %+v %v %v", got, ok, err)
		}
	})
}

// TestAccess reads the permission field as the console's lists do.
func TestAccess(t *testing.T) {
	for _, c := range []struct {
		perm *string
		role int
		may  []int
		ids  []int
	}{
		{nil, 1, []int{1, 99}, nil},
		{nil, 0, nil, []int{}},
		{schema.Ptr(" 2,3 "), 0, []int{2, 3}, []int{2, 3}},
		{schema.Ptr("2, 3"), 0, []int{2}, []int{2}}, // items are not trimmed one by one
		{schema.Ptr(""), 0, nil, []int{}},
	} {
		a := AccessOf(schema.User{Username: "u", Role: c.role, Permission: c.perm})
		for g := 1; g <= 5; g++ {
			if want := c.role == 1 || slices.Contains(c.may, g); a.May(g) != want {
				t.Errorf("%v role %d: May(%d) = %v", c.perm, c.role, g, !want)
			}
		}
		if got := a.GroupIDs(); (got == nil) != (c.ids == nil) || len(got) != len(c.ids) {
			t.Errorf("%v role %d: GroupIDs %v, want %v", c.perm, c.role, got, c.ids)
		}
	}
}
