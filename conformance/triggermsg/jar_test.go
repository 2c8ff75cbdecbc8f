package triggermsg

import (
	"bytes"
	"context"
	"database/sql"
	"errors"
	"fmt"
	"net"
	"net/http"
	"os"
	"os/exec"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/go-sql-driver/mysql"

	"github.com/xxl-admin-go/xxl-admin-go/conformance/javaadmin"
	"github.com/xxl-admin-go/xxl-admin-go/internal/testsupport/testdb"
)

// requireSuites skips unless both the Java and the MySQL suites are on.
func requireSuites(t *testing.T) (java, jar string) {
	t.Helper()
	if os.Getenv("XXL_TEST_JAVA") != "1" {
		t.Skip("[suite-off] comparing with the 3.4.2 jar needs XXL_TEST_JAVA=1 (and a JDK)")
	}
	if os.Getenv(testdb.EnvMySQL) == "" {
		t.Skip("[suite-off] the 3.4.2 jar needs MariaDB: set " + testdb.EnvMySQL)
	}
	java, err := exec.LookPath("java")
	if err != nil {
		t.Skip("[suite-off] comparing with the 3.4.2 jar needs java on PATH (XXL_TEST_JAVA=1)")
	}
	// The released 3.4.2 admin jar ($XXL_TEST_JAVA_ADMIN_JAR_342, else
	// beside the repository as CI has it).
	jar, err = javaadmin.JarPath342()
	if err != nil {
		t.Fatalf("reference jar: %v", err)
	}
	return java, jar
}

// database34 makes a MariaDB database with the 3.4.2 release's own tables
// and seed rows (its doc/db/tables_xxl_job.sql, copied as
// conformance/testdata/tables_xxl_job-3.4.2.sql, without its CREATE
// DATABASE and use lines).
func database34(t *testing.T) (testdb.Database, *sql.DB) {
	t.Helper()
	db := testdb.MySQL(t)
	cfg, err := mysql.ParseDSN(os.Getenv(testdb.EnvMySQL))
	if err != nil {
		t.Fatal(err)
	}
	cfg.DBName = db.Name()
	raw, err := sql.Open("mysql", cfg.FormatDSN())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = raw.Close() })
	script, err := os.ReadFile("../testdata/tables_xxl_job-3.4.2.sql")
	if err != nil {
		t.Fatal(err)
	}
	for _, stmt := range statements(string(script)) {
		if _, err := raw.Exec(stmt); err != nil {
			t.Fatalf("%.80s: %v", stmt, err)
		}
	}
	return db, raw
}

// statements splits the script at ";" line ends, dropping comments, the
// database's creation and selection, and COMMIT.
func statements(script string) []string {
	var out []string
	for _, stmt := range strings.SplitAfter(script, ";\n") {
		var lines []string
		for _, line := range strings.Split(stmt, "\n") {
			if trimmed := strings.TrimSpace(line); trimmed != "" && !strings.HasPrefix(trimmed, "#") {
				lines = append(lines, line)
			}
		}
		stmt = strings.TrimSuffix(strings.TrimSpace(strings.Join(lines, "\n")), ";")
		lower := strings.ToLower(stmt)
		if stmt == "" || strings.HasPrefix(lower, "create database") || strings.HasPrefix(lower, "use ") || lower == "commit" {
			continue
		}
		out = append(out, stmt)
	}
	return out
}

// javaAdmin is a running 3.4.2 jar.
type javaAdmin struct {
	base string
	cmd  *exec.Cmd
	done chan struct{}
	out  *lockedBuffer
}

// startJar runs the jar on db (TZ=Asia/Shanghai, its logback under a
// temporary LOG_HOME, mail at a closed loopback port) and returns once GET
// /auth/login answers 200. The test's end stops it.
func startJar(t *testing.T, java, jar string, db testdb.Database, lang string) *javaAdmin {
	t.Helper()
	port := freePort(t)
	url := db.JDBC("useUnicode=true&characterEncoding=UTF-8&autoReconnect=true&serverTimezone=Asia/Shanghai")
	cmd := exec.Command(java, "-DLOG_HOME="+t.TempDir(), "-jar", jar,
		fmt.Sprintf("--server.port=%d", port), "--server.address=127.0.0.1",
		"--spring.datasource.url="+url, "--spring.datasource.username="+db.User(),
		"--spring.datasource.password="+db.Password(), "--xxl.job.accessToken=default_token",
		"--xxl.job.i18n="+lang, "--spring.mail.host=127.0.0.1", fmt.Sprintf("--spring.mail.port=%d", freePort(t)))
	cmd.Env = append(os.Environ(), "TZ=Asia/Shanghai")
	a := &javaAdmin{base: fmt.Sprintf("http://127.0.0.1:%d", port), cmd: cmd, done: make(chan struct{}), out: &lockedBuffer{}}
	cmd.Stdout, cmd.Stderr = a.out, a.out
	if err := cmd.Start(); err != nil {
		t.Fatalf("start the jar: %v", err)
	}
	go func() { _ = cmd.Wait(); close(a.done) }()
	t.Cleanup(a.stop)
	deadline := time.After(180 * time.Second)
	tick := time.NewTicker(250 * time.Millisecond)
	defer tick.Stop()
	for {
		if resp, err := http.Get(a.base + "/auth/login"); err == nil {
			_ = resp.Body.Close()
			if resp.StatusCode == http.StatusOK {
				return a
			}
		}
		select {
		case <-a.done:
			t.Fatalf("the jar exited before it was ready:\n%s", a.out.tail(4000))
		case <-deadline:
			t.Fatalf("the jar was not ready within 180 s:\n%s", a.out.tail(4000))
		case <-tick.C:
		}
	}
}

// stop ends the jar with SIGTERM (SIGKILL after 30 s) and waits for it.
func (a *javaAdmin) stop() {
	select {
	case <-a.done:
		return
	default:
	}
	_ = a.cmd.Process.Signal(syscall.SIGTERM)
	select {
	case <-a.done:
	case <-time.After(30 * time.Second):
		_ = a.cmd.Process.Kill()
		<-a.done
	}
}

func freePort(t *testing.T) int {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = l.Close() }()
	return l.Addr().(*net.TCPAddr).Port
}

// lockedBuffer collects the jar's output.
type lockedBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *lockedBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *lockedBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}

func (b *lockedBuffer) tail(n int) string {
	s := b.String()
	return s[max(0, len(s)-n):]
}

// waitFor polls cond every 100 ms until it holds, failing after limit.
func waitFor(t *testing.T, limit time.Duration, what string, cond func() (bool, error)) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), limit)
	defer cancel()
	tick := time.NewTicker(100 * time.Millisecond)
	defer tick.Stop()
	for {
		ok, err := cond()
		if err != nil && !errors.Is(err, sql.ErrNoRows) {
			t.Fatalf("%s: %v", what, err)
		}
		if ok {
			return
		}
		select {
		case <-ctx.Done():
			t.Fatalf("%s: not within %s", what, limit)
		case <-tick.C:
		}
	}
}

func netListen() (net.Listener, error) { return net.Listen("tcp", "127.0.0.1:0") }
