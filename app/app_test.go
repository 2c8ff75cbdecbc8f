package app_test

import (
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/rs/zerolog"
	"go.uber.org/goleak"

	"github.com/xxl-admin-go/xxl-admin-go/app"
	"github.com/xxl-admin-go/xxl-admin-go/compat/config"
	"github.com/xxl-admin-go/xxl-admin-go/compat/schema"
	"github.com/xxl-admin-go/xxl-admin-go/internal/testsupport/admintest"
	"github.com/xxl-admin-go/xxl-admin-go/internal/testsupport/storetest"
)

func TestMain(m *testing.M) {
	// The test binary doubles as the admin for tests that need a real
	// process (signals, exit codes): see runMainProcess.
	if args := os.Getenv("XXL_TEST_MAIN_ARGS"); args != "" {
		var list []string
		if err := json.Unmarshal([]byte(args), &list); err != nil {
			panic(err)
		}
		os.Exit(app.Main(list, os.Stdout, os.Stderr))
	}
	goleak.VerifyTestMain(m)
}

func get(t *testing.T, url string) (*http.Response, string) {
	t.Helper()
	c := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	resp, err := c.Get(url)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp, string(b)
}

// TestRunEmbedded is issue 2's "done when": on the embedded store the admin
// answers 200 on /xxl-job-admin/toLogin and the database holds the seeds.
func TestRunEmbedded(t *testing.T) {
	dbPath := filepath.Join(t.TempDir(), "sub", "xxl-job.db")
	base := admintest.Start(t, "--spring.datasource.url=jdbc:sqlite:"+dbPath)

	resp, body := get(t, base+"/xxl-job-admin/toLogin")
	if resp.StatusCode != 200 || !strings.Contains(resp.Header.Get("Content-Type"), "text/html") {
		t.Fatalf("toLogin: %d %s", resp.StatusCode, resp.Header.Get("Content-Type"))
	}
	if !strings.Contains(body, "<title>任务调度中心</title>") { // admin_name, zh_CN (the default i18n)
		t.Fatalf("toLogin body %q", body)
	}
	resp, body = get(t, base+"/xxl-job-admin/actuator/health")
	if resp.StatusCode != 200 || !strings.HasPrefix(body, `{"status":"UP","details":{"warnings":["xxl.job.accessToken is the public default`) {
		t.Fatalf("health: %d %s", resp.StatusCode, body)
	}
	for _, p := range []string{"/xxl-job-admin", "/xxl-job-admin/", "/xxl-job-admin/jobinfo", "/"} {
		resp, _ = get(t, base+p)
		want := "/xxl-job-admin/toLogin"
		if p == "/" || p == "/xxl-job-admin" { // to the context root, as Tomcat does
			want = "/xxl-job-admin/"
		}
		if resp.StatusCode != http.StatusFound || resp.Header.Get("Location") != want {
			t.Errorf("%s: %d to %q", p, resp.StatusCode, resp.Header.Get("Location"))
		}
	}
	// The API is mounted under the context path (executor-protocol.md §2.1).
	req, _ := http.NewRequest(http.MethodPost, base+"/xxl-job-admin/api/registry",
		strings.NewReader(`{"registryGroup":"EXECUTOR","registryKey":"xxl-job-executor-sample","registryValue":"http://127.0.0.1:9999/"}`))
	req.Header.Set("XXL-JOB-ACCESS-TOKEN", "default_token")
	apiResp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := io.ReadAll(apiResp.Body)
	apiResp.Body.Close()
	if string(b) != `{"code":200,"msg":null,"content":null}` {
		t.Fatalf("registry answer %s", b)
	}

	// A path under /api/ the mapping does not route is the console's, as
	// any unknown path (§2.1: behind the console login), not a bare 404.
	req, _ = http.NewRequest(http.MethodPost, base+"/xxl-job-admin/api/", strings.NewReader("{}"))
	req.Header.Set("XXL-JOB-ACCESS-TOKEN", "default_token")
	noFollow := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	if apiResp, err = noFollow.Do(req); err != nil {
		t.Fatal(err)
	}
	apiResp.Body.Close()
	if apiResp.StatusCode != http.StatusFound || apiResp.Header.Get("Location") != "/xxl-job-admin/toLogin" {
		t.Errorf("POST /xxl-job-admin/api/: %d to %q; want the console's login redirect", apiResp.StatusCode, apiResp.Header.Get("Location"))
	}

	target, err := schema.ParseJDBC("jdbc:sqlite:"+dbPath, "", "")
	if err != nil {
		t.Fatal(err)
	}
	s, err := schema.Open(context.Background(), target, schema.PoolSettings{MaxOpen: 1})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	u, err := s.UserLoadByName(context.Background(), "admin")
	if err != nil || u.Password != "e10adc3949ba59abbe56e057f20f883e" || u.Role != 1 {
		t.Fatalf("admin user %+v %v", u, err)
	}
	g, err := s.GroupLoad(context.Background(), 1)
	if err != nil || g.AddressList == nil || *g.AddressList != "http://127.0.0.1:9999/" {
		t.Fatalf("group %+v %v", g, err)
	}
}

