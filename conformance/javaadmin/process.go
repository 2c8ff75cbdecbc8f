package javaadmin

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"strconv"
	"syscall"
	"time"
)

// Admin is a running admin process.
type Admin struct {
	Name    string // the target's name
	Port    int
	BaseURL string // http://127.0.0.1:PORT, without the context path
	cmd     *exec.Cmd
	done    chan struct{}
	err     error // exit status, valid once done is closed
}

// Start starts the target with TZ=Zone, its output going to out, and waits
// until GET s.ReadyPath (default <context path>/toLogin, the 2.4.2 login
// page) answers 200 (at most ready). ctx bounds the process's life:
// cancelling it sends SIGTERM.
func Start(ctx context.Context, t Target, s Settings, out io.Writer, ready time.Duration) (*Admin, error) {
	port, err := freePort()
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
	cmd.WaitDelay = stopGrace
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("start %s admin: %w", t.Name(), err)
	}
	a := &Admin{Name: t.Name(), Port: port, BaseURL: "http://127.0.0.1:" + strconv.Itoa(port), cmd: cmd,
		done: make(chan struct{})}
	go func() {
		a.err = cmd.Wait()
		close(a.done)
	}()
	if err := a.waitReady(ctx, s.readyPath(), ready); err != nil {
		a.Kill()
		return nil, fmt.Errorf("%s admin: %w", t.Name(), err)
	}
	return a, nil
}

// URL is the admin's base URL with the context path, e.g.
// http://127.0.0.1:41234/xxl-job-admin.
func (a *Admin) URL() string { return a.BaseURL + ContextPath }

// PID is the process id.
func (a *Admin) PID() int { return a.cmd.Process.Pid }

// Exited is closed when the process has ended.
func (a *Admin) Exited() <-chan struct{} { return a.done }

func (a *Admin) waitReady(ctx context.Context, path string, limit time.Duration) error {
	ctx, cancel := context.WithTimeout(ctx, limit)
	defer cancel()
	tick := time.NewTicker(100 * time.Millisecond)
	defer tick.Stop()
	for {
		req, _ := http.NewRequestWithContext(ctx, http.MethodGet, a.BaseURL+path, nil)
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
			return fmt.Errorf("GET %s not 200 after %s", path, limit)
		case <-tick.C:
		}
	}
}

// stopGrace is how long Stop waits after SIGTERM. The Java admin's
// shutdown alone waits up to 8 s for its time ring to drain, then stops
// its other threads one by one.
const stopGrace = 30 * time.Second

// Stop sends SIGTERM and waits for the process (SIGKILL after stopGrace).
// The JVM's exit status after SIGTERM (143) counts as a clean stop.
func (a *Admin) Stop() error {
	select {
	case <-a.done:
		return a.exitErr()
	default:
	}
	_ = a.cmd.Process.Signal(syscall.SIGTERM)
	select {
	case <-a.done:
	case <-time.After(stopGrace):
		a.Kill()
		return errors.New(a.Name + " admin ignored SIGTERM for " + stopGrace.String() + "; killed")
	}
	return a.exitErr()
}

func (a *Admin) exitErr() error {
	var exit *exec.ExitError
	if errors.As(a.err, &exit) && exit.ExitCode() == 143 {
		return nil
	}
	return a.err
}

// Kill sends SIGKILL, as a crash would, and waits for the process to end.
// Safe on an ended process.
func (a *Admin) Kill() {
	_ = a.cmd.Process.Signal(syscall.SIGKILL)
	<-a.done
}

// freePort asks the kernel for an unused TCP port on 127.0.0.1.
func freePort() (int, error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return 0, fmt.Errorf("free port: %w", err)
	}
	defer ln.Close()
	return ln.Addr().(*net.TCPAddr).Port, nil
}
