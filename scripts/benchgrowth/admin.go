package main

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/xxl-admin-go/xxl-admin-go/compat/schema"
)

// runningAdmin is one admin process the idle and lateness modes started.
type runningAdmin struct {
	pid  int
	base string // URL with the context path
	stop func()
}

// startAdmin starts candidate c on database name with the extra
// --key=value arguments and waits until its login page answers.
func startAdmin(ctx context.Context, srv server, name string, gen schema.Generation, c candidate, work string, extra ...string) (runningAdmin, error) {
	port, err := freePort()
	if err != nil {
		return runningAdmin{}, err
	}
	ctxPath, login := "/xxl-job-admin", "/toLogin"
	if gen == schema.Gen3 {
		ctxPath, login = "", "/auth/login"
	}
	args := append([]string{"--server.port=" + strconv.Itoa(port), "--server.address=127.0.0.1",
		"--spring.datasource.url=" + srv.jdbc(name), "--spring.datasource.username=" + srv.user,
		"--spring.datasource.password=" + srv.pass}, extra...)
	var cmd *exec.Cmd
	if c.java {
		cmd = exec.Command("java", append([]string{"-Djava.io.tmpdir=" + work, "-jar", c.path}, args...)...)
	} else {
		cmd = exec.Command(c.path, args...)
	}
	logf, err := os.Create(filepath.Join(work, strings.ReplaceAll(c.label, " ", "_")+"-"+name+".log"))
	if err != nil {
		return runningAdmin{}, err
	}
	cmd.Dir, cmd.Stdout, cmd.Stderr = work, logf, logf
	cmd.Env = append(os.Environ(), "TZ=UTC")
	if err := cmd.Start(); err != nil {
		logf.Close()
		return runningAdmin{}, err
	}
	done := make(chan struct{})
	go func() { _ = cmd.Wait(); close(done) }()
	stop := func() {
		_ = cmd.Process.Signal(syscall.SIGTERM)
		select {
		case <-done:
		case <-time.After(30 * time.Second):
			_ = cmd.Process.Kill()
			<-done
		}
		logf.Close()
	}
	base := "http://127.0.0.1:" + strconv.Itoa(port) + ctxPath
	if err := waitReady(ctx, base+login, done); err != nil {
		stop()
		return runningAdmin{}, fmt.Errorf("%s: %w (log: %s)", c.label, err, logf.Name())
	}
	return runningAdmin{pid: cmd.Process.Pid, base: base, stop: stop}, nil
}

// cpuTicks is a process's utime + stime from /proc (every thread), in
// clock ticks (100 a second on Linux).
func cpuTicks(pid int) (int64, error) {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return 0, err
	}
	// The command name may hold spaces; the fields follow its ')'.
	s := string(b)
	f := strings.Fields(s[strings.LastIndexByte(s, ')')+1:])
	if len(f) < 13 {
		return 0, fmt.Errorf("/proc/%d/stat: %d fields", pid, len(f))
	}
	u, err1 := strconv.ParseInt(f[11], 10, 64)
	k, err2 := strconv.ParseInt(f[12], 10, 64)
	if err1 != nil || err2 != nil {
		return 0, fmt.Errorf("/proc/%d/stat: %q %q", pid, f[11], f[12])
	}
	return u + k, nil
}

const ticksPerSecond = 100

// loadAverage is /proc/loadavg's first three fields.
func loadAverage() string {
	b, _ := os.ReadFile("/proc/loadavg")
	f := strings.Fields(string(b))
	if len(f) < 3 {
		return "?"
	}
	return strings.Join(f[:3], " ")
}

// pidOf reads a pid file or takes a number.
func pidOf(s string) (int, error) {
	if n, err := strconv.Atoi(s); err == nil {
		return n, nil
	}
	b, err := os.ReadFile(s)
	if err != nil {
		return 0, fmt.Errorf("mysqld pid: %w", err)
	}
	return strconv.Atoi(strings.TrimSpace(string(b)))
}
