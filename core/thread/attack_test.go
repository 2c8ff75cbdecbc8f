package thread

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/rs/zerolog"

	"github.com/xxl-admin-go/xxl-admin-go/compat/api"
	"github.com/xxl-admin-go/xxl-admin-go/compat/i18n"
	"github.com/xxl-admin-go/xxl-admin-go/compat/schema"
	"github.com/xxl-admin-go/xxl-admin-go/internal/testsupport/storetest"
)

// syncBuffer is a log destination for goroutines.
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

// Attack 4 (SQLite variable limit), the protocol side: a callback POST of
// 40,000 items, through the real handler, answers success and stores the
// known ones; the unknown ones make one summary line, not 40,000.
func TestAttackCallbackOf40000Items(t *testing.T) {
	storetest.ForEach(t, func(t *testing.T, s *schema.Store) {
		logs := &syncBuffer{}
		c := NewCompleter(CompleterConfig{Store: s, Texts: i18n.Load("en"), Trigger: &childRecorder{}, Log: zerolog.New(logs)})
		srv := httptest.NewServer(api.NewHandler(api.HandlerConfig{AccessToken: "tok", CallTimeout: 30 * time.Second,
			Registry: NewRegistrar(RegistrarConfig{Store: s, Log: zerolog.Nop()}), Callbacks: c, Log: zerolog.Nop()}))
		t.Cleanup(srv.Close)
		var known []int64
		for range 3 {
			known = append(known, newRunningLog(t, s, 1, nil))
		}
		var body strings.Builder
		body.WriteString("[")
		for i := range 40_000 {
			fmt.Fprintf(&body, `{"logId":%d,"logDateTim":0,"handleCode":200,"handleMsg":"ok"},`, 10_000_000+i)
		}
		for i, id := range known {
			fmt.Fprintf(&body, `{"logId":%d,"logDateTim":0,"handleCode":200,"handleMsg":"done %d"}`, id, i)
			if i < len(known)-1 {
				body.WriteString(",")
			}
		}
		body.WriteString("]")
		req, _ := http.NewRequest(http.MethodPost, srv.URL+"/api/callback", strings.NewReader(body.String()))
		req.Header.Set(api.TokenHeader, "tok")
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		answer, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if string(answer) != `{"code":200,"msg":null,"content":null}` {
			t.Fatalf("answer %s", answer)
		}
		for i, id := range known {
			if l := loadLog(t, s, id); l.HandleCode != 200 || deref(l.HandleMsg) != fmt.Sprintf("done %d", i) {
				t.Errorf("log %d: %d %q", id, l.HandleCode, deref(l.HandleMsg))
			}
		}
		if lines := strings.Count(logs.String(), "\n"); lines != 1 || !strings.Contains(logs.String(), `"unknown_count":40000`) {
			t.Errorf("%d log lines: %.500s", lines, logs.String())
		}
	})
}

// Attack 4, the monitor side: a pass over 40,000 dead registrations
// succeeds and removes them all.
func TestAttackRegistryMonitor40000Dead(t *testing.T) {
	storetest.ForEach(t, func(t *testing.T, s *schema.Store) {
		ctx := context.Background()
		now := time.Now().Truncate(time.Second)
		old := now.Add(-time.Hour)
		err := s.WithTx(ctx, func(tx *schema.Store) error {
			for i := range 40_000 {
				if err := tx.RegistrySave(ctx, "EXECUTOR", "xxl-job-executor-sample", fmt.Sprintf("http://10.0.%d.%d:9999/", i/250, i%250), old); err != nil {
					return err
				}
			}
			return tx.RegistrySave(ctx, "EXECUTOR", "xxl-job-executor-sample", "http://alive:9999/", now)
		})
		if err != nil {
			t.Fatal(err)
		}
		m := NewRegistryMonitor(RegistryMonitorConfig{Store: s, Now: func() time.Time { return now }, Log: zerolog.Nop()})
		if err := m.Pass(ctx); err != nil {
			t.Fatal(err)
		}
		if rows := registryRows(t, s, now.Add(-24*time.Hour)); len(rows) != 1 {
			t.Fatalf("%d registrations left, want the live one", len(rows))
		}
		if got := groupList(t, s, 1); got == nil || *got != "http://alive:9999/" {
			t.Fatalf("address_list %v", got)
		}
	})
}

