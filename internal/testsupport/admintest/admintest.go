// Package admintest starts a whole admin in-process for tests, on a port of
// its own, and stops it when the test ends.
package admintest

import (
	"context"
	"io"
	"net"
	"os"
	"testing"

	"github.com/rs/zerolog"

	"github.com/xxl-admin-go/xxl-admin-go/app"
	"github.com/xxl-admin-go/xxl-admin-go/compat/config"
)

// Start runs the admin with the given arguments (as on the command line)
// and returns its base URL, e.g. http://127.0.0.1:41234. Logs go to the test
// log when verbose is set in the environment (XXL_TEST_ADMIN_LOG=1).
func Start(t testing.TB, args ...string) string {
	t.Helper()
	return StartTuned(t, app.Tuning{}, args...)
}

// StartTuned is Start with shortened helper intervals.
func StartTuned(t testing.TB, tuning app.Tuning, args ...string) string {
	t.Helper()
	return StartWith(t, app.Options{Tuning: tuning}, args...)
}

// StartWith is Start with the app options given (tuning, a wrapped
// schedule door); Ready is set here.
func StartWith(t testing.TB, opt app.Options, args ...string) string {
	t.Helper()
	cfg, err := config.Load(config.Env{Args: append([]string{"--server.port=0", "--server.address=127.0.0.1"}, args...), ReadFile: os.ReadFile})
	if err != nil {
		t.Fatal(err)
	}
	var w io.Writer = io.Discard
	if os.Getenv("XXL_TEST_ADMIN_LOG") == "1" {
		w = zerolog.ConsoleWriter{Out: testWriter{t}}
	}
	ctx, cancel := context.WithCancel(context.Background())
	ready := make(chan net.Addr, 1)
	done := make(chan error, 1)
	go func() {
		opt.Ready = func(a net.Addr) { ready <- a }
		done <- app.Run(ctx, cfg, zerolog.New(w).With().Timestamp().Logger(), opt)
	}()
	var addr net.Addr
	select {
	case addr = <-ready:
	case err := <-done:
		cancel()
		t.Fatalf("admin exited: %v", err)
	}
	t.Cleanup(func() {
		cancel()
		if err := <-done; err != nil {
			t.Errorf("admin shutdown: %v", err)
		}
	})
	return "http://" + addr.String()
}

type testWriter struct{ t testing.TB }

func (w testWriter) Write(p []byte) (int, error) {
	w.t.Log(string(p))
	return len(p), nil
}
