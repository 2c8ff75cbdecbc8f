package jobs

import (
	"context"
	"slices"
	"testing"
	"time"

	"github.com/rs/zerolog"

	"github.com/xxl-admin-go/xxl-admin-go/compat/i18n"
	"github.com/xxl-admin-go/xxl-admin-go/compat/schema"
	"github.com/xxl-admin-go/xxl-admin-go/internal/testsupport/storetest"
	"github.com/xxl-admin-go/xxl-admin-go/internal/testsupport/testfactory"
)

// zonedService is a service whose admin zone is loc, at now.
func zonedService(s *schema.Store, lang string, loc *time.Location, now time.Time) *Service {
	return New(Config{Store: s, Texts: i18n.Load(lang), Loc: loc, Now: func() time.Time { return now }, Log: zerolog.Nop()})
}

func mustZone(t *testing.T, name string) *time.Location {
	t.Helper()
	loc, err := time.LoadLocation(name)
	if err != nil {
		t.Fatal(err)
	}
	return loc
}

func utc(t *testing.T, s string) time.Time {
	t.Helper()
	v, err := time.Parse(time.RFC3339, s)
	if err != nil {
		t.Fatal(err)
	}
	return v
}

// TestAddZone: add stores a valid zone as given and "" as NULL, and
// refuses an id that is not an IANA one, or any zone where the database
// has no column for it, in the configured language.
func TestAddZone(t *testing.T) {
	storetest.ForEach(t, func(t *testing.T, s *schema.Store) {
		ctx := context.Background()
		g := testfactory.ManualGroup(t, s, "http://127.0.0.1:19991/")

		svc := newService(s, "en", t0)
		j := formJob(g.ID)
		j.ScheduleTimezone = schema.Ptr("America/New_York")
		if got := refusal(t, ignoreID(svc.Add(ctx, j, nil))); got != "Time Zone: this database has no xxl_job_info.schedule_timezone column; add it first (docs/job-time-zones.md)" {
			t.Errorf("without the column: %q", got)
		}
		j.ScheduleTimezone = schema.Ptr("")
		if _, err := svc.Add(ctx, j, nil); err != nil {
			t.Errorf(`zone "" without the column: %v`, err)
		}

		storetest.WithScheduleTimezone(t, s)
		for _, tc := range []struct {
			zone *string
			want *string
		}{
			{schema.Ptr("America/New_York"), schema.Ptr("America/New_York")},
			{schema.Ptr(""), nil},
			{nil, nil},
		} {
			j.ScheduleTimezone = tc.zone
			id, err := svc.Add(ctx, j, nil)
			if err != nil {
				t.Fatal(err)
			}
			got, _ := s.JobLoad(ctx, id)
			if zoneName(got.ScheduleTimezone) != zoneName(tc.want) || (got.ScheduleTimezone == nil) != (tc.want == nil) {
				t.Errorf("add with %v stored %v, want %v", tc.zone, got.ScheduleTimezone, tc.want)
			}
		}

		for lang, want := range map[string]string{
			"en":    "Time Zoneillegal: not an IANA time zone id (like America/New_York or Europe/Berlin) [America/New York]",
			"zh_CN": "时区非法 [America/New York]",
			"zh_TC": "時區非法 [America/New York]",
		} {
			j.ScheduleTimezone = schema.Ptr("America/New York")
			if got := refusal(t, ignoreID(newService(s, lang, t0).Add(ctx, j, nil))); got != want {
				t.Errorf("%s: %q, want %q", lang, got, want)
			}
		}
		for _, bad := range []string{"Mars/Olympus_Mons", "Local", "EST", "../UTC"} {
			j.ScheduleTimezone = schema.Ptr(bad)
			msg := refusal(t, ignoreID(svc.Add(ctx, j, nil)))
			if want := "Time Zoneillegal: "; len(msg) < len(want) || msg[:len(want)] != want {
				t.Errorf("%q: %q", bad, msg)
			}
		}
	})
}

