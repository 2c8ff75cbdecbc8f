package cron

import (
	"archive/zip"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"
)

// Per-job time zones (xxl_job_info.schedule_timezone) evaluate a CRON
// job's expression in the job's zone with the rules Quartz's CronTrigger
// follows there: its CronExpression.getTimeAfter walks a lenient
// GregorianCalendar of the trigger's zone, and setCalendarHour asks for
// the next hour when the wanted one does not exist. So:
//
//   - a wall time the spring-forward jump skips (02:30 in New York on
//     2025-03-09) gets no fire that day: the walk lands at 03:30, past the
//     wanted hour, and moves on to the next day;
//   - a wall time of the repeated hour (01:30 in New York on 2025-11-02,
//     02:30 in Berlin on 2025-10-26) fires once, in the second pass
//     (standard time): every field set re-resolves the reading, and the
//     calendar resolves an ambiguous reading to standard time;
//   - everything else fires at its wall time, whatever the offset of the
//     day (09:00 New York is 13:00Z in summer, 14:00Z in winter).
//
// dstZones, dstExprs and dstStarts span the 2025 and 2026 transitions of
// New York, Berlin and Sydney (southern hemisphere); testdata/
// dst-vectors.json holds both reference admins' answers for them
// (CronVectors.java on the jars' own CronExpression classes, the zone set
// as the JVM default, which is what CronExpression.setTimeZone changes).
var (
	dstZones = []string{"America/New_York", "Europe/Berlin", "Australia/Sydney"}
	dstExprs = []string{"0 0 9 * * ?", "0 30 2 * * ?", "0 30 1 * * ?", "0 0 2 * * ?", "0 0/30 * * * ?", "0 15 2 ? * SUN"}
	// dstDays are each zone's transition days: two days before at noon
	// and the day's own midnight are the starts.
	dstDays = map[string][]string{
		"America/New_York": {"2025-03-09", "2025-11-02", "2026-03-08", "2026-11-01"},
		"Europe/Berlin":    {"2025-03-30", "2025-10-26", "2026-03-29", "2026-10-25"},
		"Australia/Sydney": {"2025-04-06", "2025-10-05", "2026-04-05", "2026-10-04"},
	}
)

// dstStarts are the start instants of a zone's vectors.
func dstStarts(t testing.TB, zone string) []int64 {
	loc := mustLoad(t, zone)
	var out []int64
	for _, day := range dstDays[zone] {
		d, err := time.ParseInLocation(time.DateOnly, day, loc)
		if err != nil {
			t.Fatal(err)
		}
		noon := time.Date(d.Year(), d.Month(), d.Day()-2, 12, 0, 0, 0, loc)
		out = append(out, noon.UnixMilli(), d.UnixMilli())
	}
	return out
}

// dstVector is a row of testdata/dst-vectors.json: CronVectors.java's
// output with the class that answered.
type dstVector struct {
	Class  string  `json:"class"`
	Expr   string  `json:"expr"`
	TZ     string  `json:"tz"`
	FromMs int64   `json:"from_ms"`
	NextMs []int64 `json:"next_ms"`
}

const dstVectorsFile = "testdata/dst-vectors.json"

func loadDSTVectors(t *testing.T) []dstVector {
	t.Helper()
	raw, err := os.ReadFile(dstVectorsFile)
	if err != nil {
		t.Fatal(err)
	}
	var vs []dstVector
	if err := json.Unmarshal(raw, &vs); err != nil {
		t.Fatal(err)
	}
	return vs
}

// TestDSTVectors replays the Java answers through NextTimeWith, the
// function the schedule loop and the console's preview call with a job's
// zone, and checks the recording covers the whole table for both classes.
func TestDSTVectors(t *testing.T) {
	vs := loadDSTVectors(t)
	type key struct {
		class, expr, tz string
		from            int64
	}
	seen := map[key]bool{}
	for _, v := range vs {
		seen[key{v.Class, v.Expr, v.TZ, v.FromMs}] = true
		loc := mustLoad(t, v.TZ)
		from := time.UnixMilli(v.FromMs)
		for i, want := range v.NextMs {
			got, ok, err := NextTimeWith(FixRate242, TypeCron, v.Expr, from, loc)
			if err != nil || !ok || got.UnixMilli() != want {
				t.Errorf("%s %q in %s from %s: fire #%d = %v (ok=%v, err=%v), Java %s", v.Class, v.Expr, v.TZ,
					from.In(loc).Format(time.RFC3339), i, got.In(loc).Format(time.RFC3339), ok, err,
					time.UnixMilli(want).In(loc).Format(time.RFC3339))
				break
			}
			from = got
		}
	}
	for _, class := range javaCronClasses {
		for _, zone := range dstZones {
			for _, from := range dstStarts(t, zone) {
				for _, expr := range dstExprs {
					if !seen[key{class.name, expr, zone, from}] {
						t.Errorf("%s: no recorded answer for %q in %s from %d (regenerate: XXL_TEST_JAVA=1 go test ./core/cron -run TestDSTVectorsJava -update-dst)",
							dstVectorsFile, expr, zone, from)
					}
				}
			}
		}
	}
}

