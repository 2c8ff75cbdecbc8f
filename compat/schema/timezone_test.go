package schema

import (
	"context"
	"errors"
	"os"
	"slices"
	"strings"
	"testing"
)

// addZoneColumn runs the documented statement and prepares the store
// again, as an admin started after the user's ALTER does.
func addZoneColumn(t *testing.T, s *Store) PrepareResult {
	t.Helper()
	rawExec(t, s, AddScheduleTimezoneSQL(s.Backend()))
	res, err := s.Prepare(context.Background(), PrepareOptions{})
	mustNoErr(t, err)
	return res
}

// TestScheduleTimezoneColumn: the documented ALTER gives a column the
// schema check accepts without a warning or allow-unknown-columns, on both
// generations, and jobs are read and written with it from then on.
func TestScheduleTimezoneColumn(t *testing.T) {
	for _, gen := range []Generation{Gen2, Gen3} {
		t.Run(gen.String(), func(t *testing.T) {
			forEachBackend(t, func(t *testing.T, s *Store) {
				ctx := context.Background()
				res, err := s.Prepare(ctx, PrepareOptions{Create: gen})
				mustNoErr(t, err)
				if res.ScheduleTimezone || s.HasScheduleTimezone() {
					t.Fatal("a new database has the schedule_timezone column")
				}
				res = addZoneColumn(t, s)
				if !res.ScheduleTimezone || !s.HasScheduleTimezone() || res.Generation != gen {
					t.Fatalf("after the ALTER: %+v, HasScheduleTimezone %v", res, s.HasScheduleTimezone())
				}
				if len(res.Warnings) > 0 {
					t.Errorf("warnings %q", res.Warnings)
				}

				zoned := JobInfo{JobGroup: 1, JobDesc: "ny", ScheduleType: "CRON", ScheduleConf: Ptr("0 0 9 * * ?"),
					MisfireStrategy: "DO_NOTHING", GlueType: "BEAN", TriggerStatus: 1, TriggerNextTime: 1741525200000,
					ScheduleTimezone: Ptr("America/New_York")}
				plain := JobInfo{JobGroup: 1, JobDesc: "plain", ScheduleType: "CRON", ScheduleConf: Ptr("0 0 9 * * ?"),
					MisfireStrategy: "DO_NOTHING", GlueType: "BEAN", TriggerStatus: 1, TriggerNextTime: 1741525200000}
				for _, j := range []*JobInfo{&zoned, &plain} {
					id, err := s.JobSave(ctx, *j)
					mustNoErr(t, err)
					j.ID = id
					got, err := s.JobLoad(ctx, id)
					mustNoErr(t, err)
					assertRow(t, got, *j)
				}
				if got := rawString(t, s, "SELECT schedule_timezone FROM xxl_job_info WHERE id = ?", plain.ID); got != nil {
					t.Errorf("a job without a zone stored %q, want NULL", *got)
				}

				// Our update writes the zone the job carries: changed, then cleared.
				zoned.ScheduleTimezone = Ptr("Europe/Berlin")
				_, err = s.JobUpdate(ctx, zoned)
				mustNoErr(t, err)
				if got := rawString(t, s, "SELECT schedule_timezone FROM xxl_job_info WHERE id = ?", zoned.ID); got == nil || *got != "Europe/Berlin" {
					t.Errorf("after update: %v", got)
				}
				// A Java admin's update names its columns and leaves the zone alone.
				rawExec(t, s, "UPDATE xxl_job_info SET job_desc = ?, trigger_next_time = ? WHERE id = ?", "by java", 1741611600000, zoned.ID)
				got, err := s.JobLoad(ctx, zoned.ID)
				mustNoErr(t, err)
				if got.ScheduleTimezone == nil || *got.ScheduleTimezone != "Europe/Berlin" {
					t.Errorf("after a Java-style update: %v", got.ScheduleTimezone)
				}

				due, err := s.JobScheduleQuery(ctx, 1<<62, 10)
				mustNoErr(t, err)
				zones := map[int]*string{}
				for _, j := range due {
					zones[j.ID] = j.ScheduleTimezone
				}
				if z := zones[zoned.ID]; z == nil || *z != "Europe/Berlin" {
					t.Errorf("schedule query: zone of job %d = %v", zoned.ID, z)
				}
				if z, ok := zones[plain.ID]; !ok || z != nil {
					t.Errorf("schedule query: job %d read %v (present %v), want NULL", plain.ID, z, ok)
				}

				list, err := s.JobsZoned(ctx)
				mustNoErr(t, err)
				if len(list) != 1 || list[0].ID != zoned.ID || list[0].Zone != "Europe/Berlin" ||
					list[0].ScheduleConf != "0 0 9 * * ?" || list[0].TriggerNextTime != 1741611600000 {
					t.Errorf("JobsZoned = %+v", list)
				}

				zoned.ScheduleTimezone = nil
				_, err = s.JobUpdate(ctx, zoned)
				mustNoErr(t, err)
				if got := rawString(t, s, "SELECT schedule_timezone FROM xxl_job_info WHERE id = ?", zoned.ID); got != nil {
					t.Errorf("cleared zone stored %q, want NULL", *got)
				}
				if list, err := s.JobsZoned(ctx); err != nil || len(list) != 0 {
					t.Errorf("JobsZoned after clearing = %+v, %v", list, err)
				}
			})
		})
	}
}

