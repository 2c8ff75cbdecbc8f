package javaexec

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// fakeJava writes a shell script standing in for the java launcher, plus the jar file JarPath
// expects, so Start/Stop/Kill can be tested without a JVM. The script ignores its arguments.
func fakeJava(t *testing.T, body string) Options {
	t.Helper()
	dir := t.TempDir()
	script := filepath.Join(dir, "java")
	if err := os.WriteFile(script, []byte("#!/bin/sh\n"+body+"\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "executor-0.0.0.jar"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	t.Setenv(EnvJarDir, dir)
	return Options{Version: "0.0.0", AdminAddress: "http://127.0.0.1:1/xxl-job-admin", Port: 1,
		LogDir: dir, JavaBin: script, StartTimeout: 10 * time.Second, StopTimeout: 10 * time.Second}
}

// A long sleep in the background keeps the script alive while staying interruptible by traps.
const idle = `sleep 60 & p=$!; wait $p`

func TestStartStop(t *testing.T) {
	tests := []struct {
		name        string
		script      string
		stopTimeout time.Duration
		wantStopErr string // "" = clean
		wantOutput  string
	}{
		{
			name:       "SIGTERM handled, exit 143 like the JVM",
			script:     `trap 'kill $p; echo EXECUTOR STOPPED; exit 143' TERM; echo "EXECUTOR STARTED version=0"; ` + idle,
			wantOutput: "EXECUTOR STOPPED",
		},
		{
			name:       "killed by SIGTERM itself",
			script:     `echo "EXECUTOR STARTED"; exec sleep 60`,
			wantOutput: "EXECUTOR STARTED",
		},
		{
			name:        "unclean exit code is reported",
			script:      `trap 'kill $p; echo bad shutdown >&2; exit 1' TERM; echo "EXECUTOR STARTED"; ` + idle,
			wantStopErr: "bad shutdown",
		},
		{
			name:        "SIGTERM ignored, then killed",
			script:      `trap '' TERM; echo "EXECUTOR STARTED"; while :; do sleep 0.05; done`,
			stopTimeout: 300 * time.Millisecond,
			wantStopErr: "ignored SIGTERM",
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			opts := fakeJava(t, tc.script)
			if tc.stopTimeout > 0 {
				opts.StopTimeout = tc.stopTimeout
			}
			e, err := Start(t.Context(), opts)
			if err != nil {
				t.Fatal(err)
			}
			if e.StartupTime() <= 0 || e.Address() != "http://127.0.0.1:1/" {
				t.Errorf("StartupTime %v, Address %q", e.StartupTime(), e.Address())
			}
			err = e.Stop()
			if tc.wantStopErr == "" && err != nil {
				t.Fatalf("Stop: %v", err)
			}
			if tc.wantStopErr != "" && (err == nil || !strings.Contains(err.Error(), tc.wantStopErr)) {
				t.Fatalf("Stop error = %v, want containing %q", err, tc.wantStopErr)
			}
			select {
			case <-e.Done():
			default:
				t.Fatal("process still running after Stop")
			}
			if !strings.Contains(e.Output(), tc.wantOutput) {
				t.Errorf("output %q lacks %q", e.Output(), tc.wantOutput)
			}
			if err := e.Kill(); err != nil {
				t.Errorf("Kill after Stop: %v", err)
			}
		})
	}
}

func TestStartFailures(t *testing.T) {
	tests := []struct {
		name    string
		script  string
		ctx     func() context.Context
		timeout time.Duration
		wantErr string
		wantIs  error
	}{
		{name: "exits before started line", script: `echo "no such class" >&2; exit 3`,
			wantErr: "no such class"},
		{name: "never prints started line", script: `echo booting; exec sleep 60`,
			timeout: 300 * time.Millisecond, wantErr: "booting"},
		{name: "context cancelled", script: `exec sleep 60`, ctx: func() context.Context {
			ctx, cancel := context.WithCancel(context.Background())
			cancel()
			return ctx
		}, wantIs: context.Canceled},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			opts := fakeJava(t, tc.script)
			if tc.timeout > 0 {
				opts.StartTimeout = tc.timeout
			}
			ctx := t.Context()
			if tc.ctx != nil {
				ctx = tc.ctx()
			}
			e, err := Start(ctx, opts)
			if err == nil {
				_ = e.Kill()
				t.Fatal("Start succeeded, want error")
			}
			if tc.wantErr != "" && !strings.Contains(err.Error(), tc.wantErr) {
				t.Errorf("error %v lacks %q", err, tc.wantErr)
			}
			if tc.wantIs != nil && !errors.Is(err, tc.wantIs) {
				t.Errorf("error %v is not %v", err, tc.wantIs)
			}
		})
	}
}

func TestStartMissingJar(t *testing.T) {
	t.Setenv(EnvJarDir, t.TempDir())
	_, err := Start(t.Context(), Options{Version: "1.0.0", AdminAddress: "http://x", Port: 1, LogDir: "/tmp"})
	if err == nil || !strings.Contains(err.Error(), "build.sh") {
		t.Fatalf("error = %v, want a hint to run build.sh", err)
	}
}