func ignoreID(_ int, err error) error { return err }

// TestStartZoned: a CRON job starts with its first fire at its wall time in
// its zone; the admin's zone decides for jobs without one, and for the
// other schedule types.
func TestStartZoned(t *testing.T) {
	storetest.ForEach(t, func(t *testing.T, s *schema.Store) {
		ctx := context.Background()
		storetest.WithScheduleTimezone(t, s)
		g := testfactory.ManualGroup(t, s, "http://127.0.0.1:19991/")
		now := utc(t, "2025-03-08T15:00:00Z") // 10:00 in New York (EST), 23:00 in Shanghai
		svc := zonedService(s, "en", mustZone(t, "Asia/Shanghai"), now)
		for _, tc := range []struct {
			typ, conf, zone string
			want            string
		}{
			// Sunday 2025-03-09 is New York's first day of daylight time.
			{"CRON", "0 0 9 * * ?", "America/New_York", "2025-03-09T13:00:00Z"},
			{"CRON", "0 0 9 * * ?", "", "2025-03-09T01:00:00Z"}, // 09:00 Shanghai
			{"CRON", "0 30 2 * * ?", "America/New_York", "2025-03-10T06:30:00Z"},
			{"FIX_RATE", "60", "America/New_York", "2025-03-08T15:01:05Z"},
		} {
			j := testfactory.Job(t, s, testfactory.JobOpts{Group: g.ID, ScheduleType: tc.typ, ScheduleConf: tc.conf, Zone: tc.zone})
			if err := svc.Start(ctx, j.ID); err != nil {
				t.Fatal(err)
			}
			got, _ := s.JobLoad(ctx, j.ID)
			if next := time.UnixMilli(got.TriggerNextTime).UTC().Format(time.RFC3339); next != tc.want {
				t.Errorf("%s %q in %q: next %s, want %s", tc.typ, tc.conf, tc.zone, next, tc.want)
			}
		}
	})
}

// TestUpdateZone: a running CRON job gets a new next time when its zone
// changes, keeps it when the form leaves the zone out, and goes back to
// the admin's zone with ""; another type's zone change moves nothing.
func TestUpdateZone(t *testing.T) {
	storetest.ForEach(t, func(t *testing.T, s *schema.Store) {
		ctx := context.Background()
		storetest.WithScheduleTimezone(t, s)
		g := testfactory.ManualGroup(t, s, "http://127.0.0.1:19991/")
		now := utc(t, "2025-11-01T14:00:00Z") // Saturday 10:00 in New York, the day before standard time
		svc := zonedService(s, "en", time.UTC, now)
		job := testfactory.Job(t, s, testfactory.JobOpts{Group: g.ID, ScheduleType: "CRON", ScheduleConf: "0 0 9 * * ?",
			Status: 1, Next: 42})
		edit := formJob(g.ID)
		edit.ID, edit.ScheduleConf = job.ID, schema.Ptr("0 0 9 * * ?")

		step := func(zone *string, wantZone *string, wantNext int64) {
			t.Helper()
			edit.ScheduleTimezone = zone
			if err := svc.Update(ctx, edit, nil); err != nil {
				t.Fatal(err)
			}
			got, _ := s.JobLoad(ctx, job.ID)
			if zoneName(got.ScheduleTimezone) != zoneName(wantZone) || (got.ScheduleTimezone == nil) != (wantZone == nil) {
				t.Errorf("zone %v, want %v", got.ScheduleTimezone, wantZone)
			}
			if got.TriggerNextTime != wantNext {
				t.Errorf("zone %v: next %s, want %s", zoneName(zone), time.UnixMilli(got.TriggerNextTime).UTC(), time.UnixMilli(wantNext).UTC())
			}
		}
		ny := schema.Ptr("America/New_York")
		step(nil, nil, 42)                                                    // nothing changed: next kept
		step(ny, ny, utc(t, "2025-11-02T14:00:00Z").UnixMilli())              // Sunday 09:00 EST
		step(nil, ny, utc(t, "2025-11-02T14:00:00Z").UnixMilli())             // left out: zone and next kept
		step(schema.Ptr(""), nil, utc(t, "2025-11-02T09:00:00Z").UnixMilli()) // back to the admin's zone (UTC)

		if got := refusal(t, func() error { edit.ScheduleTimezone = schema.Ptr("Nowhere/Town"); return svc.Update(ctx, edit, nil) }()); got != "Time Zoneillegal: unknown to the tz database [Nowhere/Town]" {
			t.Errorf("bad zone: %q", got)
		}

		rate := testfactory.Job(t, s, testfactory.JobOpts{Group: g.ID, ScheduleType: "FIX_RATE", ScheduleConf: "60", Status: 1, Next: 77})
		e := formJob(g.ID)
		e.ID, e.ScheduleType, e.ScheduleConf, e.ScheduleTimezone = rate.ID, "FIX_RATE", schema.Ptr("60"), ny
		if err := svc.Update(ctx, e, nil); err != nil {
			t.Fatal(err)
		}
		if got, _ := s.JobLoad(ctx, rate.ID); got.TriggerNextTime != 77 || zoneName(got.ScheduleTimezone) != "America/New_York" {
			t.Errorf("FIX_RATE: next %d zone %v, want 77 and the zone kept for a later CRON", got.TriggerNextTime, got.ScheduleTimezone)
		}
	})
}