// TestScheduleTimezoneWithoutColumn: on a database without the column a
// zone is refused whole, nothing written, and JobsZoned finds nothing.
func TestScheduleTimezoneWithoutColumn(t *testing.T) {
	forEachPrepared(t, func(t *testing.T, s *Store) {
		ctx := context.Background()
		j := JobInfo{JobGroup: 1, JobDesc: "zoned", ScheduleType: "CRON", ScheduleConf: Ptr("0 0 9 * * ?"),
			MisfireStrategy: "DO_NOTHING", GlueType: "BEAN", ScheduleTimezone: Ptr("America/New_York")}
		before, err := s.JobFindAllCount(ctx)
		mustNoErr(t, err)
		if _, err := s.JobSave(ctx, j); !errors.Is(err, ErrNoScheduleTimezone) {
			t.Fatalf("JobSave = %v, want ErrNoScheduleTimezone", err)
		}
		if after, _ := s.JobFindAllCount(ctx); after != before {
			t.Errorf("jobs %d -> %d", before, after)
		}
		j.ScheduleTimezone = nil
		id, err := s.JobSave(ctx, j)
		mustNoErr(t, err)
		j.ID, j.ScheduleTimezone, j.JobDesc = id, Ptr("Europe/Berlin"), "changed"
		if _, err := s.JobUpdate(ctx, j); !errors.Is(err, ErrNoScheduleTimezone) {
			t.Fatalf("JobUpdate = %v, want ErrNoScheduleTimezone", err)
		}
		if got, _ := s.JobLoad(ctx, id); got.JobDesc != "zoned" {
			t.Errorf("refused update wrote job_desc %q", got.JobDesc)
		}
		if list, err := s.JobsZoned(ctx); err != nil || list != nil {
			t.Errorf("JobsZoned = %v, %v", list, err)
		}
	})
}

// TestScheduleTimezoneColumnType: a column that cannot hold text is
// refused; another text type is accepted with a warning.
func TestScheduleTimezoneColumnType(t *testing.T) {
	forEachBackend(t, func(t *testing.T, s *Store) {
		createByHand(t, s, nil)
		rawExec(t, s, "ALTER TABLE xxl_job_info ADD COLUMN schedule_timezone int DEFAULT NULL")
		_, err := s.Prepare(context.Background(), PrepareOptions{AllowUnknownColumns: true})
		if !errors.Is(err, ErrUnsupportedSchema) || !strings.Contains(err.Error(), "column xxl_job_info.schedule_timezone is ") ||
			!strings.Contains(err.Error(), "it must be a text column") {
			t.Fatalf("Prepare = %v", err)
		}
	})
	forEachBackend(t, func(t *testing.T, s *Store) {
		createByHand(t, s, nil)
		rawExec(t, s, "ALTER TABLE xxl_job_info ADD COLUMN schedule_timezone text")
		res, err := s.Prepare(context.Background(), PrepareOptions{})
		mustNoErr(t, err)
		if !res.ScheduleTimezone || !slices.ContainsFunc(res.Warnings, func(w string) bool {
			return strings.HasPrefix(w, "column xxl_job_info.schedule_timezone is text, expected ")
		}) {
			t.Errorf("result %+v", res)
		}
	})
}

