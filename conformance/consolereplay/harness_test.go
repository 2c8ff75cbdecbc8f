package consolereplay

import (
	"bytes"
	"context"
	"errors"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/xxl-admin-go/xxl-admin-go/conformance/cluster"
	"github.com/xxl-admin-go/xxl-admin-go/conformance/javaadmin"
)

// moduleRoot walks up from the test's directory to go.mod.
func moduleRoot(t *testing.T) string {
	t.Helper()
	dir, err := javaadmin.ModuleRoot()
	if err != nil {
		t.Fatal(err)
	}
	return dir
}

// recordingsDir is the testdata copy of the 2.4.2 recordings.
func recordingsDir(t *testing.T) string {
	return genDir(t, Gen242)
}

// genDir is the recordings directory of a generation.
func genDir(t *testing.T, g *Generation) string {
	return filepath.Join(moduleRoot(t), filepath.FromSlash(g.RecordingsDir))
}

// database is where one replay's admin keeps its data.
type database struct{ url, user, pass string }

// lockedBuffer collects an admin's output; shown when the replay fails.
type lockedBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *lockedBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *lockedBuffer) tail(n int) string {
	b.mu.Lock()
	defer b.mu.Unlock()
	lines := strings.Split(strings.TrimRight(b.buf.String(), "\n"), "\n")
	if len(lines) > n {
		lines = lines[len(lines)-n:]
	}
	return strings.Join(lines, "\n")
}

// replayPlan creates the generation's tables and fixture in db, starts the
// target on it and replays the plan, reporting every mismatch as a test
// error.
func replayPlan(t *testing.T, gen *Generation, target javaadmin.Target, plan Plan, db database, mode CookieMode, tolerances []Tolerance) {
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	store, err := gen.OpenDB(ctx, db.url, db.user, db.pass)
	if err != nil {
		t.Fatal(err)
	}
	defer store.Close()
	executor, err := StartFakeExecutorAt(gen.Executor, "")
	if err != nil {
		t.Fatal(err)
	}
	defer executor.Close()
	fixtureAt := time.Now()
	if err := gen.LoadFixture(ctx, store, fixtureAt, executor.Address()); err != nil {
		t.Fatal(err)
	}
	mailPort, err := cluster.FreePort() // nothing listens there: no mail may be sent
	if err != nil {
		t.Fatal(err)
	}
	out := &lockedBuffer{}
	started := time.Now()
	admin, err := javaadmin.Start(ctx, target, javaadmin.Settings{DatasourceURL: db.url, User: db.user, Password: db.pass,
		AccessToken: AccessToken, ReadyPath: gen.ReadyPath,
		Lang: plan.Lang, MailPort: mailPort, WorkDir: t.TempDir()}, out, 90*time.Second)
	if err != nil {
		t.Fatalf("%v\n%s", err, out.tail(40))
	}
	ready := time.Since(started)
	client := NoRedirects()
	defer client.CloseIdleConnections()
	r := &Replay{Gen: gen, Plan: plan, Dir: genDir(t, gen), BaseURL: admin.BaseURL, DB: store, Executor: executor,
		Cookies: gen.NewCookies(mode, admin.BaseURL, store, client), Client: client,
		FixtureAt: fixtureAt, Tolerances: tolerances}
	replayStarted := time.Now()
	res, runErr := r.Run(ctx)
	replayTook := time.Since(replayStarted)
	if err := admin.Stop(); err != nil && !errors.Is(err, context.Canceled) {
		t.Logf("%s admin stop: %v", target.Name(), err)
	}
	equal, tolerated, differing := res.Tally()
	t.Logf("%s %s %s: ready in %s, %d exchanges replayed in %s: %d equal, %d with tolerated differences only, "+
		"%d differing; %d mismatches, %d tolerated",
		target.Name(), gen.Name, plan.Lang, ready.Round(time.Millisecond), res.Exchanges, replayTook.Round(time.Millisecond),
		equal, tolerated, differing, len(res.Mismatches), len(res.Tolerated))
	for _, m := range res.Tolerated {
		t.Logf("tolerated (%s): %s", m.Reason, m.Mismatch)
	}
	for _, m := range res.Mismatches {
		t.Error(m.String())
	}
	if runErr != nil {
		t.Error(runErr)
	}
	if t.Failed() {
		t.Logf("%s admin output (tail):\n%s", target.Name(), out.tail(60))
	}
}
