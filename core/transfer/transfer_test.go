package transfer

import (
	"bytes"
	"context"
	"errors"
	"reflect"
	"strconv"
	"testing"
	"time"

	"github.com/rs/zerolog"

	"github.com/xxl-admin-go/xxl-admin-go/compat/i18n"
	"github.com/xxl-admin-go/xxl-admin-go/compat/schema"
	"github.com/xxl-admin-go/xxl-admin-go/core/jobs"
	"github.com/xxl-admin-go/xxl-admin-go/internal/testsupport/storetest"
	"github.com/xxl-admin-go/xxl-admin-go/internal/testsupport/testfactory"
)

var t0 = time.Date(2026, 11, 23, 7, 2, 28, 0, time.UTC)

var admin = jobs.AdminAccess("admin")

func service(s *schema.Store) *jobs.Service {
	return jobs.New(jobs.Config{Store: s, Texts: i18n.Load("en"), Loc: time.UTC, Now: func() time.Time { return t0 }, Log: zerolog.Nop()})
}

// another opens a second, freshly created database of the same backend.
func another(t *testing.T, s *schema.Store) *schema.Store {
	switch s.Backend() {
	case schema.SQLite:
		return storetest.SQLite(t)
	case schema.Postgres:
		return storetest.Postgres(t)
	}
	return storetest.MySQL(t)
}

// fixture stores two groups and three jobs: a running BEAN job, a keyed
// GLUE_SHELL job and a GLUE_PYTHON job in another group, children in both
// directions (a loop, which Java allows).
func fixture(t *testing.T, s *schema.Store) {
	t.Helper()
	ctx := context.Background()
	orders := testfactory.Group(t, s, testfactory.GroupOpts{AppName: "app-orders", Title: "Orders", AddressType: 1,
		AddressList: schema.Ptr("http://10.0.0.1:9999/,http://10.0.0.2:9999/")})
	reports := testfactory.Group(t, s, testfactory.GroupOpts{AppName: "app-reports", Title: "Reports",
		AddressList: schema.Ptr("http://10.0.0.3:9999/")})
	sync := testfactory.Job(t, s, testfactory.JobOpts{Group: orders.ID, Desc: "sync orders", Handler: "orderSync",
		ScheduleType: "CRON", ScheduleConf: "0 0/5 * * * ?", Status: 1, Next: t0.UnixMilli(), Param: schema.Ptr("full=1"),
		Retry: 2, Timeout: 30, Route: "ROUND", AlarmEmail: "ops@example.com"})
	cleanup := testfactory.Job(t, s, testfactory.JobOpts{Group: orders.ID, Desc: "cleanup [key:orders/cleanup]",
		GlueType: "GLUE_SHELL", GlueSource: "#!/bin/bash\necho \"clean\"\n", GlueRemark: "v7", ScheduleType: "FIX_RATE", ScheduleConf: "60"})
	report := testfactory.Job(t, s, testfactory.JobOpts{Group: reports.ID, Desc: "daily <b>report</b>", GlueType: "GLUE_PYTHON",
		GlueSource: "print('报表')\n", ChildJobIDs: itoa(sync.ID) + "," + itoa(cleanup.ID)})
	sync.ChildJobID = schema.Ptr(itoa(report.ID))
	if _, err := s.JobUpdate(ctx, sync); err != nil {
		t.Fatal(err)
	}
}

func itoa(n int) string { return strconv.Itoa(n) }

// TestRoundTrip is the "done when": export, then import into a new
// database, reproduces the groups and jobs — GLUE source, keys, children
// and running state included — so exporting the copy gives the same
// document.
func TestRoundTrip(t *testing.T) {
	storetest.ForEach(t, func(t *testing.T, src *schema.Store) {
		ctx := context.Background()
		fixture(t, src)
		doc, err := Export(ctx, src, ExportOptions{Access: admin, Now: t0})
		if err != nil {
			t.Fatal(err)
		}
		var file bytes.Buffer
		if err := Encode(&file, doc); err != nil {
			t.Fatal(err)
		}
		read, err := Decode(bytes.NewReader(file.Bytes()))
		if err != nil {
			t.Fatalf("decode own export: %v\n%s", err, file.String())
		}
		dst := another(t, src)
		rep, err := Import(ctx, service(dst), read, ImportOptions{Mode: Merge, Access: admin})
		if err != nil {
			t.Fatal(err)
		}
		// The seed group and job exist on both sides.
		if rep.Count("group", jobs.Created) != 2 || rep.Count("group", jobs.Unchanged) != 1 ||
			rep.Count("job", jobs.Created) != 3 || rep.Count("job", jobs.Unchanged) != 1 {
			t.Errorf("report %+v", rep.Changes)
		}
		copied, err := Export(ctx, dst, ExportOptions{Access: admin, Now: t0})
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(doc, copied) {
			var a, b bytes.Buffer
			_ = Encode(&a, doc)
			_ = Encode(&b, copied)
			t.Fatalf("copy differs:\n%s\nvs\n%s", a.String(), b.String())
		}
		j, ok, err := service(dst).FindJob(ctx, jobs.Identity{Key: "orders/cleanup"})
		if err != nil || !ok || *j.GlueSource != "#!/bin/bash\necho \"clean\"\n" || *j.GlueRemark != "v7" || j.GlueType != "GLUE_SHELL" {
			t.Errorf("GLUE job copied as %+v (%v %v)", j, ok, err)
		}
		if len(doc.Jobs) != 4 || doc.Jobs[1].Key != "orders/cleanup" || !doc.Jobs[0].Running {
			t.Errorf("exported jobs %+v", doc.Jobs)
		}

		// --group exports one group; a foreign or unknown group is refused.
		one, err := Export(ctx, src, ExportOptions{AppName: "app-reports", Access: admin, Now: t0})
		if err != nil || len(one.Groups) != 1 || len(one.Jobs) != 1 || len(one.Jobs[0].ChildJobs) != 2 {
			t.Errorf("one group: %+v %v", one, err)
		}
		if _, err := Export(ctx, src, ExportOptions{AppName: "app-reports", Access: jobs.AccessOf(schema.User{Role: 0}), Now: t0}); !errors.Is(err, ErrNoGroup) {
			t.Errorf("foreign group: %v", err)
		}
	})
}
