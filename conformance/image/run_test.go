package image

import (
	"bytes"
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/xxl-admin-go/xxl-admin-go/compat/schema"
	"github.com/xxl-admin-go/xxl-admin-go/internal/testsupport/storetest"
	"github.com/xxl-admin-go/xxl-admin-go/internal/testsupport/testfactory"
)

// TestImageRuns starts the host platform's image the way an engine would
// (see Sandbox) and checks it as a user of xuxueli/xxl-job-admin would:
// the same PARAMS and JAVA_OPTS, the console answering, the schema created,
// jobs fired at an executor, crons and DATETIMEs in Asia/Shanghai, the
// health probe, a clean stop on SIGTERM.
func TestImageRuns(t *testing.T) {
	l := openLayout(t)
	img, ok := images(t, l)["linux/"+runtime.GOARCH]
	if !ok {
		t.Fatalf("no linux/%s image in the layout", runtime.GOARCH)
	}
	// As root the files get the image's owners and the namespace maps ids
	// one to one, so /data must really be the runtime user's to be written.
	owned := os.Geteuid() == 0
	u, err := l.Unpack(img, t.TempDir(), owned)
	if err != nil {
		t.Fatal(err)
	}
	newSandbox := func(t *testing.T, env map[string]string) *Sandbox {
		sb, err := NewSandbox(img, u, owned, env)
		if err != nil {
			t.Fatal(err)
		}
		return sb
	}

	t.Run("version", func(t *testing.T) {
		out, err := newSandbox(t, nil).Command("/xxl-admin-go", "--version").Output()
		if err != nil {
			t.Fatalf("--version: %v", err)
		}
		version, commit, date, goVersion, arch := parseVersion(t, string(out))
		lb := img.Config.Labels
		if version != lb["org.opencontainers.image.version"] || commit != lb["org.opencontainers.image.revision"] ||
			date != lb["org.opencontainers.image.created"] || arch != runtime.GOARCH || goVersion == "" {
			t.Errorf("--version %q disagrees with the labels %v (stamped by -ldflags from the same make run)", out, lb)
		}
	})

	t.Run("cron_in_PRC", func(t *testing.T) {
		// No zoneinfo files in the image: TZ=PRC resolves from the
		// embedded time/tzdata. 12:00 in Shanghai is 04:00 UTC.
		out, err := newSandbox(t, nil).Command("/xxl-admin-go", "cron", "--from", "2024-01-01T00:00:00Z", "--count", "1", "0 0 12 * * ?").Output()
		if err != nil || !strings.Contains(string(out), `"next_ms":[1704081600000]`) {
			t.Fatalf("cron in the image's zone: %v %s", err, out)
		}
	})

	t.Run("sqlite_default", func(t *testing.T) {
		port := freePort(t)
		a := startAdmin(t, newSandbox(t, map[string]string{"PARAMS": "--server.port=" + strconv.Itoa(port)}), port)
		a.get(t, "/xxl-job-admin/toLogin", http.StatusOK)
		fi, err := os.Stat(filepath.Join(u.RootFS, "data", "xxl-job.db"))
		if err != nil {
			t.Fatalf("the embedded store is not at /data/xxl-job.db: %v\n%s", err, a.log.String())
		}
		if st := fi.Sys().(*syscall.Stat_t); owned && st.Uid != uidRuntime {
			t.Errorf("/data/xxl-job.db owned by %d, want %d", st.Uid, uidRuntime)
		}
		a.stop(t)
	})

	t.Run("mariadb", func(t *testing.T) {
		url, user, pass := storetest.MySQLURL(t)
		url += "&useUnicode=true&characterEncoding=UTF-8"
		exe := startExecutor(t)
		port := freePort(t)
		env := map[string]string{
			"PARAMS": fmt.Sprintf("--server.port=%d --spring.datasource.url=%s --spring.datasource.username=%s --spring.datasource.password=%s",
				port, shellQuote(url), shellQuote(user), shellQuote(pass)),
			"JAVA_OPTS": "-Xmx512m -XX:+UseG1GC -Dxxl.job.accessToken=image-token",
		}
		sb := newSandbox(t, env)
		a := startAdmin(t, sb, port)
		a.get(t, "/xxl-job-admin/toLogin", http.StatusOK)

		if !strings.Contains(a.log.String(), `JAVA_OPTS: JVM flags ignored`) || !strings.Contains(a.log.String(), `["-Xmx512m","-XX:+UseG1GC"]`) {
			t.Errorf("no info line naming the ignored JVM flags:\n%s", a.log.String())
		}
		if owned {
			if uid := procUID(t, a.cmd.Process.Pid); uid != uidRuntime {
				t.Errorf("admin runs as uid %d, want %d", uid, uidRuntime)
			}
		}

		target, err := schema.ParseJDBC(url, user, pass)
		if err != nil {
			t.Fatal(err)
		}
		db, err := sql.Open(target.Driver, target.DSN)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { db.Close() })
		var tables int
		if err := db.QueryRow("SELECT COUNT(*) FROM information_schema.tables WHERE table_schema = DATABASE() AND table_name IN " +
			"('xxl_job_info','xxl_job_log','xxl_job_log_report','xxl_job_logglue','xxl_job_registry','xxl_job_group','xxl_job_user','xxl_job_lock')").
			Scan(&tables); err != nil || tables != 8 {
			t.Fatalf("the admin created %d of the 8 xxl_job_* tables (%v)", tables, err)
		}

		store := storetest.Open(t, url, user, pass)
		fixRate, cronJob := seedJobs(t, store, db, exe.url)

		// FIX_RATE fires at the executor with the token from JAVA_OPTS.
		var run runCall
		select {
		case run = <-exe.runs:
		case <-time.After(30 * time.Second):
			t.Fatalf("no /run within 30 s\n%s", a.log.String())
		}
		if run.JobID != fixRate || run.Token != "image-token" || run.Handler != "imageHandler" {
			t.Errorf("/run %+v, want job %d, handler imageHandler, token image-token", run, fixRate)
		}
		// trigger_time is written in serverTimezone=Asia/Shanghai: the
		// DATETIME read in that zone is the logDateTime the executor got.
		var triggerTime string
		if err := db.QueryRow("SELECT DATE_FORMAT(trigger_time, '%Y-%m-%d %H:%i:%s') FROM xxl_job_log WHERE id = ?", run.LogID).Scan(&triggerTime); err != nil {
			t.Fatal(err)
		}
		shanghai, _ := time.LoadLocation("Asia/Shanghai")
		at, err := time.ParseInLocation(time.DateTime, triggerTime, shanghai)
		if d := at.Sub(time.UnixMilli(run.LogDateTime)).Abs(); err != nil || d > time.Second {
			t.Errorf("log %d trigger_time %q is %v from logDateTime %d: not written in Asia/Shanghai", run.LogID, triggerTime, d, run.LogDateTime)
		}

		// The CRON job's next time is resolved in TZ=PRC: noon in
		// Shanghai, 04:00 UTC.
		next := waitNextTime(t, db, cronJob)
		if ms := next % 86_400_000; ms != 4*3_600_000 {
			t.Errorf("cron '0 0 12 * * ?' next at %s: not noon in Asia/Shanghai", time.UnixMilli(next).UTC())
		}

		// The probe inside the image follows PARAMS to the port.
		var out, errOut bytes.Buffer
		probe := sb.Command("/xxl-admin-go", "health")
		probe.Stdout, probe.Stderr = &out, &errOut
		if err := probe.Run(); err != nil || !strings.HasPrefix(out.String(), "UP http://127.0.0.1:"+strconv.Itoa(port)+"/xxl-job-admin/actuator/health") {
			t.Errorf("health in the image: %v, stdout %q stderr %q", err, out.String(), errOut.String())
		}
		down := newSandbox(t, map[string]string{"PARAMS": "--server.port=" + strconv.Itoa(freePort(t))}).Command("/xxl-admin-go", "health")
		var exitErr *exec.ExitError
		if err := down.Run(); !errors.As(err, &exitErr) || exitErr.ExitCode() != 1 {
			t.Errorf("health against a closed port: %v, want exit status 1", err)
		}
		a.stop(t)
	})
}

