package browser_test

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"sync"
	"testing"
	"time"

	"github.com/xxl-admin-go/xxl-admin-go/conformance/cluster"
	"github.com/xxl-admin-go/xxl-admin-go/conformance/consolereplay"
	"github.com/xxl-admin-go/xxl-admin-go/conformance/javaadmin"
	"github.com/xxl-admin-go/xxl-admin-go/internal/testsupport/browser"
	"github.com/xxl-admin-go/xxl-admin-go/internal/testsupport/storetest"
)

const ctxPath = consolereplay.ContextPath

// The tests share one Chromium and one build of the admin binary.
func TestMain(m *testing.M) {
	code := browser.Main(m)
	if build.dir != "" {
		_ = os.RemoveAll(build.dir)
	}
	os.Exit(code)
}

var build struct {
	once     sync.Once
	dir, bin string
	err      error
}

// adminBin builds our admin once per test binary.
func adminBin(t *testing.T) string {
	t.Helper()
	build.once.Do(func() {
		build.dir, build.err = os.MkdirTemp("", "xxl-browser-bin-")
		if build.err == nil {
			ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
			defer cancel()
			build.bin, build.err = cluster.BuildAdmin(ctx, build.dir)
		}
	})
	if build.err != nil {
		t.Fatal(build.err)
	}
	return build.bin
}

// syncBuffer collects the admin's output, shown when a test fails.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// newDB creates a fresh SQLite database with the 2.4.2 tables and seed
// rows; the handle stays open for the test's own reads and is closed at
// cleanup.
func newDB(t *testing.T) (string, *consolereplay.DB) {
	t.Helper()
	url := storetest.SQLiteURL(t, "serverTimezone="+consolereplay.Zone)
	db, err := consolereplay.OpenDB(t.Context(), url, "", "")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = db.Close() })
	return url, db
}

// admin is our admin binary running on a database.
type admin struct {
	base string // console URL: http://127.0.0.1:PORT/xxl-job-admin
	root string // http://127.0.0.1:PORT
	stop func()
}

// runAdmin starts our admin in lang on the database at url. It is stopped
// at cleanup, or earlier by its stop.
func runAdmin(t *testing.T, url, lang string) *admin {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	mailPort, err := cluster.FreePort() // nothing listens: no mail may be sent
	if err != nil {
		t.Fatal(err)
	}
	out := &syncBuffer{}
	a, err := javaadmin.Start(ctx, javaadmin.Ours{Bin: adminBin(t)}, javaadmin.Settings{
		DatasourceURL: url, AccessToken: consolereplay.AccessToken, Lang: lang, MailPort: mailPort, WorkDir: t.TempDir(),
	}, out, time.Minute)
	if err != nil {
		cancel()
		t.Fatalf("%v\n%s", err, out.String())
	}
	var once sync.Once
	stop := func() {
		once.Do(func() {
			if err := a.Stop(); err != nil {
				t.Logf("admin stop: %v", err)
			}
			cancel()
			if t.Failed() {
				t.Logf("admin output (%s):\n%s", lang, out.String())
			}
		})
	}
	t.Cleanup(stop)
	return &admin{base: a.BaseURL + ctxPath, root: a.BaseURL, stop: stop}
}

// startAdmin runs our admin in lang on a fresh database holding the
// recordings' fixture (conformance/consolereplay) with its fake executor,
// and returns its console URL.
func startAdmin(t *testing.T, lang string) string {
	t.Helper()
	url, db := newDB(t)
	executor := consolereplay.StartFakeExecutor()
	t.Cleanup(executor.Close)
	if err := (consolereplay.Fixture{At: time.Now(), Executor: executor.Address()}).Load(t.Context(), db); err != nil {
		t.Fatal(err)
	}
	return runAdmin(t, url, lang).base
}

// one reads a single value from the admin's database.
func one[T any](t *testing.T, db *consolereplay.DB, query string, args ...any) T {
	t.Helper()
	var v T
	if err := db.SQL.QueryRowContext(t.Context(), query, args...).Scan(&v); err != nil {
		t.Fatalf("%s %v: %v", query, args, err)
	}
	return v
}

func itoa(n int64) string { return fmt.Sprint(n) }
