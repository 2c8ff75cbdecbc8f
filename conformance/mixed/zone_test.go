package mixed

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/cookiejar"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/xxl-admin-go/xxl-admin-go/compat/schema"
	"github.com/xxl-admin-go/xxl-admin-go/conformance/cluster"
	"github.com/xxl-admin-go/xxl-admin-go/conformance/javaadmin"
	"github.com/xxl-admin-go/xxl-admin-go/core/cron"
	"github.com/xxl-admin-go/xxl-admin-go/internal/testsupport/storetest"
	"github.com/xxl-admin-go/xxl-admin-go/internal/testsupport/testfactory"
)

// TestZonedJobJavaAdmin measures what the reference admins do with a job
// that has a time zone of its own (xxl_job_info.schedule_timezone), on a
// MariaDB database of their generation with the column added: started
// from the Java console, the job keeps its zone (the jar's update names
// its columns) and gets its first fire at 09:00 in the jar's own zone
// (Asia/Shanghai), not 09:00 New York — the jar ignores the column. Our
// admin started afterwards on the database, in the same zone, sees that
// write and warns at start, in its log and /actuator/health.
func TestZonedJobJavaAdmin(t *testing.T) {
	if os.Getenv(storetest.EnvMySQL) == "" {
		t.Skip("[suite-off] the zoned-job test with the Java admins needs " + storetest.EnvMySQL)
	}
	versions := []struct {
		name    string
		gen     schema.Generation
		jar     func(testing.TB) string
		ready   string // the login page
		ctxPath string
		start   func(t *testing.T, base string, id int)
	}{
		{"2.4.2", schema.Gen2, javaadmin.Require, "", javaadmin.ContextPath, start242},
		{"3.4.2", schema.Gen3, javaadmin.Require342, javaadmin.ReadyPath342, "", start342},
	}
	bin, err := cluster.BuildAdmin(t.Context(), t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	for _, v := range versions {
		t.Run(v.name, func(t *testing.T) {
			jar := v.jar(t)
			dbURL, user, pass := storetest.MySQLURLZone(t, javaadmin.Zone)
			dbURL += "&useUnicode=true&characterEncoding=UTF-8"
			s := storetest.WithScheduleTimezone(t, storetest.OpenGen(t, v.gen, dbURL, user, pass))
			job := testfactory.Job(t, s, testfactory.JobOpts{Desc: "zoned", ScheduleType: "CRON", ScheduleConf: "0 0 9 * * ?",
				Zone: "America/New_York"})
			ctx, cancel := context.WithTimeout(t.Context(), 4*time.Minute)
			defer cancel()
			settings := func(name string) javaadmin.Settings {
				work := filepath.Join(t.TempDir(), name)
				if err := os.MkdirAll(work, 0o755); err != nil {
					t.Fatal(err)
				}
				return javaadmin.Settings{DatasourceURL: dbURL, User: user, Password: pass, AccessToken: "zone-token-0123456789",
					WorkDir: work, ReadyPath: v.ready}
			}

			javaLog := &lockedLog{}
			java, err := javaadmin.Start(ctx, javaadmin.Java{Jar: jar}, settings("java"), javaLog, javaReady)
			if err != nil {
				t.Fatalf("%v\n%s", err, javaLog.String())
			}
			before := time.Now()
			v.start(t, java.BaseURL+v.ctxPath, job.ID)
			if err := java.Stop(); err != nil {
				t.Logf("java admin stop: %v", err)
			}
			row, err := s.JobLoad(ctx, job.ID)
			if err != nil {
				t.Fatal(err)
			}
			shanghai, _ := time.LoadLocation(javaadmin.Zone)
			ny, _ := time.LoadLocation("America/New_York")
			want := firstFire(t, before, shanghai)
			if row.ScheduleTimezone == nil || *row.ScheduleTimezone != "America/New_York" || row.TriggerStatus != 1 {
				t.Fatalf("after the jar's start: zone %v status %d", row.ScheduleTimezone, row.TriggerStatus)
			}
			// A fire of the jar before it stopped moves it a day on, still
			// at 09:00 in its zone.
			if next := time.UnixMilli(row.TriggerNextTime).In(shanghai); next.Before(want) || next.Format("15:04:05") != "09:00:00" {
				t.Errorf("the jar's first fire %s, want 09:00 in its own zone from %s (09:00 New York would be %s)",
					next, want, firstFire(t, before, ny).In(shanghai))
			}

			oursLog := &lockedLog{}
			ours, err := javaadmin.Start(ctx, javaadmin.Ours{Bin: bin}, settings("ours"), oursLog, oursReady)
			if err != nil {
				t.Fatalf("%v\n%s", err, oursLog.String())
			}
			health := getHealth(t, ours.BaseURL+v.ctxPath+"/actuator/health")
			_ = ours.Stop()
			if len(health) != 1 || !strings.HasPrefix(health[0], "a Java admin shares this database") ||
				!strings.Contains(health[0], fmt.Sprintf("job %d (America/New_York) next fire ", job.ID)) {
				t.Errorf("health warnings %q", health)
			}
			if n := strings.Count(oursLog.String(), `"check":"schedule-timezone"`); n != 1 {
				t.Errorf("the start-up warning was logged %d times:\n%s", n, oursLog.String())
			}
		})
	}
}

// lockedLog keeps a process's output: os/exec writes stdout and stderr
// from two goroutines.
type lockedLog struct {
	mu sync.Mutex
	b  strings.Builder
}

func (l *lockedLog) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedLog) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