// admin is an image's entrypoint running in a sandbox.
type admin struct {
	cmd    *exec.Cmd
	base   string
	log    *syncBuffer
	done   chan error // Wait's result
	exited bool       // done was received
}

// startAdmin runs the entrypoint and waits until its health endpoint is UP
// (polled; the process exiting first fails the test at once).
func startAdmin(t *testing.T, sb *Sandbox, port int) *admin {
	t.Helper()
	a := &admin{base: "http://127.0.0.1:" + strconv.Itoa(port), log: &syncBuffer{}, done: make(chan error, 1)}
	a.cmd = sb.Command("/xxl-admin-go")
	a.cmd.Stdout, a.cmd.Stderr = a.log, a.log
	started := time.Now()
	if err := a.cmd.Start(); err != nil {
		t.Fatalf("start the entrypoint in the sandbox (needs user namespaces and chroot): %v", err)
	}
	go func() { a.done <- a.cmd.Wait() }()
	t.Cleanup(func() {
		if !a.exited {
			_ = a.cmd.Process.Kill()
			<-a.done
		}
		if t.Failed() {
			t.Logf("admin log:\n%s", a.log.String())
		}
	})
	deadline := time.After(30 * time.Second)
	tick := time.NewTicker(20 * time.Millisecond)
	defer tick.Stop()
	for {
		select {
		case err := <-a.done:
			a.exited = true
			t.Fatalf("the admin exited before it was healthy: %v\n%s", err, a.log.String())
		case <-deadline:
			t.Fatalf("the admin was not healthy within 30 s\n%s", a.log.String())
		case <-tick.C:
		}
		resp, err := http.Get(a.base + "/xxl-job-admin/actuator/health")
		if err != nil {
			continue
		}
		_ = resp.Body.Close()
		if resp.StatusCode == http.StatusOK {
			t.Logf("healthy %v after start", time.Since(started).Round(time.Millisecond))
			return a
		}
	}
}

