package app_test

import (
	"bytes"
	"context"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/rs/zerolog"

	"github.com/xxl-admin-go/xxl-admin-go/app"
	"github.com/xxl-admin-go/xxl-admin-go/compat/config"
)

// logBuffer collects an admin's JSON log lines.
type logBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *logBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *logBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}

// admin is an in-process admin whose log is kept.
type admin struct {
	base   string // http://127.0.0.1:port
	addr   string // 127.0.0.1:port
	logs   *logBuffer
	cancel context.CancelFunc
	done   chan error
	once   sync.Once
	err    error
}

// stop ends the admin (once) and returns what Run returned.
func (a *admin) stop() error {
	a.once.Do(func() {
		a.cancel()
		a.err = <-a.done
	})
	return a.err
}

// startAdmin runs the admin on an embedded store (unless args name a
// datasource) with a JSON logger writing into a buffer, at debug level.
func startAdmin(t *testing.T, opt app.Options, args ...string) *admin {
	t.Helper()
	all := append([]string{"--server.port=0", "--server.address=127.0.0.1", "--logging.level.root=debug",
		"--spring.datasource.url=jdbc:sqlite:" + filepath.Join(t.TempDir(), "xxl-job.db")}, args...)
	cfg, err := config.Load(config.Env{Args: all, ReadFile: os.ReadFile})
	if err != nil {
		t.Fatal(err)
	}
	a := &admin{logs: &logBuffer{}, done: make(chan error, 1)}
	ctx, cancel := context.WithCancel(context.Background())
	a.cancel = cancel
	ready := make(chan net.Addr, 1)
	opt.Ready = func(addr net.Addr) { ready <- addr }
	log := zerolog.New(a.logs).Level(zerolog.DebugLevel).With().Timestamp().Logger()
	go func() { a.done <- app.Run(ctx, cfg, log, opt) }()
	select {
	case addr := <-ready:
		a.addr = addr.String()
		a.base = "http://" + a.addr
	case err := <-a.done:
		cancel()
		t.Fatalf("admin exited: %v\n%s", err, a.logs.String())
	}
	t.Cleanup(func() {
		if err := a.stop(); err != nil {
			t.Errorf("admin shutdown: %v", err)
		}
	})
	return a
}

// post sends a JSON POST with the token and returns the answer body.
func post(t *testing.T, url, token, body string) string {
	t.Helper()
	req, err := http.NewRequest(http.MethodPost, url, strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	if token != "" {
		req.Header.Set("XXL-JOB-ACCESS-TOKEN", token)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var b bytes.Buffer
	_, _ = b.ReadFrom(resp.Body)
	return b.String()
}
