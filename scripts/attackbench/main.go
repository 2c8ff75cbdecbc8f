// Command attackbench replays the attacks of issue 9 against an in-process
// admin on loopback and prints the numbers of its closing note: memory
// under huge executor answers, a healthy job's fire count beside slow-drip
// executors, the time to close stalled connections, and the cost of
// registering many executors under one app. Each scenario is bounded in
// count and time and sends traffic to 127.0.0.1 only.
//
//	go run ./scripts/attackbench [-scenario all|huge|drip|stalled|register] [-drip 70s]
package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"runtime"
	"sort"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/rs/zerolog"

	"github.com/xxl-admin-go/xxl-admin-go/app"
	"github.com/xxl-admin-go/xxl-admin-go/compat/config"
	"github.com/xxl-admin-go/xxl-admin-go/compat/schema"
)

const token = "bench-token-0123"

func main() {
	scenario := flag.String("scenario", "all", "all, huge, drip, stalled or register")
	dripFor := flag.Duration("drip", 70*time.Second, "how long the slow-drip scenario runs")
	flag.Parse()
	run := func(name string, f func() error) {
		if *scenario != "all" && *scenario != name {
			return
		}
		if err := f(); err != nil {
			fmt.Fprintf(os.Stderr, "%s: %v\n", name, err)
			os.Exit(1)
		}
	}
	run("huge", huge)
	run("drip", func() error { return drip(*dripFor) })
	run("stalled", stalled)
	run("register", register)
}

// admin is an in-process admin on a fresh SQLite file.
type admin struct {
	base, db string
	cancel   context.CancelFunc
	done     chan error
}

func startAdmin(dir string, seed func(s *schema.Store) error, args ...string) (*admin, error) {
	db := filepath.Join(dir, "xxl-job.db")
	url := "jdbc:sqlite:" + db
	if seed != nil {
		if err := withStore(url, seed); err != nil {
			return nil, err
		}
	}
	cfg, err := config.Load(config.Env{Args: append([]string{"--server.port=0", "--server.address=127.0.0.1",
		"--spring.datasource.url=" + url, "--xxl.job.accessToken=" + token, "--logging.level.root=error"}, args...), ReadFile: os.ReadFile})
	if err != nil {
		return nil, err
	}
	ctx, cancel := context.WithCancel(context.Background())
	a := &admin{db: url, cancel: cancel, done: make(chan error, 1)}
	ready := make(chan net.Addr, 1)
	go func() {
		a.done <- app.Run(ctx, cfg, zerolog.New(io.Discard), app.Options{Ready: func(ad net.Addr) { ready <- ad }})
	}()
	select {
	case ad := <-ready:
		a.base = "http://" + ad.String() + "/xxl-job-admin"
	case err := <-a.done:
		cancel()
		return nil, err
	}
	return a, nil
}

func (a *admin) stop() error {
	a.cancel()
	return <-a.done
}

func withStore(url string, f func(s *schema.Store) error) error {
	target, err := schema.ParseJDBC(url, "", "")
	if err != nil {
		return err
	}
	s, err := schema.Open(context.Background(), target, schema.PoolSettings{MaxOpen: 2})
	if err != nil {
		return err
	}
	defer s.Close()
	if _, err := s.Prepare(context.Background(), schema.PrepareOptions{}); err != nil {
		return err
	}
	return f(s)
}

// everySecondJobs adds a manual group per address and n jobs firing every
// second on it; it returns the job ids.
func everySecondJobs(s *schema.Store, app, address string, n int) ([]int, error) {
	ctx := context.Background()
	gid, err := s.GroupSave(ctx, schema.Group{AppName: app, Title: app[:min(len(app), 12)], AddressType: 1, AddressList: &address})
	if err != nil {
		return nil, err
	}
	var ids []int
	next := time.Now().Add(6 * time.Second).UnixMilli()
	for i := range n {
		id, err := s.JobSave(ctx, schema.JobInfo{JobGroup: gid, JobDesc: fmt.Sprintf("%s %d", app, i), ScheduleType: "CRON",
			ScheduleConf: schema.Ptr("* * * * * ?"), MisfireStrategy: "DO_NOTHING", ExecutorRouteStrategy: schema.Ptr("FIRST"),
			ExecutorHandler: schema.Ptr("demoJobHandler"), ExecutorBlockStrategy: schema.Ptr("SERIAL_EXECUTION"),
			GlueType: "BEAN", GlueSource: schema.Ptr(""), Author: schema.Ptr("bench"), TriggerStatus: 1, TriggerNextTime: next})
		if err != nil {
			return nil, err
		}
		ids = append(ids, id)
	}
	return ids, nil
}

