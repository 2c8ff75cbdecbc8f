package transfer

import (
	"bytes"
	"context"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/xxl-admin-go/xxl-admin-go/compat/schema"
	"github.com/xxl-admin-go/xxl-admin-go/core/jobs"
	"github.com/xxl-admin-go/xxl-admin-go/internal/testsupport/storetest"
	"github.com/xxl-admin-go/xxl-admin-go/internal/testsupport/testfactory"
)

// TestRoundTripZones: a job's time zone travels with it — exported as
// scheduleTimezone only where a job has one, imported into a database with
// the column as it was, the running copy first firing at the zone's wall
// time — and is refused whole by a database without the column. An
// overwrite with a document that gives no zone puts the job back on the
// admin's zone.
func TestRoundTripZones(t *testing.T) {
	storetest.ForEach(t, func(t *testing.T, src *schema.Store) {
		ctx := context.Background()
		storetest.WithScheduleTimezone(t, src)
		fixture(t, src)
		g := testfactory.Group(t, src, testfactory.GroupOpts{AppName: "app-ny", Title: "NY", AddressType: 1,
			AddressList: schema.Ptr("http://10.0.0.9:9999/")})
		testfactory.Job(t, src, testfactory.JobOpts{Group: g.ID, Desc: "open [key:ny/open]", Handler: "open",
			ScheduleType: "CRON", ScheduleConf: "0 30 9 * * ?", Zone: "America/New_York", Status: 1, Next: 1})

		doc, err := Export(ctx, src, ExportOptions{Access: admin, Now: t0})
		if err != nil {
			t.Fatal(err)
		}
		var file bytes.Buffer
		if err := Encode(&file, doc); err != nil {
			t.Fatal(err)
		}
		if n := strings.Count(file.String(), `"scheduleTimezone"`); n != 1 || !strings.Contains(file.String(), `"scheduleTimezone": "America/New_York"`) {
			t.Errorf("document carries scheduleTimezone %d times:\n%s", n, file.String())
		}
		read, err := Decode(bytes.NewReader(file.Bytes()))
		if err != nil {
			t.Fatal(err)
		}

		dst := storetest.WithScheduleTimezone(t, another(t, src))
		if _, err := Import(ctx, service(dst), read, ImportOptions{Mode: Merge, Access: admin}); err != nil {
			t.Fatal(err)
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
		ny, ok, err := service(dst).FindJob(ctx, jobs.Identity{Key: "ny/open"})
		if err != nil || !ok {
			t.Fatalf("copied job: %v %v", ok, err)
		}
		// t0 is Monday 2026-11-23 07:02 UTC, 02:02 EST: the first fire is 09:30 EST that day.
		if want := time.Date(2026, 11, 23, 14, 30, 0, 0, time.UTC).UnixMilli(); ny.TriggerStatus != 1 || ny.TriggerNextTime != want {
			t.Errorf("copy started with status %d next %s, want 1 and 09:30 New York", ny.TriggerStatus, time.UnixMilli(ny.TriggerNextTime).UTC())
		}

		plain := another(t, src)
		before, _ := plain.JobFindAllCount(ctx)
		_, err = Import(ctx, service(plain), read, ImportOptions{Mode: Merge, Access: admin})
		if err == nil || !strings.Contains(err.Error(), `(key "ny/open"): Time Zone: this database has no xxl_job_info.schedule_timezone column`) {
			t.Errorf("import without the column: %v", err)
		}
		if after, _ := plain.JobFindAllCount(ctx); after != before {
			t.Errorf("the refused import wrote jobs: %d -> %d", before, after)
		}

		for i := range read.Jobs {
			read.Jobs[i].ScheduleTimezone = ""
		}
		rep, err := Import(ctx, service(dst), read, ImportOptions{Mode: Overwrite, Access: admin})
		if err != nil {
			t.Fatal(err)
		}
		var changed []string
		for _, c := range rep.Changes {
			if c.Outcome == jobs.Updated {
				changed = append(changed, c.Name+":"+strings.Join(c.Fields, ","))
			}
		}
		if len(changed) != 1 || changed[0] != `key "ny/open":scheduleTimezone` {
			t.Errorf("overwrite without zones changed %v", changed)
		}
		if j, _ := dst.JobLoad(ctx, ny.ID); j.ScheduleTimezone != nil {
			t.Errorf("zone after the overwrite: %q", *j.ScheduleTimezone)
		}
	})
}