// TestNextTriggerTimesZoned: the preview is computed and given in the
// job's zone, across New York's 2025 spring-forward.
func TestNextTriggerTimesZoned(t *testing.T) {
	s := storetest.SQLite(t)
	svc := zonedService(s, "en", mustZone(t, "Asia/Shanghai"), utc(t, "2025-03-07T12:00:00Z"))
	times, err := svc.NextTriggerTimesIn("CRON", "0 0 9 * * ?", "America/New_York", 5)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, tm := range times {
		got = append(got, tm.Format(time.RFC3339))
	}
	want := []string{"2025-03-07T09:00:00-05:00", "2025-03-08T09:00:00-05:00", "2025-03-09T09:00:00-04:00",
		"2025-03-10T09:00:00-04:00", "2025-03-11T09:00:00-04:00"}
	if !slices.Equal(got, want) {
		t.Errorf("got %v\nwant %v", got, want)
	}
	plain, err := svc.NextTriggerTimesIn("CRON", "0 0 9 * * ?", "", 1)
	if err != nil || len(plain) != 1 || !plain[0].Equal(utc(t, "2025-03-08T01:00:00Z")) {
		t.Errorf("admin zone: %v, %v", plain, err)
	}
	if _, err := svc.NextTriggerTimesIn("CRON", "0 0 9 * * ?", "Nowhere/Town", 1); refusal(t, err) != "Time Zoneillegal: unknown to the tz database [Nowhere/Town]" {
		t.Errorf("bad zone: %v", err)
	}
}

