package cluster

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"os/exec"
	"strconv"
	"syscall"
	"time"
)

// Admin is one running admin process.
type Admin struct {
	Port int
	cmd  *exec.Cmd
	done chan struct{}
	err  error // exit status, valid once done is closed
}

// StartAdmin runs bin with args plus --server.port and
// --server.address=127.0.0.1, writing its log to out, and waits until its
// health endpoint answers UP (at most ready).
func StartAdmin(bin string, args []string, out io.Writer, ready time.Duration) (*Admin, error) {
	port, err := FreePort()
	if err != nil {
		return nil, err
	}
	all := append([]string{"--server.port=" + strconv.Itoa(port), "--server.address=127.0.0.1"}, args...)
	cmd := exec.Command(bin, all...)
	cmd.Stdout, cmd.Stderr = out, out
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("start admin: %w", err)
	}
	a := &Admin{Port: port, cmd: cmd, done: make(chan struct{})}
	go func() {
		a.err = cmd.Wait()
		close(a.done)
	}()
	if err := a.waitHealthy(ready); err != nil {
		a.Kill()
		return nil, err
	}
	return a, nil
}

// PID is the process id.
func (a *Admin) PID() int { return a.cmd.Process.Pid }

// Exited is closed when the process has ended.
func (a *Admin) Exited() <-chan struct{} { return a.done }

func (a *Admin) waitHealthy(limit time.Duration) error {
	ctx, cancel := context.WithTimeout(context.Background(), limit)
	defer cancel()
	url := "http://127.0.0.1:" + strconv.Itoa(a.Port) + "/xxl-job-admin/actuator/health"
	tick := time.NewTicker(50 * time.Millisecond)
	defer tick.Stop()
	for {
		req, _ := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
		if resp, err := http.DefaultClient.Do(req); err == nil {
			resp.Body.Close()
			if resp.StatusCode == http.StatusOK {
				return nil
			}
		}
		select {
		case <-a.done:
			return fmt.Errorf("admin on port %d exited before it was healthy: %v", a.Port, a.err)
		case <-ctx.Done():
			return fmt.Errorf("admin on port %d not healthy after %s", a.Port, limit)
		case <-tick.C:
		}
	}
}

// Kill sends SIGKILL, as a crash would, and waits for the process to end.
// Safe on an ended process.
func (a *Admin) Kill() {
	_ = a.cmd.Process.Signal(syscall.SIGKILL)
	<-a.done
}

// Terminate sends SIGTERM and waits up to grace for a clean exit, then
// kills. It reports a non-zero exit or the need to kill.
func (a *Admin) Terminate(grace time.Duration) error {
	select {
	case <-a.done:
		return fmt.Errorf("admin on port %d had already exited: %v", a.Port, a.err)
	default:
	}
	_ = a.cmd.Process.Signal(syscall.SIGTERM)
	select {
	case <-a.done:
		return a.err
	case <-time.After(grace):
		a.Kill()
		return errors.New("admin on port " + strconv.Itoa(a.Port) + " ignored SIGTERM for " + grace.String() + "; killed")
	}
}

// FreePort asks the kernel for an unused TCP port on 127.0.0.1.
func FreePort() (int, error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return 0, fmt.Errorf("free port: %w", err)
	}
	defer ln.Close()
	return ln.Addr().(*net.TCPAddr).Port, nil
}
