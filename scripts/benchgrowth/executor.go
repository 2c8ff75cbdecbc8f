package main

import (
	"context"
	"encoding/json"
	"net"
	"net/http"
	"sync"
	"time"

	"github.com/xxl-admin-go/xxl-admin-go/compat/api"
	"github.com/xxl-admin-go/xxl-admin-go/internal/testsupport/fakeexec"
)

// arrival is one /run as the executor saw it.
type arrival struct {
	at  time.Time
	job int
}

// benchExecutor is the lateness mode's executor: it answers every /run at
// once (a run takes no time), notes its arrival while recording, and calls
// the results back in one POST every 100 ms, as Java's callback thread
// sends what queued meanwhile. Lighter than fakeexec's per-job threads,
// which matters at thousands of runs a second on a small box.
type benchExecutor struct {
	srv  *http.Server
	ln   net.Listener
	stop context.CancelFunc
	done chan struct{}

	mu        sync.Mutex
	admin     string
	recording bool
	arrivals  []arrival
	results   []api.HandleCallbackParam
}

func startBenchExecutor() (*benchExecutor, error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, err
	}
	ctx, stop := context.WithCancel(context.Background())
	e := &benchExecutor{ln: ln, stop: stop, done: make(chan struct{})}
	mux := http.NewServeMux()
	mux.HandleFunc("/run", e.run)
	mux.HandleFunc("/", func(w http.ResponseWriter, _ *http.Request) { _, _ = w.Write([]byte(`{"code":200}`)) })
	e.srv = &http.Server{Handler: mux}
	go func() { _ = e.srv.Serve(ln) }()
	go e.callbacks(ctx)
	return e, nil
}

func (e *benchExecutor) address() string { return "http://" + e.ln.Addr().String() + "/" }

func (e *benchExecutor) setAdmin(base string) {
	e.mu.Lock()
	e.admin, e.results = base, nil
	e.mu.Unlock()
}

// record starts or stops noting arrivals; stopping returns them.
func (e *benchExecutor) record(on bool) []arrival {
	e.mu.Lock()
	defer e.mu.Unlock()
	e.recording = on
	got := e.arrivals
	e.arrivals = nil
	return got
}

func (e *benchExecutor) run(w http.ResponseWriter, r *http.Request) {
	at := time.Now()
	var p api.TriggerParam
	if err := json.NewDecoder(r.Body).Decode(&p); err != nil {
		http.Error(w, err.Error(), http.StatusBadRequest)
		return
	}
	e.mu.Lock()
	if e.recording {
		e.arrivals = append(e.arrivals, arrival{at: at, job: p.JobID})
	}
	e.results = append(e.results, api.HandleCallbackParam{LogID: p.LogID, LogDateTim: p.LogDateTime, HandleCode: 200})
	e.mu.Unlock()
	_, _ = w.Write([]byte(`{"code":200}`))
}

func (e *benchExecutor) callbacks(ctx context.Context) {
	defer close(e.done)
	t := time.NewTicker(100 * time.Millisecond)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
		e.mu.Lock()
		batch, admin := e.results, e.admin
		e.results = nil
		e.mu.Unlock()
		if len(batch) == 0 || admin == "" {
			continue
		}
		body, _ := json.Marshal(batch)
		// A failed callback is dropped: the lost monitor settles the row.
		_ = fakeexec.PostCallback(ctx, fakeexec.Endpoint{URL: admin, Token: "bench"}, body)
	}
}

func (e *benchExecutor) close() {
	e.stop()
	<-e.done
	_ = e.srv.Close()
}
