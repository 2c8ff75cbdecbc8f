package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"syscall"
	"time"

	"github.com/rs/zerolog"

	"github.com/xxl-admin-go/xxl-admin-go/app"
	"github.com/xxl-admin-go/xxl-admin-go/compat/config"
	"github.com/xxl-admin-go/xxl-admin-go/conformance/cluster"
)

// readyWithin bounds an admin's start: the Java admins take 3.5–13 s on
// these machines, more when the box is busy (2.4.2 was not ready after
// 90 s on a shared box at load average 22).
const readyWithin = 3 * time.Minute

// admin is the admin under measurement, as a child process or in-process.
type admin interface {
	pid() int
	base() string // http://127.0.0.1:PORT with the context path
	stop() error
}

// process is an admin binary or the Java jar.
type process struct {
	cmd     *exec.Cmd
	port    int
	context string // the context path
	done    chan struct{}
	err     error
}

func (p *process) pid() int     { return p.cmd.Process.Pid }
func (p *process) base() string { return "http://127.0.0.1:" + strconv.Itoa(p.port) + p.context }

// stop sends SIGTERM and waits up to 30 s, then kills.
func (p *process) stop() error {
	_ = p.cmd.Process.Signal(syscall.SIGTERM)
	select {
	case <-p.done:
	case <-time.After(30 * time.Second):
		_ = p.cmd.Process.Kill()
		<-p.done
		return errors.New("admin ignored SIGTERM for 30 s; killed")
	}
	var exit *exec.ExitError
	if errors.As(p.err, &exit) && exit.ExitCode() == 143 {
		return nil // the JVM's status after SIGTERM
	}
	return p.err
}

// javaLogback logs to the console only (the jar's own configuration also
// writes /data/applogs), in the jar's own pattern.
const javaLogback = `<configuration>
  <appender name="console" class="ch.qos.logback.core.ConsoleAppender">
    <encoder><pattern>%d{HH:mm:ss.SSS} %-5level [%thread] %logger{36} - %msg%n</pattern></encoder>
  </appender>
  <root level="info"><appender-ref ref="console"/></root>
</configuration>
`

// startProcess starts our binary or the Java jar with args, its output in
// out, and waits until the login page answers 200 (o.readyPath: both
// admins of a generation serve it).
func startProcess(ctx context.Context, o options, args []string, dir string, out io.Writer) (*process, error) {
	port, err := cluster.FreePort()
	if err != nil {
		return nil, err
	}
	all := append([]string{"--server.port=" + strconv.Itoa(port), "--server.address=127.0.0.1"}, args...)
	var cmd *exec.Cmd
	if o.java() {
		logback := filepath.Join(dir, "logback.xml")
		if err := os.WriteFile(logback, []byte(javaLogback), 0o644); err != nil {
			return nil, err
		}
		jargs := []string{"-Dfile.encoding=UTF-8", "-Djava.io.tmpdir=" + dir, "-jar", o.jar}
		cmd = exec.Command("java", append(append(jargs, all...), "--logging.config="+logback)...)
	} else {
		cmd = exec.Command(o.bin, all...)
	}
	cmd.Dir = dir
	// Both write DATETIMEs in the JDBC serverTimezone, which the harness
	// sets to UTC; Java also needs its JVM zone to match.
	cmd.Env = append(os.Environ(), "TZ=UTC")
	cmd.Stdout, cmd.Stderr = out, out
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("start %s admin: %w", o.admin, err)
	}
	p := &process{cmd: cmd, port: port, context: o.contextPath(), done: make(chan struct{})}
	go func() {
		p.err = cmd.Wait()
		close(p.done)
	}()
	if err := waitReady(ctx, "http://127.0.0.1:"+strconv.Itoa(port)+o.readyPath(), p.done); err != nil {
		_ = cmd.Process.Kill()
		<-p.done
		return nil, fmt.Errorf("%s admin: %w", o.admin, err)
	}
	return p, nil
}

func waitReady(ctx context.Context, page string, exited <-chan struct{}) error {
	ctx, cancel := context.WithTimeout(ctx, readyWithin)
	defer cancel()
	tick := time.NewTicker(100 * time.Millisecond)
	defer tick.Stop()
	for {
		req, _ := http.NewRequestWithContext(ctx, http.MethodGet, page, nil)
		if resp, err := http.DefaultClient.Do(req); err == nil {
			resp.Body.Close()
			if resp.StatusCode == http.StatusOK {
				return nil
			}
		}
		select {
		case <-exited:
			return errors.New("exited before it was ready")
		case <-ctx.Done():
			return fmt.Errorf("not ready after %s", readyWithin)
		case <-tick.C:
		}
	}
}

// inProcess is app.Run in this process, so that runtime/pprof sees it.
type inProcess struct {
	port    int
	context string // the context path
	cancel  context.CancelFunc
	done    chan error
}

func (p inProcess) pid() int { return os.Getpid() }
func (p inProcess) base() string {
	return "http://127.0.0.1:" + strconv.Itoa(p.port) + p.context
}

func (p inProcess) stop() error {
	p.cancel()
	select {
	case err := <-p.done:
		return err
	case <-time.After(30 * time.Second):
		return fmt.Errorf("in-process admin did not stop within 30 s")
	}
}

func startAdmin(ctx context.Context, o options, args []string, dir, logPath string) (admin, error) {
	out, err := os.Create(logPath)
	if err != nil {
		return nil, err
	}
	if !o.inProcess {
		return startProcess(ctx, o, args, dir, out)
	}
	port, err := cluster.FreePort()
	if err != nil {
		return nil, err
	}
	all := append([]string{fmt.Sprintf("--server.port=%d", port), "--server.address=127.0.0.1"}, args...)
	cfg, err := config.Load(config.Env{Args: all, ReadFile: os.ReadFile})
	if err != nil {
		return nil, err
	}
	rctx, cancel := context.WithCancel(context.Background())
	ready := make(chan net.Addr, 1)
	p := inProcess{port: port, context: o.contextPath(), cancel: cancel, done: make(chan error, 1)}
	// At the configured level (info by default), as the binary logs: an
	// unlevelled logger wrote every trigger's debug line, thousands a
	// second, into the profile of the process it was meant to measure.
	level := map[string]zerolog.Level{"trace": zerolog.TraceLevel, "debug": zerolog.DebugLevel,
		"info": zerolog.InfoLevel, "warn": zerolog.WarnLevel, "error": zerolog.ErrorLevel, "off": zerolog.Disabled}[cfg.LogLevel]
	go func() {
		p.done <- app.Run(rctx, cfg, zerolog.New(out).Level(level).With().Timestamp().Logger(),
			app.Options{Ready: func(a net.Addr) { ready <- a }})
	}()
	select {
	case <-ready:
		return p, nil
	case err := <-p.done:
		cancel()
		return nil, fmt.Errorf("in-process admin: %w", err)
	case <-time.After(30 * time.Second):
		cancel()
		return nil, fmt.Errorf("in-process admin not ready within 30 s")
	}
}