// peakMemory samples the Go heap until stop is closed.
func peakMemory(stop <-chan struct{}) <-chan [2]uint64 {
	out := make(chan [2]uint64, 1)
	go func() {
		var peakHeap, peakSys uint64
		t := time.NewTicker(20 * time.Millisecond)
		defer t.Stop()
		for {
			var m runtime.MemStats
			runtime.ReadMemStats(&m)
			peakHeap, peakSys = max(peakHeap, m.HeapInuse), max(peakSys, m.Sys)
			select {
			case <-stop:
				out <- [2]uint64{peakHeap, peakSys}
				return
			case <-t.C:
			}
		}
	}()
	return out
}

func mib(b uint64) string { return fmt.Sprintf("%.1f MiB", float64(b)/(1<<20)) }

// huge: 21 jobs every second against an executor answering /run with 50 MB.
func huge() error {
	chunk := []byte(strings.Repeat("y", 64<<10))
	var runs atomic.Int64
	exec := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		runs.Add(1)
		w.WriteHeader(200)
		for range (50 << 20) / len(chunk) {
			if _, err := w.Write(chunk); err != nil {
				return
			}
		}
	}))
	defer exec.Close()
	dir, _ := os.MkdirTemp("", "attackbench")
	defer os.RemoveAll(dir)
	a, err := startAdmin(dir, func(s *schema.Store) error {
		_, err := everySecondJobs(s, "huge-app", exec.URL+"/", 21)
		return err
	})
	if err != nil {
		return err
	}
	stop := make(chan struct{})
	peak := peakMemory(stop)
	time.Sleep(20 * time.Second)
	close(stop)
	p := <-peak
	if err := a.stop(); err != nil {
		return err
	}
	fmt.Printf("huge answers: 21 jobs/s against a 50 MB /run answer for 20 s: %d /run calls, peak heap in use %s, peak memory from the OS %s\n",
		runs.Load(), mib(p[0]), mib(p[1]))
	return nil
}

// drip: 40 jobs every second on an executor that answers one byte every
// 2 s, beside one healthy job every second.
func drip(d time.Duration) error {
	stopDrip := make(chan struct{})
	slow := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.WriteHeader(200)
		w.(http.Flusher).Flush()
		for {
			select {
			case <-stopDrip:
				return
			case <-r.Context().Done():
				return
			case <-time.After(2 * time.Second):
				if _, err := w.Write([]byte(" ")); err != nil {
					return
				}
				w.(http.Flusher).Flush()
			}
		}
	}))
	defer slow.Close()
	defer close(stopDrip)
	var healthyRuns atomic.Int64
	fast := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		healthyRuns.Add(1)
		_, _ = io.WriteString(w, `{"code":200}`)
	}))
	defer fast.Close()
	dir, _ := os.MkdirTemp("", "attackbench")
	defer os.RemoveAll(dir)
	a, err := startAdmin(dir, func(s *schema.Store) error {
		if _, err := everySecondJobs(s, "drip-app", slow.URL+"/", 40); err != nil {
			return err
		}
		_, err := everySecondJobs(s, "healthy-app", fast.URL+"/", 1)
		return err
	}, "--management.endpoints.web.exposure.include=prometheus")
	if err != nil {
		return err
	}
	stop := make(chan struct{})
	peak := peakMemory(stop)
	start := time.Now()
	time.Sleep(d)
	metrics := scrape(a.base + "/actuator/prometheus")
	close(stop)
	p := <-peak
	if err := a.stop(); err != nil {
		return err
	}
	var failed, stuck int
	err = withStore(a.db, func(s *schema.Store) error {
		rows, _, err := s.LogPageList(context.Background(), 0, 1_000_000, schema.LogFilter{})
		for _, r := range rows {
			if r.TriggerCode == 500 {
				failed++
			}
			if r.TriggerCode == 0 {
				stuck++
			}
		}
		return err
	})
	if err != nil {
		return err
	}
	fmt.Printf("slow drip: %v with 40 jobs/s on a one-byte-per-2s executor: the healthy every-second job fired %d times "+
		"(schedule starts after 5 s); slow-drip rows failed %d, left at trigger_code 0 %d (in flight at stop); peak heap %s\n",
		time.Since(start).Round(time.Second), healthyRuns.Load(), failed, stuck, mib(p[0]))
	for _, l := range strings.Split(metrics, "\n") {
		if strings.HasPrefix(l, "xxl_job_trigger_pool_") || strings.HasPrefix(l, "xxl_job_triggers_") {
			fmt.Println("  " + l)
		}
	}
	return nil
}