// failingStore fails the address-list write of one group.
type failingStore struct {
	registryStore
	failGroup int
}

func (f failingStore) GroupUpdateAddressList(ctx context.Context, id int, list *string, now time.Time) error {
	if id == f.failGroup {
		return errors.New("Data too long for column 'address_list'")
	}
	return f.registryStore.GroupUpdateAddressList(ctx, id, list, now)
}

// Attack 5 (the monitor stops at the first failing group): every group is
// written on its own, a failure is logged with its group, and a list over
// 65,535 bytes is cut to what fits, naming the addresses left out.
func TestAttackRegistryMonitorBadGroup(t *testing.T) {
	storetest.ForEach(t, func(t *testing.T, s *schema.Store) {
		ctx := context.Background()
		now := time.Now().Truncate(time.Second)
		group := func(app string) int {
			id, err := s.GroupSave(ctx, schema.Group{AppName: app, Title: app[:min(len(app), 12)], AddressList: schema.Ptr("http://stale/")})
			if err != nil {
				t.Fatal(err)
			}
			return id
		}
		big, broken, after := group("big-app"), group("broken-app"), group("zz-after")
		// 300 addresses of 250 bytes: 75,299 bytes joined.
		var addrs []string
		for i := range 300 {
			a := fmt.Sprintf("http://%s-%03d:9999/", strings.Repeat("h", 230), i)
			addrs = append(addrs, a)
			if err := s.RegistrySave(ctx, "EXECUTOR", "big-app", a, now); err != nil {
				t.Fatal(err)
			}
		}
		for _, r := range [][2]string{{"broken-app", "http://b:1/"}, {"zz-after", "http://z:1/"}} {
			if err := s.RegistrySave(ctx, "EXECUTOR", r[0], r[1], now); err != nil {
				t.Fatal(err)
			}
		}
		logs := &syncBuffer{}
		m := NewRegistryMonitor(RegistryMonitorConfig{Store: failingStore{registryStore: s, failGroup: broken},
			Now: func() time.Time { return now }, Log: zerolog.New(logs)})
		err := m.Pass(ctx)
		if err == nil || !strings.Contains(err.Error(), "1 of 4 group address lists not written") {
			t.Fatalf("pass error %v", err)
		}
		if got := groupList(t, s, after); got == nil || *got != "http://z:1/" {
			t.Errorf("the group after the failing one: %v", got)
		}
		if got := groupList(t, s, broken); got == nil || *got != "http://stale/" {
			t.Errorf("the failing group: %v", got)
		}
		got := groupList(t, s, big)
		keep := len(addrs)
		for len(strings.Join(addrs[:keep], ",")) > MaxAddressList {
			keep--
		}
		if got == nil || *got != strings.Join(addrs[:keep], ",") {
			t.Fatalf("big list: %d bytes, want the first %d addresses", len(deref(got)), keep)
		}
		out := logs.String()
		if !strings.Contains(out, fmt.Sprintf(`"job_group":%d,"appname":"broken-app"`, broken)) ||
			!strings.Contains(out, fmt.Sprintf(`"dropped_count":%d`, 300-keep)) || !strings.Contains(out, addrs[keep]) {
			t.Errorf("log:\n%s", out)
		}
	})
}

