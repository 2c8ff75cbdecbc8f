package consolereplay

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"syscall"
	"time"

	"github.com/xxl-admin-go/xxl-admin-go/conformance/cluster"
)

// ContextPath is the admin's context path in every recording.
const ContextPath = "/xxl-job-admin"

// AccessToken is the token the admins send to the fake executor.
const AccessToken = "replay_token"

// Settings are what every admin of a replay is started with: the database,
// the console language, a loopback mail server that never receives
// anything (no job has an alarm e-mail) and a directory for its files.
type Settings struct {
	DatasourceURL, User, Password string
	Lang                          string // en, zh_CN or zh_TC
	MailPort                      int
	WorkDir                       string
}

// springArgs are the command-line settings both admins read.
func (s Settings) springArgs(port int) []string {
	return []string{
		"--server.port=" + strconv.Itoa(port),
		"--spring.datasource.url=" + s.DatasourceURL,
		"--spring.datasource.username=" + s.User,
		"--spring.datasource.password=" + s.Password,
		"--xxl.job.accessToken=" + AccessToken,
		"--xxl.job.i18n=" + s.Lang,
		"--spring.mail.host=127.0.0.1",
		"--spring.mail.port=" + strconv.Itoa(s.MailPort),
	}
}

// Target is an admin implementation the replay can start.
type Target interface {
	// Name labels reports ("java", "ours").
	Name() string
	// Command returns the process serving the admin on port.
	Command(ctx context.Context, port int, s Settings) (*exec.Cmd, error)
}

// JavaTarget is the official 2.4.2 jar, the oracle.
type JavaTarget struct{ Jar string }

// Name implements Target.
func (JavaTarget) Name() string { return "java" }

// javaLogback logs to the console only: the jar's own configuration writes
// to /data/applogs, which need not exist or be writable.
const javaLogback = `<configuration>
  <appender name="console" class="ch.qos.logback.core.ConsoleAppender">
    <encoder><pattern>%d{HH:mm:ss.SSS} %-5level [%thread] %logger{36} - %msg%n</pattern></encoder>
  </appender>
  <root level="info"><appender-ref ref="console"/></root>
</configuration>
`

// Command implements Target. C1-only compilation starts Spring Boot about a
// third faster and the replay is too short for C2 to matter. The JVM
// locale is pinned to "en": Tomcat derives Content-Language from it, and
// it was "en" in every recording. Tomcat's scratch directories go to the
// work directory, which the test removes.
func (j JavaTarget) Command(ctx context.Context, port int, s Settings) (*exec.Cmd, error) {
	logback := filepath.Join(s.WorkDir, "logback.xml")
	if err := os.WriteFile(logback, []byte(javaLogback), 0o644); err != nil {
		return nil, fmt.Errorf("write logback config: %w", err)
	}
	args := []string{"-XX:TieredStopAtLevel=1", "-Duser.language=en", "-Duser.country=",
		"-Dfile.encoding=UTF-8", "-Djava.io.tmpdir=" + s.WorkDir, "-jar", j.Jar}
	args = append(args, s.springArgs(port)...)
	args = append(args, "--server.address=127.0.0.1", "--logging.config="+logback)
	cmd := exec.CommandContext(ctx, "java", args...)
	cmd.Dir = s.WorkDir
	return cmd, nil
}

// OursTarget is our admin binary.
type OursTarget struct {
	Bin string
	// LegacyCookie starts it with --xxl.job.console.legacy-cookie=true, so
	// it accepts (and issues) the Java cookie format.
	LegacyCookie bool
}

// Name implements Target.
func (o OursTarget) Name() string { return "ours" }

// Command implements Target.
func (o OursTarget) Command(ctx context.Context, port int, s Settings) (*exec.Cmd, error) {
	args := append(s.springArgs(port), "--server.address=127.0.0.1")
	if o.LegacyCookie {
		args = append(args, "--xxl.job.console.legacy-cookie=true")
	}
	cmd := exec.CommandContext(ctx, o.Bin, args...)
	cmd.Dir = s.WorkDir
	return cmd, nil
}

// Admin is a running admin process.
type Admin struct {
	BaseURL string // http://127.0.0.1:PORT (the recorded paths carry the context path)
	cmd     *exec.Cmd
	done    chan struct{}
	err     error
}

// StartAdmin starts the target with TZ=Asia/Shanghai, its output going to
// out, and waits until GET <ctx>/toLogin answers 200 (at most ready).
func StartAdmin(ctx context.Context, t Target, s Settings, out io.Writer, ready time.Duration) (*Admin, error) {
	port, err := cluster.FreePort()
	if err != nil {
		return nil, err
	}
	cmd, err := t.Command(ctx, port, s)
	if err != nil {
		return nil, err
	}
	cmd.Env = append(os.Environ(), "TZ="+Zone)
	cmd.Stdout, cmd.Stderr = out, out
	cmd.Cancel = func() error { return cmd.Process.Signal(syscall.SIGTERM) }
	cmd.WaitDelay = 10 * time.Second
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("start %s admin: %w", t.Name(), err)
	}
	a := &Admin{BaseURL: "http://127.0.0.1:" + strconv.Itoa(port), cmd: cmd, done: make(chan struct{})}
	go func() {
		a.err = cmd.Wait()
		close(a.done)
	}()
	if err := a.waitReady(ctx, ready); err != nil {
		_ = a.Stop()
		return nil, fmt.Errorf("%s admin: %w", t.Name(), err)
	}
	return a, nil
}

func (a *Admin) waitReady(ctx context.Context, limit time.Duration) error {
	ctx, cancel := context.WithTimeout(ctx, limit)
	defer cancel()
	tick := time.NewTicker(100 * time.Millisecond)
	defer tick.Stop()
	for {
		req, _ := http.NewRequestWithContext(ctx, http.MethodGet, a.BaseURL+ContextPath+"/toLogin", nil)
		if resp, err := http.DefaultClient.Do(req); err == nil {
			resp.Body.Close()
			if resp.StatusCode == http.StatusOK {
				return nil
			}
		}
		select {
		case <-a.done:
			return fmt.Errorf("exited before it was ready: %v", a.err)
		case <-ctx.Done():
			return fmt.Errorf("GET %s/toLogin not 200 after %s", ContextPath, limit)
		case <-tick.C:
		}
	}
}

// Stop sends SIGTERM and waits for the process (SIGKILL after 10 s).
func (a *Admin) Stop() error {
	select {
	case <-a.done:
		return a.err
	default:
	}
	_ = a.cmd.Process.Signal(syscall.SIGTERM)
	select {
	case <-a.done:
	case <-time.After(10 * time.Second):
		_ = a.cmd.Process.Kill()
		<-a.done
		return errors.New("admin ignored SIGTERM for 10 s; killed")
	}
	var exit *exec.ExitError
	if errors.As(a.err, &exit) && exit.ExitCode() == 143 {
		return nil // the JVM's exit status after SIGTERM
	}
	return a.err
}