// TestDSTRules spells the rules out on a few of the vectors, as local
// wall times, through NextTimeWith.
func TestDSTRules(t *testing.T) {
	tests := []struct {
		name, zone, expr, from string
		want                   []string
	}{
		{"NY 09:00 into daylight time 2025", "America/New_York", "0 0 9 * * ?", "2025-03-08T00:00:00-05:00",
			[]string{"2025-03-08T09:00:00-05:00", "2025-03-09T09:00:00-04:00", "2025-03-10T09:00:00-04:00"}},
		{"NY 09:00 into standard time 2025", "America/New_York", "0 0 9 * * ?", "2025-11-01T00:00:00-04:00",
			[]string{"2025-11-01T09:00:00-04:00", "2025-11-02T09:00:00-05:00", "2025-11-03T09:00:00-05:00"}},
		{"NY 09:00 into daylight time 2026", "America/New_York", "0 0 9 * * ?", "2026-03-07T00:00:00-05:00",
			[]string{"2026-03-07T09:00:00-05:00", "2026-03-08T09:00:00-04:00"}},
		{"NY 09:00 into standard time 2026", "America/New_York", "0 0 9 * * ?", "2026-10-31T00:00:00-04:00",
			[]string{"2026-10-31T09:00:00-04:00", "2026-11-01T09:00:00-05:00"}},
		{"NY 02:30 skipped on spring-forward day", "America/New_York", "0 30 2 * * ?", "2025-03-08T12:00:00-05:00",
			[]string{"2025-03-10T02:30:00-04:00"}},
		{"NY 02:30 once on fall-back day (after the repeated hour)", "America/New_York", "0 30 2 * * ?", "2025-11-01T12:00:00-04:00",
			[]string{"2025-11-02T02:30:00-05:00", "2025-11-03T02:30:00-05:00"}},
		{"NY 01:30 in the repeated hour: second pass only", "America/New_York", "0 30 1 * * ?", "2025-11-01T12:00:00-04:00",
			[]string{"2025-11-02T01:30:00-05:00", "2025-11-03T01:30:00-05:00"}},
		{"NY half-hourly across the gap", "America/New_York", "0 0/30 * * * ?", "2026-03-08T01:00:00-05:00",
			[]string{"2026-03-08T01:30:00-05:00", "2026-03-08T03:00:00-04:00", "2026-03-08T03:30:00-04:00"}},
		{"NY half-hourly across the repeated hour", "America/New_York", "0 0/30 * * * ?", "2026-11-01T00:00:00-04:00",
			[]string{"2026-11-01T00:30:00-04:00", "2026-11-01T01:00:00-05:00", "2026-11-01T01:30:00-05:00", "2026-11-01T02:00:00-05:00"}},
		{"Berlin 02:30 skipped on spring-forward day", "Europe/Berlin", "0 30 2 * * ?", "2026-03-28T12:00:00+01:00",
			[]string{"2026-03-30T02:30:00+02:00"}},
		{"Berlin 02:30 in the repeated hour: second pass only", "Europe/Berlin", "0 30 2 * * ?", "2026-10-24T12:00:00+02:00",
			[]string{"2026-10-25T02:30:00+01:00", "2026-10-26T02:30:00+01:00"}},
		{"Berlin 09:00 across spring-forward", "Europe/Berlin", "0 0 9 * * ?", "2025-03-29T00:00:00+01:00",
			[]string{"2025-03-29T09:00:00+01:00", "2025-03-30T09:00:00+02:00"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			loc := mustLoad(t, tt.zone)
			from, err := time.Parse(time.RFC3339, tt.from)
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for range tt.want {
				next, ok, err := NextTimeWith(FixRate242, TypeCron, tt.expr, from, loc)
				if err != nil || !ok {
					t.Fatalf("NextTimeWith: ok=%v err=%v", ok, err)
				}
				got = append(got, next.In(loc).Format(time.RFC3339))
				from = next
			}
			if !slices.Equal(got, tt.want) {
				t.Errorf("got %v\nwant %v", got, tt.want)
			}
		})
	}
}

// javaCronClasses are the reference admins' CronExpression classes.
var javaCronClasses = []struct{ name, env, jar, class string }{
	{"2.4.2", "XXL_TEST_JAVA_ADMIN_JAR", "xxl-job-admin-2.4.2.jar", "com.xxl.job.admin.core.cron.CronExpression"},
	{"3.4.2", "XXL_TEST_JAVA_ADMIN_JAR_342", "xxl-job-admin-3.4.2.jar", "com.xxl.job.admin.business.scheduler.cron.CronExpression"},
}