// TestApplyZone: an apply names a changed zone among the fields it writes,
// and a spec without a zone leaves it alone.
func TestApplyZone(t *testing.T) {
	storetest.ForEach(t, func(t *testing.T, s *schema.Store) {
		ctx := context.Background()
		storetest.WithScheduleTimezone(t, s)
		g := testfactory.ManualGroup(t, s, "http://127.0.0.1:19991/")
		svc := newService(s, "en", t0)
		sp := spec(g.ID, "tz/job")
		sp.Job.ScheduleTimezone = schema.Ptr("Europe/Berlin")
		res, err := svc.Apply(ctx, sp, Overwrite, nil)
		if err != nil || res.Outcome != Created {
			t.Fatalf("create: %+v %v", res, err)
		}
		sp.Job.ScheduleTimezone = schema.Ptr("America/New_York")
		res, err = svc.Apply(ctx, sp, Overwrite, nil)
		if err != nil || res.Outcome != Updated || !slices.Equal(res.Changed, []string{"scheduleTimezone"}) {
			t.Fatalf("zone change: %+v %v", res, err)
		}
		sp.Job.ScheduleTimezone = nil
		if res, err = svc.Apply(ctx, sp, CreateOnly, nil); err != nil || res.Outcome != Unchanged {
			t.Fatalf("zone left out: %+v %v", res, err)
		}
		got, _ := s.JobLoad(ctx, res.ID)
		if zoneName(got.ScheduleTimezone) != "America/New_York" {
			t.Errorf("stored zone %v", got.ScheduleTimezone)
		}
		sp.Job.ScheduleTimezone = schema.Ptr("")
		if res, err = svc.Apply(ctx, sp, Overwrite, nil); err != nil || !slices.Equal(res.Changed, []string{"scheduleTimezone"}) {
			t.Fatalf("zone cleared: %+v %v", res, err)
		}
		if got, _ := s.JobLoad(ctx, res.ID); got.ScheduleTimezone != nil {
			t.Errorf("cleared zone stored %q", *got.ScheduleTimezone)
		}
	})
}

// TestForeignZoneWrites: a zoned job whose stored next time is a fire time
// in the admin's zone but not in its own is what a Java admin leaves; the
// times this admin writes, and jobs without a zone, are not.
func TestForeignZoneWrites(t *testing.T) {
	storetest.ForEach(t, func(t *testing.T, s *schema.Store) {
		ctx := context.Background()
		g := testfactory.ManualGroup(t, s, "http://127.0.0.1:19991/")
		now := utc(t, "2025-03-08T15:00:00Z")
		svc := zonedService(s, "en", mustZone(t, "Asia/Shanghai"), now)
		if got, err := svc.ForeignZoneWrites(ctx); err != nil || len(got) != 0 {
			t.Fatalf("without the column: %v, %v", got, err)
		}
		storetest.WithScheduleTimezone(t, s)
		javaNext := utc(t, "2025-03-09T01:00:00Z").UnixMilli() // 09:00 Shanghai: what a Java admin in Shanghai computes
		ourNext := utc(t, "2025-03-09T13:00:00Z").UnixMilli()  // 09:00 New York
		job := func(zone string, next int64, status int) int {
			return testfactory.Job(t, s, testfactory.JobOpts{Group: g.ID, ScheduleType: "CRON", ScheduleConf: "0 0 9 * * ?",
				Zone: zone, Status: status, Next: next}).ID
		}
		job("America/New_York", ourNext, 1)
		job("", javaNext, 1)                   // no zone: Java and we agree
		job("America/New_York", javaNext, 0)   // stopped
		job("Asia/Shanghai", javaNext, 1)      // the admin's own zone: no difference to see
		job("America/New_York", javaNext+1, 1) // not a fire time anywhere
		if got, err := svc.ForeignZoneWrites(ctx); err != nil || len(got) != 0 {
			t.Fatalf("none written by a Java admin: %v, %v", got, err)
		}
		java := job("America/New_York", javaNext, 1)
		got, err := svc.ForeignZoneWrites(ctx)
		if err != nil || len(got) != 1 || got[0].JobID != java || got[0].Zone != "America/New_York" || got[0].Next.UnixMilli() != javaNext {
			t.Fatalf("ForeignZoneWrites = %v, %v", got, err)
		}
		if want := "job " + itoa(java) + " (America/New_York) next fire 2025-03-09 09:00:00 CST"; got[0].String() != want {
			t.Errorf("%q, want %q", got[0].String(), want)
		}
		// What this admin writes for that job is not Java's.
		if err := svc.Stop(ctx, java); err != nil {
			t.Fatal(err)
		}
		if err := svc.Start(ctx, java); err != nil {
			t.Fatal(err)
		}
		if got, err := svc.ForeignZoneWrites(ctx); err != nil || len(got) != 0 {
			t.Errorf("after our start: %v, %v", got, err)
		}
	})
}