func scrape(url string) string {
	resp, err := http.Get(url)
	if err != nil {
		return err.Error()
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return string(b)
}

// stalled: 1,000 connections announcing a body they never send, half with
// a wrong token, half with the right one; health answers meanwhile.
func stalled() error {
	dir, _ := os.MkdirTemp("", "attackbench")
	defer os.RemoveAll(dir)
	a, err := startAdmin(dir, nil, "--server.tomcat.connection-timeout=20s")
	if err != nil {
		return err
	}
	addr := strings.TrimPrefix(strings.TrimSuffix(a.base, "/xxl-job-admin"), "http://")
	var mu sync.Mutex
	closed := map[string][]time.Duration{}
	var wg sync.WaitGroup
	for i := range 1000 {
		tok := "wrong"
		if i%2 == 0 {
			tok = token
		}
		wg.Go(func() {
			c, err := net.Dial("tcp", addr)
			if err != nil {
				return
			}
			defer c.Close()
			t0 := time.Now()
			_, _ = fmt.Fprintf(c, "POST /xxl-job-admin/api/registry HTTP/1.1\r\nHost: x\r\nXXL-JOB-ACCESS-TOKEN: %s\r\nContent-Length: 100\r\n\r\n", tok)
			_ = c.SetReadDeadline(time.Now().Add(60 * time.Second))
			_, _ = io.Copy(io.Discard, c)
			mu.Lock()
			closed[tok] = append(closed[tok], time.Since(t0))
			mu.Unlock()
		})
	}
	time.Sleep(time.Second)
	t0 := time.Now()
	health := scrape(a.base + "/actuator/health")
	healthTook := time.Since(t0)
	wg.Wait()
	if err := a.stop(); err != nil {
		return err
	}
	for _, k := range []string{"wrong", token} {
		d := closed[k]
		sort.Slice(d, func(i, j int) bool { return d[i] < d[j] })
		name := "right token"
		if k == "wrong" {
			name = "wrong token"
		}
		if len(d) == 0 {
			continue
		}
		fmt.Printf("stalled bodies (%s): %d connections closed by the admin, median %v, max %v\n",
			name, len(d), d[len(d)/2].Round(time.Millisecond), d[len(d)-1].Round(time.Millisecond))
	}
	fmt.Printf("health during the attack: %s in %v\n", strings.TrimSpace(health)[:min(len(health), 15)], healthTook.Round(time.Millisecond))
	return nil
}

// register: 5,000 then 5,000 more executors registering under one app,
// 50 at a time, through the API.
func register() error {
	dir, _ := os.MkdirTemp("", "attackbench")
	defer os.RemoveAll(dir)
	a, err := startAdmin(dir, nil)
	if err != nil {
		return err
	}
	client := &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: 64}}
	batch := func(from, to int) (time.Duration, error) {
		t0 := time.Now()
		next := atomic.Int64{}
		next.Store(int64(from))
		var failures atomic.Int64
		var wg sync.WaitGroup
		for range 50 {
			wg.Go(func() {
				for i := next.Add(1) - 1; i < int64(to); i = next.Add(1) - 1 {
					body := fmt.Sprintf(`{"registryGroup":"EXECUTOR","registryKey":"xxl-job-executor-sample","registryValue":"http://10.%d.%d.%d:9999/"}`, i/65536, i/256%256, i%256)
					req, _ := http.NewRequest(http.MethodPost, a.base+"/api/registry", strings.NewReader(body))
					req.Header.Set("XXL-JOB-ACCESS-TOKEN", token)
					resp, err := client.Do(req)
					if err != nil {
						failures.Add(1)
						continue
					}
					b, _ := io.ReadAll(resp.Body)
					resp.Body.Close()
					if !strings.Contains(string(b), `"code":200`) {
						failures.Add(1)
					}
				}
			})
		}
		wg.Wait()
		if n := failures.Load(); n > 0 {
			return 0, fmt.Errorf("%d registrations failed", n)
		}
		return time.Since(t0), nil
	}
	first, err := batch(0, 5000)
	if err != nil {
		return err
	}
	second, err := batch(5000, 10000)
	if err != nil {
		return err
	}
	if err := a.stop(); err != nil {
		return err
	}
	fmt.Printf("registration under one app: first 5,000 in %v, next 5,000 in %v\n", first.Round(100*time.Millisecond), second.Round(100*time.Millisecond))
	return nil
}