// referenceJar is a released Java admin jar: the file the variable names
// (as conformance/javaadmin reads it), else the reference material beside
// the repository, where CI has it.
func referenceJar(env, name string) string {
	if p := os.Getenv(env); p != "" {
		return p
	}
	return filepath.Join("..", "..", "..", "shared", "reference", name)
}

var updateDST = flag.Bool("update-dst", false, "rewrite testdata/dst-vectors.json from the reference jars (with XXL_TEST_JAVA=1)")

// TestDSTVectorsJava asks both reference jars again and compares their
// answers with the recording (-update-dst rewrites it), so the recording
// is what Java computes, not what this engine does.
func TestDSTVectorsJava(t *testing.T) {
	if os.Getenv("XXL_TEST_JAVA") != "1" {
		t.Skip("[suite-off] asking the reference jars needs XXL_TEST_JAVA=1 (and a JDK)")
	}
	java, err := exec.LookPath("java")
	if err != nil {
		t.Skip("[suite-off] asking the reference jars needs java on PATH (XXL_TEST_JAVA=1)")
	}
	tool, err := filepath.Abs("testdata/CronVectors.java")
	if err != nil {
		t.Fatal(err)
	}
	var fresh []dstVector
	for _, c := range javaCronClasses {
		classes := jarClasses(t, referenceJar(c.env, c.jar))
		for _, zone := range dstZones {
			args := []string{"-cp", classes, tool, c.class, zone}
			for _, from := range dstStarts(t, zone) {
				args = append(args, fmt.Sprint(from))
			}
			cmd := exec.Command(java, args...)
			cmd.Stdin = strings.NewReader(strings.Join(dstExprs, "\n") + "\n")
			out, err := cmd.Output()
			if err != nil {
				t.Fatalf("%s %s: java CronVectors: %v", c.name, zone, err)
			}
			var rows []struct {
				dstVector
				Valid     bool   `json:"valid"`
				EvalError string `json:"eval_error"`
			}
			if err := json.Unmarshal(out, &rows); err != nil {
				t.Fatalf("%s %s: %v", c.name, zone, err)
			}
			for _, r := range rows {
				if !r.Valid || r.EvalError != "" {
					t.Fatalf("%s %q: valid=%v eval_error=%q", c.name, r.Expr, r.Valid, r.EvalError)
				}
				r.dstVector.Class = c.name
				fresh = append(fresh, r.dstVector)
			}
		}
	}
	if *updateDST {
		rows := make([]string, len(fresh))
		for i, v := range fresh {
			b, err := json.Marshal(v)
			if err != nil {
				t.Fatal(err)
			}
			rows[i] = string(b)
		}
		doc := "[\n" + strings.Join(rows, ",\n") + "\n]\n"
		if err := os.WriteFile(dstVectorsFile, []byte(doc), 0o644); err != nil {
			t.Fatal(err)
		}
		t.Logf("wrote %d vectors to %s", len(fresh), dstVectorsFile)
		return
	}
	recorded := loadDSTVectors(t)
	if len(recorded) != len(fresh) {
		t.Fatalf("%s has %d vectors, the jars answer %d (-update-dst)", dstVectorsFile, len(recorded), len(fresh))
	}
	for i := range fresh {
		r, f := recorded[i], fresh[i]
		if r.Class != f.Class || r.Expr != f.Expr || r.TZ != f.TZ || r.FromMs != f.FromMs || !slices.Equal(r.NextMs, f.NextMs) {
			t.Errorf("vector %d: recorded %+v, %s answers %+v", i, r, f.Class, f)
		}
	}
}

// jarClasses extracts a Spring Boot jar's BOOT-INF/classes/com tree
// into a temporary directory and returns the class path.
func jarClasses(t *testing.T, jar string) string {
	t.Helper()
	zr, err := zip.OpenReader(jar)
	if err != nil {
		t.Fatalf("open reference jar: %v", err)
	}
	defer func() { _ = zr.Close() }()
	dir := t.TempDir()
	const prefix = "BOOT-INF/classes/"
	for _, f := range zr.File {
		name, ok := strings.CutPrefix(f.Name, prefix)
		if !ok || !strings.HasSuffix(name, ".class") || !strings.HasPrefix(name, "com/") {
			continue
		}
		if err := extractEntry(f, filepath.Join(dir, filepath.FromSlash(name))); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

func extractEntry(f *zip.File, path string) error {
	if strings.Contains(f.Name, "..") {
		return fmt.Errorf("jar entry %q leaves the directory", f.Name)
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return err
	}
	in, err := f.Open()
	if err != nil {
		return err
	}
	defer func() { _ = in.Close() }()
	out, err := os.Create(path)
	if err != nil {
		return err
	}
	if _, err := io.Copy(out, in); err != nil {
		return errors.Join(err, out.Close())
	}
	return out.Close()
}