func (a *admin) get(t *testing.T, path string, want int) {
	t.Helper()
	resp, err := http.Get(a.base + path)
	if err != nil {
		t.Fatal(err)
	}
	_ = resp.Body.Close()
	if resp.StatusCode != want {
		t.Fatalf("GET %s: %d, want %d", path, resp.StatusCode, want)
	}
}

// stop sends SIGTERM, as `docker stop` does, and expects a clean exit.
func (a *admin) stop(t *testing.T) {
	t.Helper()
	if err := a.cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	select {
	case err := <-a.done:
		a.exited = true
		if err != nil {
			t.Errorf("exit after SIGTERM: %v", err)
		}
	case <-time.After(15 * time.Second):
		t.Errorf("no exit within 15 s of SIGTERM")
	}
}

// seedJobs adds a manual group pointing at the executor, an enabled
// FIX_RATE 1 s job due now and an enabled CRON job with no next time yet
// (the schedule loop computes it).
func seedJobs(t *testing.T, store *schema.Store, db *sql.DB, address string) (fixRate, cronJob int) {
	t.Helper()
	ctx := context.Background()
	now := time.Now()
	group, err := store.GroupSave(ctx, schema.Group{AppName: "image-test", Title: "image", AddressType: 1,
		AddressList: schema.Ptr(address), UpdateTime: &now})
	if err != nil {
		t.Fatal(err)
	}
	job := func(desc, scheduleType, conf string) int {
		id, err := store.JobSave(ctx, testfactory.JobRow(testfactory.JobOpts{Group: group, Desc: desc, Author: "image",
			ScheduleType: scheduleType, ScheduleConf: conf, Handler: "imageHandler", Status: 1, At: now}))
		if err != nil {
			t.Fatal(err)
		}
		return id
	}
	fixRate = job("fix rate", "FIX_RATE", "1")
	cronJob = job("noon", "CRON", "0 0 12 * * ?")
	if _, err := db.Exec("UPDATE xxl_job_info SET trigger_last_time = 0, trigger_next_time = ? WHERE id = ?", now.UnixMilli()+1000, fixRate); err != nil {
		t.Fatal(err)
	}
	if _, err := db.Exec("UPDATE xxl_job_info SET trigger_last_time = 0, trigger_next_time = 0 WHERE id = ?", cronJob); err != nil {
		t.Fatal(err)
	}
	return fixRate, cronJob
}

// waitNextTime polls until the schedule loop has given the job a next time.
func waitNextTime(t *testing.T, db *sql.DB, job int) int64 {
	t.Helper()
	deadline := time.After(30 * time.Second)
	tick := time.NewTicker(100 * time.Millisecond)
	defer tick.Stop()
	for {
		var next int64
		if err := db.QueryRow("SELECT trigger_next_time FROM xxl_job_info WHERE id = ?", job).Scan(&next); err != nil {
			t.Fatal(err)
		}
		if next != 0 {
			return next
		}
		select {
		case <-deadline:
			t.Fatalf("job %d got no next time within 30 s", job)
		case <-tick.C:
		}
	}
}

// runCall is one /run the fake executor received.
type runCall struct {
	JobID       int    `json:"jobId"`
	LogID       int64  `json:"logId"`
	LogDateTime int64  `json:"logDateTime"`
	Handler     string `json:"executorHandler"`
	Token       string `json:"-"`
}

type executor struct {
	url  string
	runs chan runCall
}

// startExecutor is a fake executor on loopback that accepts every /run
// (executor-protocol.md §3) and never calls back.
func startExecutor(t *testing.T) *executor {
	e := &executor{runs: make(chan runCall, 64)}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/run" {
			var c runCall
			if err := json.NewDecoder(r.Body).Decode(&c); err != nil {
				http.Error(w, err.Error(), http.StatusBadRequest)
				return
			}
			c.Token = r.Header.Get("XXL-JOB-ACCESS-TOKEN")
			select {
			case e.runs <- c:
			default:
			}
		}
		_, _ = io.Copy(io.Discard, r.Body)
		w.Header().Set("Content-Type", "application/json;charset=UTF-8")
		_, _ = io.WriteString(w, `{"code":200,"msg":null}`)
	}))
	t.Cleanup(srv.Close)
	e.url = srv.URL + "/"
	return e
}

// procUID reads the real uid of a process as the host sees it.
func procUID(t *testing.T, pid int) int {
	t.Helper()
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		t.Fatal(err)
	}
	for _, line := range strings.Split(string(b), "\n") {
		if rest, ok := strings.CutPrefix(line, "Uid:"); ok {
			uid, _ := strconv.Atoi(strings.Fields(rest)[0])
			return uid
		}
	}
	t.Fatalf("no Uid line in /proc/%d/status", pid)
	return -1
}

func freePort(t *testing.T) int {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	return ln.Addr().(*net.TCPAddr).Port
}

// shellQuote quotes a PARAMS word the way the Java image's sh would need.
func shellQuote(s string) string {
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}