// TestAddScheduleTimezone: the operator's step adds the column once (a
// second call finds it) and the store uses it at once; an admin started
// afterwards finds it.
func TestAddScheduleTimezone(t *testing.T) {
	forEachPrepared(t, func(t *testing.T, s *Store) {
		ctx := context.Background()
		for range 2 {
			mustNoErr(t, s.AddScheduleTimezone(ctx))
		}
		if !s.HasScheduleTimezone() {
			t.Fatal("HasScheduleTimezone = false after AddScheduleTimezone")
		}
		id, err := s.JobSave(ctx, JobInfo{JobGroup: 1, JobDesc: "z", ScheduleType: "NONE", MisfireStrategy: "DO_NOTHING",
			GlueType: "BEAN", ScheduleTimezone: Ptr("UTC")})
		mustNoErr(t, err)
		if got := rawString(t, s, "SELECT schedule_timezone FROM xxl_job_info WHERE id = ?", id); got == nil || *got != "UTC" {
			t.Errorf("stored %v", got)
		}
		res, err := s.Prepare(ctx, PrepareOptions{})
		mustNoErr(t, err)
		if !res.ScheduleTimezone || len(res.Warnings) > 0 {
			t.Errorf("Prepare after AddScheduleTimezone: %+v", res)
		}
	})
}

// TestScheduleTimezoneDocs: docs/job-time-zones.md prints the statements
// AddScheduleTimezoneSQL runs (the ones TestScheduleTimezoneColumn tests).
func TestScheduleTimezoneDocs(t *testing.T) {
	raw, err := os.ReadFile("../../docs/job-time-zones.md")
	if err != nil {
		t.Fatal(err)
	}
	for _, b := range []Backend{MySQL, Postgres, SQLite} {
		if stmt := AddScheduleTimezoneSQL(b) + ";\n"; !strings.Contains(string(raw), stmt) {
			t.Errorf("docs/job-time-zones.md lacks the %s statement %q", b, stmt)
		}
	}
}

// TestUpgradeKeepsScheduleTimezone: `db upgrade --to 3.4` keeps the
// column and the jobs' zones, also where SQLite rebuilds xxl_job_info.
func TestUpgradeKeepsScheduleTimezone(t *testing.T) {
	forEachPrepared(t, func(t *testing.T, s *Store) {
		ctx := context.Background()
		fill24(t, s)
		mustNoErr(t, s.AddScheduleTimezone(ctx))
		rawExec(t, s, "UPDATE xxl_job_info SET schedule_timezone = 'America/New_York' WHERE id = 1")
		plan, err := s.PlanUpgrade(ctx, Gen3)
		mustNoErr(t, err)
		if len(plan.Problems) > 0 {
			t.Fatalf("problems %q", plan.Problems)
		}
		res, err := s.ApplyUpgrade(ctx, plan, UpgradeOptions{Activity: quiet})
		mustNoErr(t, err)
		if res.Check.Generation != Gen3 || !res.Check.ScheduleTimezone || len(res.Check.Warnings) > 0 || !s.HasScheduleTimezone() {
			t.Fatalf("after the upgrade: %+v", res.Check)
		}
		j, err := s.JobLoad(ctx, 1)
		mustNoErr(t, err)
		if j.ScheduleTimezone == nil || *j.ScheduleTimezone != "America/New_York" {
			t.Errorf("zone after the upgrade: %v", j.ScheduleTimezone)
		}
		id, err := s.JobSave(ctx, JobInfo{JobGroup: 1, JobDesc: "after", ScheduleType: "NONE", MisfireStrategy: "DO_NOTHING",
			GlueType: "BEAN", ScheduleTimezone: Ptr("Europe/Berlin"), ExecutorParam: Ptr(strings.Repeat("p", 1000))})
		mustNoErr(t, err)
		if got := rawString(t, s, "SELECT schedule_timezone FROM xxl_job_info WHERE id = ?", id); got == nil || *got != "Europe/Berlin" {
			t.Errorf("stored %v", got)
		}
	})
}
