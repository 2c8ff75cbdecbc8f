package javaexec

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"syscall"
	"time"
)

// Lines printed on stdout by conformance/java's Main.
const (
	startedMarker = "EXECUTOR STARTED"
	stoppedMarker = "EXECUTOR STOPPED"
)

// pipeDrainDelay bounds how long Wait keeps reading output after the JVM exits: a GLUE shell job
// can leave a child holding the pipes open.
const pipeDrainDelay = 2 * time.Second

// Executor is one running Java executor process.
type Executor struct {
	opts      Options
	cmd       *exec.Cmd
	out       *lockedBuffer
	startedIn time.Duration

	done    chan struct{} // closed when the process has been reaped
	waitErr error         // valid after done is closed
}

// Start launches the executor jar for opts.Version and returns once it prints its started line,
// which Main prints only after the embedded server accepts connections. ctx bounds this wait only:
// cancelling it later does not stop the process (use Stop or Kill). On failure the process is
// killed and the error carries its output.
func Start(ctx context.Context, opts Options) (*Executor, error) {
	opts, err := opts.withDefaults()
	if err != nil {
		return nil, err
	}
	jar, err := JarPath(opts.Version)
	if err != nil {
		return nil, err
	}

	out := &lockedBuffer{}
	started := newMarkerWriter(out, startedMarker)
	cmd := exec.Command(opts.JavaBin, opts.commandArgs(jar)...)
	cmd.Stdout = started
	cmd.Stderr = out
	cmd.WaitDelay = pipeDrainDelay

	begin := time.Now()
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("javaexec: start %s executor: %w", opts.Version, err)
	}
	e := &Executor{opts: opts, cmd: cmd, out: out, done: make(chan struct{})}
	go e.reap()

	timer := time.NewTimer(opts.StartTimeout)
	defer timer.Stop()
	select {
	case <-started.found:
		e.startedIn = time.Since(begin)
		return e, nil
	case <-e.done:
		return nil, fmt.Errorf("javaexec: %s executor exited before starting (%v); output:\n%s",
			opts.Version, e.waitErr, e.Output())
	case <-timer.C:
		err = fmt.Errorf("javaexec: %s executor not started within %s", opts.Version, opts.StartTimeout)
	case <-ctx.Done():
		err = fmt.Errorf("javaexec: waiting for %s executor: %w", opts.Version, ctx.Err())
	}
	_ = e.Kill() // the start already failed; its output explains why
	return nil, fmt.Errorf("%w; output:\n%s", err, e.Output())
}

func (e *Executor) reap() {
	e.waitErr = e.cmd.Wait()
	close(e.done)
}

// Address is the registry address the executor announces and serves on, e.g. "http://127.0.0.1:9999/".
func (e *Executor) Address() string { return e.opts.Address }

// Port is the executor's HTTP port.
func (e *Executor) Port() int { return e.opts.Port }

// Version is the xxl-job-core version the process runs.
func (e *Executor) Version() string { return e.opts.Version }

// StartupTime is how long the process took from exec to its started line.
func (e *Executor) StartupTime() time.Duration { return e.startedIn }

// Output returns everything the process wrote to stdout and stderr so far.
func (e *Executor) Output() string { return e.out.String() }

// Done is closed once the process has exited.
func (e *Executor) Done() <-chan struct{} { return e.done }

// Stop sends SIGTERM, which makes the library deregister (registryRemove) and shut down, waits up to
// Options.StopTimeout, then kills. It returns nil for a clean shutdown; calling it on an exited
// process reports how that process ended.
func (e *Executor) Stop() error {
	select {
	case <-e.done:
		return e.exitError("stop")
	default:
	}
	if err := e.cmd.Process.Signal(syscall.SIGTERM); err != nil && !errors.Is(err, os.ErrProcessDone) {
		select {
		case <-e.done:
		default:
			return fmt.Errorf("javaexec: SIGTERM %s executor: %w", e.opts.Version, err)
		}
	}
	timer := time.NewTimer(e.opts.StopTimeout)
	defer timer.Stop()
	select {
	case <-e.done:
		return e.exitError("stop")
	case <-timer.C:
		_ = e.Kill()
		return fmt.Errorf("javaexec: %s executor ignored SIGTERM for %s and was killed; output:\n%s",
			e.opts.Version, e.opts.StopTimeout, e.Output())
	}
}

// Kill ends the process at once (no registryRemove) and waits for it. Safe to call repeatedly and
// after Stop, so tests can defer it unconditionally.
func (e *Executor) Kill() error {
	select {
	case <-e.done:
		return nil
	default:
	}
	err := e.cmd.Process.Kill()
	<-e.done
	if err != nil && !errors.Is(err, syscall.ESRCH) && !errors.Is(err, os.ErrProcessDone) {
		return fmt.Errorf("javaexec: kill %s executor: %w", e.opts.Version, err)
	}
	return nil
}

// exitError maps the reaped status to nil for the ways a SIGTERM'd JVM ends: exit code 143
// (128+SIGTERM, what the JVM's own handler uses), 0, or death by the signal itself.
func (e *Executor) exitError(op string) error {
	if e.waitErr == nil {
		return nil
	}
	var ee *exec.ExitError
	if errors.As(e.waitErr, &ee) {
		if ee.ExitCode() == 143 {
			return nil
		}
		if ws, ok := ee.Sys().(syscall.WaitStatus); ok && ws.Signaled() && ws.Signal() == syscall.SIGTERM {
			return nil
		}
	}
	return fmt.Errorf("javaexec: %s %s executor: %w; output:\n%s", op, e.opts.Version, e.waitErr, e.Output())
}