// TestRunMySQL starts the admin with the Java admin's own style of arguments
// against MariaDB/MySQL.
func TestRunMySQL(t *testing.T) {
	url, user, pass := storetest.MySQLURL(t)
	base := admintest.Start(t, "--spring.datasource.url="+url+"&useUnicode=true&characterEncoding=UTF-8&autoReconnect=true",
		"--spring.datasource.username="+user, "--spring.datasource.password="+pass)
	resp, body := get(t, base+"/xxl-job-admin/actuator/health")
	if resp.StatusCode != 200 || !strings.HasPrefix(body, `{"status":"UP"`) {
		t.Fatalf("health: %d %s", resp.StatusCode, body)
	}
	resp, _ = get(t, base+"/xxl-job-admin/toLogin")
	if resp.StatusCode != 200 {
		t.Fatalf("toLogin %d", resp.StatusCode)
	}
}

// TestRunPostgres starts the admin on an empty PostgreSQL database, chosen
// by a jdbc:postgresql URL with PgJDBC's own parameters: it creates the
// tables and seed rows and serves.
func TestRunPostgres(t *testing.T) {
	url, user, pass := storetest.PostgresURL(t)
	base := admintest.Start(t, "--spring.datasource.url="+url+"&ApplicationName=xxl-job-admin&connectTimeout=5",
		"--spring.datasource.username="+user, "--spring.datasource.password="+pass)
	resp, body := get(t, base+"/xxl-job-admin/actuator/health")
	if resp.StatusCode != 200 || !strings.HasPrefix(body, `{"status":"UP"`) {
		t.Fatalf("health: %d %s", resp.StatusCode, body)
	}
	s := storetest.Open(t, url, user, pass)
	if u, err := s.UserLoadByName(context.Background(), "ADMIN"); err != nil || u.Role != 1 {
		t.Fatalf("seed admin user (looked up case-insensitively): %+v %v", u, err)
	}
}

// TestRunRefusesBadSchema: a missing column stops start-up with an error
// naming table and column (issue 2, schema).
func TestRunRefusesBadSchema(t *testing.T) {
	dbPath := filepath.Join(t.TempDir(), "x.db")
	target, _ := schema.ParseJDBC("jdbc:sqlite:"+dbPath, "", "")
	raw, err := schema.Open(context.Background(), target, schema.PoolSettings{MaxOpen: 1})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := raw.Prepare(context.Background(), schema.PrepareOptions{}); err != nil {
		t.Fatal(err)
	}
	raw.Close()
	db, err := sql.Open("sqlite", dbPath)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := db.Exec("ALTER TABLE xxl_job_log DROP COLUMN alarm_status"); err != nil {
		t.Fatal(err)
	}
	db.Close()
	cfg, err := config.Load(config.Env{Args: []string{"--server.port=0", "--spring.datasource.url=jdbc:sqlite:" + dbPath}, ReadFile: os.ReadFile})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	err = app.Run(ctx, cfg, zerolog.New(io.Discard), app.Options{})
	if err == nil || !strings.Contains(err.Error(), "xxl_job_log is missing column alarm_status") {
		t.Fatalf("err = %v", err)
	}
}

// TestRunPortInUse: a taken server.port stops start-up with an error naming
// the key, before any component has started.
func TestRunPortInUse(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	port := ln.Addr().(*net.TCPAddr).Port
	cfg, err := config.Load(config.Env{Args: []string{"--server.address=127.0.0.1", fmt.Sprintf("--server.port=%d", port),
		"--spring.datasource.url=jdbc:sqlite:" + filepath.Join(t.TempDir(), "x.db")}, ReadFile: os.ReadFile})
	if err != nil {
		t.Fatal(err)
	}
	err = app.Run(context.Background(), cfg, zerolog.New(io.Discard), app.Options{})
	if err == nil || !strings.Contains(err.Error(), "server.port") {
		t.Fatalf("err = %v", err)
	}
}