// firstFire is the first 09:00 in loc after from + 5 s (the pre-read a
// start skips).
func firstFire(t *testing.T, from time.Time, loc *time.Location) time.Time {
	t.Helper()
	next, ok, err := cron.NextTimeWith(cron.FixRate242, cron.TypeCron, "0 0 9 * * ?", from.Add(5*time.Second), loc)
	if err != nil || !ok {
		t.Fatal(ok, err)
	}
	return next
}

// start242 is the 2.4.2 console's start (POST /jobinfo/start id).
func start242(t *testing.T, base string, id int) {
	t.Helper()
	c, err := javaadmin.Login(base, "admin", "123456")
	if err != nil {
		t.Fatal(err)
	}
	if err := c.Start(id); err != nil {
		t.Fatal(err)
	}
}

// start342 is the 3.4.2 console's start (POST /auth/doLogin, then
// /jobinfo/start ids[]).
func start342(t *testing.T, base string, id int) {
	t.Helper()
	jar, err := cookiejar.New(nil)
	if err != nil {
		t.Fatal(err)
	}
	client := &http.Client{Jar: jar}
	post := func(path string, form url.Values) {
		resp, err := client.PostForm(base+path, form)
		if err != nil {
			t.Fatalf("POST %s: %v", path, err)
		}
		defer func() { _ = resp.Body.Close() }()
		body, _ := io.ReadAll(resp.Body)
		var r struct {
			Code int `json:"code"`
		}
		if err := json.Unmarshal(body, &r); err != nil || r.Code != 200 {
			t.Fatalf("POST %s: HTTP %d %s", path, resp.StatusCode, body)
		}
	}
	post("/auth/doLogin", url.Values{"userName": {"admin"}, "password": {"123456"}})
	post("/jobinfo/start", url.Values{"ids[]": {fmt.Sprint(id)}})
}

// getHealth is the warnings /actuator/health lists.
func getHealth(t *testing.T, u string) []string {
	t.Helper()
	resp, err := http.Get(u)
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = resp.Body.Close() }()
	var h struct {
		Details struct {
			Warnings []string `json:"warnings"`
		} `json:"details"`
	}
	if err := json.NewDecoder(resp.Body).Decode(&h); err != nil || resp.StatusCode != 200 {
		t.Fatalf("health: %d %v", resp.StatusCode, err)
	}
	return h.Details.Warnings
}
