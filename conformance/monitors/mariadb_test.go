package monitors

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"syscall"
	"testing"
	"time"

	_ "github.com/go-sql-driver/mysql" // the private server's admin connection
)

// mariaServer is a MariaDB server of the test's own, on its own data
// directory and port, that the test can stop and start again: the shared
// server on 3306 serves other tests and must never be touched.
type mariaServer struct {
	t       testing.TB
	daemon  string
	dir     string // data directory
	run     string // socket and pid file
	port    int
	cmd     *exec.Cmd
	exited  chan error
	logFile *os.File
}

// findBinary looks in the Debian locations first, then PATH.
func findBinary(names ...string) string {
	for _, n := range names {
		for _, dir := range []string{"/usr/sbin", "/usr/bin", "/usr/local/bin", "/usr/local/sbin"} {
			p := filepath.Join(dir, n)
			if fi, err := os.Stat(p); err == nil && !fi.IsDir() {
				return p
			}
		}
		if p, err := exec.LookPath(n); err == nil {
			return p
		}
	}
	return ""
}

// startMaria initialises a data directory and starts the server on a free
// port; it skips the test when the binaries are missing.
func startMaria(t testing.TB) *mariaServer {
	t.Helper()
	daemon := findBinary("mariadbd", "mysqld")
	install := findBinary("mariadb-install-db", "mysql_install_db")
	if daemon == "" || install == "" {
		t.Skip("mysql: mariadbd / mariadb-install-db not found")
	}
	// A short base path: the socket path must stay under 108 bytes.
	base, err := os.MkdirTemp("", "xxl-mdb-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = os.RemoveAll(base) })
	m := &mariaServer{t: t, daemon: daemon, dir: filepath.Join(base, "data"), run: base}
	if m.logFile, err = os.Create(filepath.Join(base, "server.log")); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { m.logFile.Close() })
	args := []string{"--no-defaults", "--datadir=" + m.dir, "--auth-root-authentication-method=normal", "--skip-test-db"}
	if os.Geteuid() == 0 {
		args = append(args, "--user=root")
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	if out, err := exec.CommandContext(ctx, install, args...).CombinedOutput(); err != nil {
		t.Fatalf("%s: %v\n%s", install, err, out)
	}
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	m.port = l.Addr().(*net.TCPAddr).Port
	l.Close()
	t.Cleanup(func() {
		if m.cmd != nil {
			m.stop()
		}
	})
	m.start()
	return m
}

// dsn is the go-sql-driver DSN of the server (grant tables are skipped:
// any user gets in).
func (m *mariaServer) dsn(db string) string {
	return fmt.Sprintf("root@tcp(127.0.0.1:%d)/%s", m.port, db)
}

// start runs the daemon and waits until it answers a ping.
func (m *mariaServer) start() {
	m.t.Helper()
	args := []string{"--no-defaults", "--datadir=" + m.dir, "--socket=" + filepath.Join(m.run, "s.sock"),
		"--port=" + strconv.Itoa(m.port), "--bind-address=127.0.0.1", "--skip-grant-tables",
		"--pid-file=" + filepath.Join(m.run, "mariadbd.pid"), "--skip-name-resolve",
		"--innodb-buffer-pool-size=32M", "--max-connections=200"}
	if os.Geteuid() == 0 {
		args = append(args, "--user=root")
	}
	cmd := exec.Command(m.daemon, args...)
	cmd.Stdout, cmd.Stderr = m.logFile, m.logFile
	if err := cmd.Start(); err != nil {
		m.t.Fatalf("start %s: %v", m.daemon, err)
	}
	exited := make(chan error, 1)
	go func() { exited <- cmd.Wait() }()
	m.cmd, m.exited = cmd, exited

	db, err := sql.Open("mysql", m.dsn(""))
	if err != nil {
		m.t.Fatal(err)
	}
	defer db.Close()
	deadline := time.Now().Add(60 * time.Second)
	for {
		ctx, cancel := context.WithTimeout(context.Background(), time.Second)
		err := db.PingContext(ctx)
		cancel()
		if err == nil {
			return
		}
		select {
		case werr := <-exited:
			m.cmd = nil
			m.t.Fatalf("mariadbd exited during start-up (%v); see %s", werr, m.logFile.Name())
		case <-time.After(100 * time.Millisecond):
		}
		if time.Now().After(deadline) {
			m.t.Fatalf("mariadbd not ready after 60 s: %v", err)
		}
	}
}

// stop sends SIGTERM and waits for the process to exit (SIGKILL after a
// minute).
func (m *mariaServer) stop() {
	m.t.Helper()
	if m.cmd == nil {
		return
	}
	if err := m.cmd.Process.Signal(syscall.SIGTERM); err != nil && !errors.Is(err, os.ErrProcessDone) {
		m.t.Errorf("SIGTERM mariadbd: %v", err)
	}
	select {
	case <-m.exited:
	case <-time.After(time.Minute):
		_ = m.cmd.Process.Kill()
		<-m.exited
		m.t.Errorf("mariadbd did not stop within a minute; killed")
	}
	m.cmd = nil
}

// createDatabase creates db and returns its JDBC URL as the admin takes it.
func (m *mariaServer) createDatabase(name string) string {
	m.t.Helper()
	db, err := sql.Open("mysql", m.dsn(""))
	if err != nil {
		m.t.Fatal(err)
	}
	defer db.Close()
	if _, err := db.Exec("CREATE DATABASE " + name + " DEFAULT CHARACTER SET utf8mb4"); err != nil {
		m.t.Fatal(err)
	}
	return fmt.Sprintf("jdbc:mysql://127.0.0.1:%d/%s?serverTimezone=Asia/Shanghai", m.port, name)
}
