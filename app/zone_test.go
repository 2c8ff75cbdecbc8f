package app_test

import (
	"encoding/json"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/xxl-admin-go/xxl-admin-go/app"
	"github.com/xxl-admin-go/xxl-admin-go/core/cron"
	"github.com/xxl-admin-go/xxl-admin-go/internal/testsupport/storetest"
	"github.com/xxl-admin-go/xxl-admin-go/internal/testsupport/testfactory"
)

// TestZonedJobJavaAdminWarning: a zoned CRON job whose stored next fire
// time is one of its expression in the admin's zone, not in its own, is
// what a Java admin (which ignores schedule_timezone) writes: the admin
// warns once at start, in its log and in /actuator/health. The same job
// with the next time this admin computes gets no warning.
func TestZonedJobJavaAdminWarning(t *testing.T) {
	const expr = "0 0 9 * * ?"
	// A zone whose 09:00 is another instant than the admin's 09:00.
	zone := "America/New_York"
	if _, off := time.Now().Zone(); off == -5*3600 || off == -4*3600 {
		zone = "Asia/Tokyo"
	}
	loc, err := time.LoadLocation(zone)
	if err != nil {
		t.Fatal(err)
	}
	nextIn := func(l *time.Location) int64 {
		next, ok, err := cron.NextTimeWith(cron.FixRate242, cron.TypeCron, expr, time.Now().Add(time.Hour), l)
		if err != nil || !ok {
			t.Fatal(ok, err)
		}
		return next.UnixMilli()
	}
	for _, tt := range []struct {
		name string
		next int64
		warn bool
	}{
		{"written by a Java admin", nextIn(time.Local), true},
		{"written by ours", nextIn(loc), false},
	} {
		t.Run(tt.name, func(t *testing.T) {
			db := filepath.Join(t.TempDir(), "xxl-job.db")
			s := storetest.WithScheduleTimezone(t, storetest.Open(t, "jdbc:sqlite:"+db, "", ""))
			job := testfactory.Job(t, s, testfactory.JobOpts{Desc: "zoned", ScheduleType: "CRON", ScheduleConf: expr,
				Zone: zone, Status: 1, Next: tt.next})
			s.Close()

			a := startAdmin(t, app.Options{}, "--spring.datasource.url=jdbc:sqlite:"+db, "--xxl.job.accessToken=s3cret-token")
			resp, body := get(t, a.base+"/xxl-job-admin/actuator/health")
			var h struct {
				Details struct {
					Warnings []string `json:"warnings"`
				} `json:"details"`
			}
			if resp.StatusCode != 200 || json.Unmarshal([]byte(body), &h) != nil {
				t.Fatalf("health %d %s", resp.StatusCode, body)
			}
			logs := a.logs.String()
			if !strings.Contains(logs, "xxl_job_info has the schedule_timezone column") {
				t.Errorf("no column line in the log:\n%s", logs)
			}
			warned := strings.Count(logs, `"check":"schedule-timezone"`)
			if !tt.warn {
				if warned != 0 || len(h.Details.Warnings) != 0 {
					t.Errorf("warned for a job this admin scheduled: health %s\n%s", body, logs)
				}
				return
			}
			want := "a Java admin shares this database: it ignores xxl_job_info.schedule_timezone"
			if warned != 1 || !strings.Contains(logs, `"jobs":[`+strconv.Itoa(job.ID)+`]`) || !strings.Contains(logs, want) {
				t.Errorf("start-up warning %d times:\n%s", warned, logs)
			}
			if len(h.Details.Warnings) != 1 || !strings.HasPrefix(h.Details.Warnings[0], want) ||
				!strings.Contains(h.Details.Warnings[0], "job "+strconv.Itoa(job.ID)+" ("+zone+") next fire ") {
				t.Errorf("health warnings %q", h.Details.Warnings)
			}
		})
	}
}

// TestDBZoneColumn: `db check` says when the database has the
// schedule_timezone column, and `db upgrade --to 3.4` keeps it and the
// jobs' zones on every backend (SQLite rebuilds xxl_job_info).
func TestDBZoneColumn(t *testing.T) {
	for _, db := range databases {
		t.Run(db.name, func(t *testing.T) {
			t.Parallel()
			args := db.args(t)
			s := storetest.WithScheduleTimezone(t, open24(t, args))
			job := testfactory.Job(t, s, testfactory.JobOpts{Desc: "zoned", ScheduleType: "CRON", ScheduleConf: "0 0 9 * * ?",
				Zone: "Europe/Berlin"})
			run := func(words ...string) (int, string, string) { return runMain(t, append(words, args...)...) }
			const line = "per-job time zones: xxl_job_info has the schedule_timezone column\n"
			if code, out, stderr := run("db", "check"); code != 0 || !strings.Contains(out, line+"warnings: none\n") {
				t.Fatalf("db check: %d %s\n%s", code, stderr, out)
			}
			if code, out, stderr := run("db", "upgrade", "--to", "3.4", "--idle=0"); code != 0 {
				t.Fatalf("upgrade: %d %s\n%s", code, stderr, out)
			}
			if code, out, _ := run("db", "check"); code != 0 || !strings.Contains(out, "schema: 3.4 (the admin behaves as xxl-job-admin 3.4.2)\n"+line+"warnings: none\n") {
				t.Errorf("db check after the upgrade: %d %s", code, out)
			}
			after := storetest.WithScheduleTimezone(t, open24(t, args))
			if j, err := after.JobLoad(t.Context(), job.ID); err != nil || j.ScheduleTimezone == nil || *j.ScheduleTimezone != "Europe/Berlin" {
				t.Errorf("zone after the upgrade: %v (%v)", j.ScheduleTimezone, err)
			}
		})
	}
}
