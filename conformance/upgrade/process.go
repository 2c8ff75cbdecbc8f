package upgrade

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"syscall"
	"time"
)

// zone is the admins' TZ and the serverTimezone of the JDBC URL.
const zone = "Asia/Shanghai"

// process is an admin served at / (the 3.x generation): the Java admin
// 3.4.2, or ours on a 3.4 database.
type process struct {
	name string
	base string // http://127.0.0.1:PORT
	log  string // the file its output goes to
	cmd  *exec.Cmd
	done chan struct{}
	err  error // exit status, once done is closed
}

// datasource is the database the admins share.
type datasource struct{ url, user, pass string }

// options name the database as both admins, and our db command, read it.
func (d datasource) options() []string {
	return []string{"--spring.datasource.url=" + d.url, "--spring.datasource.username=" + d.user, "--spring.datasource.password=" + d.pass}
}

// args are the options of an admin serving on port.
func (d datasource) args(port int) []string {
	return append([]string{"--server.port=" + strconv.Itoa(port), "--server.address=127.0.0.1",
		"--xxl.job.accessToken=default_token", "--spring.mail.host=127.0.0.1", "--spring.mail.port=25"}, d.options()...)
}

// startJava34 runs the Java admin 3.4.2 jar: its logback writes under
// LOG_HOME (the work directory) besides stdout; C1 only, as javaadmin runs
// 2.4.2, since these runs are short.
func startJava34(ctx context.Context, jar, work string, d datasource) (*process, error) {
	return start(ctx, "java 3.4.2", work, func(port int) *exec.Cmd {
		args := append([]string{"-XX:TieredStopAtLevel=1", "-Duser.language=en", "-Dfile.encoding=UTF-8",
			"-DLOG_HOME=" + work, "-Djava.io.tmpdir=" + work, "-jar", jar}, d.args(port)...)
		return exec.CommandContext(ctx, "java", args...)
	})
}

// startOurs34 runs our binary; on a 3.4 database it serves at /.
func startOurs34(ctx context.Context, bin, work string, d datasource) (*process, error) {
	return start(ctx, "ours", work, func(port int) *exec.Cmd {
		return exec.CommandContext(ctx, bin, d.args(port)...)
	})
}

func start(ctx context.Context, name, work string, command func(port int) *exec.Cmd) (*process, error) {
	port, err := freePort()
	if err != nil {
		return nil, err
	}
	if err := os.MkdirAll(work, 0o755); err != nil {
		return nil, err
	}
	log := filepath.Join(work, "admin.log")
	f, err := os.Create(log)
	if err != nil {
		return nil, err
	}
	cmd := command(port)
	cmd.Dir = work
	cmd.Env = append(os.Environ(), "TZ="+zone)
	cmd.Stdout, cmd.Stderr = f, f
	cmd.Cancel = func() error { return cmd.Process.Signal(syscall.SIGTERM) }
	cmd.WaitDelay = stopGrace
	if err := cmd.Start(); err != nil {
		f.Close()
		return nil, fmt.Errorf("start %s admin: %w", name, err)
	}
	p := &process{name: name, base: "http://127.0.0.1:" + strconv.Itoa(port), log: log, cmd: cmd, done: make(chan struct{})}
	go func() {
		p.err = cmd.Wait()
		f.Close()
		close(p.done)
	}()
	if err := p.waitReady(ctx, 2*time.Minute); err != nil {
		p.kill()
		return nil, fmt.Errorf("%s admin: %w (output: %s)", name, err, log)
	}
	return p, nil
}

// waitReady returns once GET /auth/login answers 200.
func (p *process) waitReady(ctx context.Context, limit time.Duration) error {
	ctx, cancel := context.WithTimeout(ctx, limit)
	defer cancel()
	tick := time.NewTicker(100 * time.Millisecond)
	defer tick.Stop()
	for {
		req, _ := http.NewRequestWithContext(ctx, http.MethodGet, p.base+"/auth/login", nil)
		if resp, err := http.DefaultClient.Do(req); err == nil {
			resp.Body.Close()
			if resp.StatusCode == http.StatusOK {
				return nil
			}
		}
		select {
		case <-p.done:
			return fmt.Errorf("exited before it was ready: %v", p.err)
		case <-ctx.Done():
			return fmt.Errorf("GET /auth/login not 200 after %s", limit)
		case <-tick.C:
		}
	}
}

// stopGrace is how long stop waits after SIGTERM (the Java admin drains
// its time ring for up to 8 s first).
const stopGrace = 30 * time.Second

// stop sends SIGTERM and waits; the JVM's 143 after SIGTERM is a clean stop.
func (p *process) stop() error {
	select {
	case <-p.done:
	default:
		_ = p.cmd.Process.Signal(syscall.SIGTERM)
		select {
		case <-p.done:
		case <-time.After(stopGrace):
			p.kill()
			return fmt.Errorf("%s admin ignored SIGTERM for %s; killed", p.name, stopGrace)
		}
	}
	var exit *exec.ExitError
	if errors.As(p.err, &exit) && exit.ExitCode() == 143 {
		return nil
	}
	return p.err
}

// kill ends the process at once; safe on an ended one.
func (p *process) kill() {
	_ = p.cmd.Process.Signal(syscall.SIGKILL)
	<-p.done
}

func freePort() (int, error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return 0, fmt.Errorf("free port: %w", err)
	}
	defer ln.Close()
	return ln.Addr().(*net.TCPAddr).Port, nil
}