// Attack 8 (app names matched differently by the refresh and the
// monitor): "CASE-APP", "case-app " and "case-app" are three apps on every
// backend, for the registrar's refresh and the monitor alike.
func TestAttackAppNameCase(t *testing.T) {
	storetest.ForEach(t, func(t *testing.T, s *schema.Store) {
		ctx := context.Background()
		now := time.Now().Truncate(time.Second)
		id, err := s.GroupSave(ctx, schema.Group{AppName: "case-app", Title: "case"})
		if err != nil {
			t.Fatal(err)
		}
		r := NewRegistrar(RegistrarConfig{Store: s, Now: func() time.Time { return now }, Log: zerolog.Nop()})
		for _, p := range []api.RegistryParam{
			{RegistryGroup: "EXECUTOR", RegistryKey: "CASE-APP", RegistryValue: "http://upper:1/"},
			{RegistryGroup: "EXECUTOR", RegistryKey: "case-app ", RegistryValue: "http://space:1/"},
			{RegistryGroup: "executor", RegistryKey: "case-app", RegistryValue: "http://lower-group:1/"},
			{RegistryGroup: "EXECUTOR", RegistryKey: "case-app", RegistryValue: "http://exact:1/"},
		} {
			if err := r.Registry(ctx, p); err != nil {
				t.Fatal(err)
			}
		}
		if got := groupList(t, s, id); got == nil || *got != "http://exact:1/" {
			t.Fatalf("after the registrar's refresh: %v", deref(got))
		}
		m := NewRegistryMonitor(RegistryMonitorConfig{Store: s, Now: func() time.Time { return now }, Log: zerolog.Nop()})
		if err := m.Pass(ctx); err != nil {
			t.Fatal(err)
		}
		if got := groupList(t, s, id); got == nil || *got != "http://exact:1/" {
			t.Fatalf("after the monitor: %v", deref(got))
		}
	})
}

// Attack 11 (registering under one app grows with the square of its
// size): registrations arriving while the app's list is being rebuilt are
// all served by one more rebuild, not one each.
func TestAttackRegistrationBurst(t *testing.T) {
	s := storetest.SQLite(t)
	ctx := context.Background()
	r := NewRegistrar(RegistrarConfig{Store: s, Log: zerolog.Nop()})
	var rebuilds atomic.Int32
	first, release := make(chan struct{}), make(chan struct{})
	r.refresh.rebuilt = func(string) {
		if rebuilds.Add(1) == 1 {
			close(first)
			<-release
		}
	}
	if err := r.Start(ctx); err != nil {
		t.Fatal(err)
	}
	defer r.Stop()
	const n = 500
	var requested sync.WaitGroup
	requested.Add(n)
	var finished sync.WaitGroup
	for i := range n {
		finished.Go(func() {
			defer requested.Done() // registered and asked for a refresh (or waiting for it)
			p := api.RegistryParam{RegistryGroup: "EXECUTOR", RegistryKey: "xxl-job-executor-sample", RegistryValue: fmt.Sprintf("http://10.1.%d.%d:9999/", i/250, i%250)}
			if i == 0 {
				if err := r.Registry(ctx, p); err != nil {
					t.Error(err)
				}
				return
			}
			<-first // every other registration arrives while the first rebuild runs
			if err := r.Registry(ctx, p); err != nil {
				t.Error(err)
			}
		})
	}
	<-first
	// Registry returns within refreshWait even while the rebuild is held,
	// so "requested" means every registration is stored and has asked.
	requested.Wait()
	close(release)
	finished.Wait()
	// One more registration waits for a rebuild that starts after it, so
	// the list then holds every address.
	if err := r.Registry(ctx, api.RegistryParam{RegistryGroup: "EXECUTOR", RegistryKey: "xxl-job-executor-sample", RegistryValue: "http://last:9999/"}); err != nil {
		t.Fatal(err)
	}
	if got := rebuilds.Load(); got > 3 {
		t.Errorf("%d rebuilds for %d registrations, want at most 3", got, n+1)
	}
	got := groupList(t, s, 1)
	if got == nil || strings.Count(*got, ",") != n {
		t.Fatalf("address list has %d addresses, want %d", strings.Count(deref(got), ",")+1, n+1)
	}
}
