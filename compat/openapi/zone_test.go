package openapi

import (
	"strings"
	"testing"

	"github.com/xxl-admin-go/xxl-admin-go/compat/schema"
	"github.com/xxl-admin-go/xxl-admin-go/internal/testsupport/storetest"
)

// TestJobZone: the job API carries scheduleTimezone — a created job fires
// at the zone's wall time, an update without the member keeps the zone and
// "" goes back to the admin's zone, an id that is not IANA is refused with
// 400 — and a database without the column refuses any zone. Every exchange
// is held to the document by the env's traffic check.
func TestJobZone(t *testing.T) {
	storetest.ForEach(t, func(t *testing.T, s *schema.Store) {
		e := newEnv(t, s, "")
		body := map[string]any{"key": "ny/open", "jobGroup": 1, "jobDesc": "Market open", "author": "ci",
			"scheduleType": "CRON", "scheduleConf": "0 30 9 * * ?", "executorHandler": "marketOpen",
			"scheduleTimezone": "America/New_York", "running": true}
		a := e.call("POST", "/jobs", body)
		if a.status != 400 || !strings.Contains(string(a.body), "this database has no xxl_job_info.schedule_timezone column") {
			t.Fatalf("without the column: %d %s", a.status, a.body)
		}

		storetest.WithScheduleTimezone(t, s)
		a = e.call("POST", "/jobs", body)
		if a.status != 201 {
			t.Fatalf("create: %d %s", a.status, a.body)
		}
		job := a.data()
		// The clock reads Monday 2026-11-23 07:02:28 in Shanghai, Sunday
		// 18:02 in New York: the first fire is Monday 09:30 EST.
		if job["scheduleTimezone"] != "America/New_York" || job["nextTriggerTime"] != "2026-11-23T22:30:00+08:00" {
			t.Errorf("created %v next %v", job["scheduleTimezone"], job["nextTriggerTime"])
		}
		path := "/jobs/" + itoa(int(job["id"].(float64)))

		a = e.call("PUT", path, map[string]any{"jobDesc": "Market open (NY)"})
		if d := jobOf(a); a.status != 200 || d["scheduleTimezone"] != "America/New_York" || d["nextTriggerTime"] != "2026-11-23T22:30:00+08:00" {
			t.Errorf("update without the member: %d %s", a.status, a.body)
		}
		a = e.call("PUT", path, map[string]any{"scheduleTimezone": "Mars/Olympus_Mons"})
		if a.status != 400 || !strings.Contains(string(a.body), "Time Zoneillegal: unknown to the tz database [Mars/Olympus_Mons]") {
			t.Errorf("bad zone: %d %s", a.status, a.body)
		}
		a = e.call("PUT", path, map[string]any{"scheduleTimezone": ""})
		if d := jobOf(a); a.status != 200 || d["scheduleTimezone"] != "" || d["nextTriggerTime"] != "2026-11-23T09:30:00+08:00" {
			t.Errorf("back to the admin's zone: %d %s", a.status, a.body)
		}

		// apply: a member left out is the default, the admin's zone.
		body["scheduleTimezone"] = "Europe/Berlin"
		if a = e.call("PUT", "/jobs/apply", body); a.status != 200 || a.data()["outcome"] != "updated" {
			t.Fatalf("apply with a zone: %d %s", a.status, a.body)
		}
		delete(body, "scheduleTimezone")
		a = e.call("PUT", "/jobs/apply", body)
		if d := a.data(); a.status != 200 || jobOf(a)["scheduleTimezone"] != "" ||
			strings.Join(anyStrings(d["changed"]), ",") != "scheduleTimezone" {
			t.Errorf("apply without the member: %d %s", a.status, a.body)
		}
	})
}

// jobOf is the job of an update's or apply's answer.
func jobOf(a answer) map[string]any {
	a.t.Helper()
	j, ok := a.data()["job"].(map[string]any)
	if !ok {
		a.t.Fatalf("no job in %s", a.body)
	}
	return j
}

func anyStrings(v any) []string {
	var out []string
	for _, x := range v.([]any) {
		out = append(out, x.(string))
	}
	return out
}
