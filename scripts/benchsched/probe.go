package main

import (
	"context"
	"io"
	"net/http"
	"strings"
	"sync"
	"time"

	"github.com/xxl-admin-go/xxl-admin-go/conformance/cluster"
)

// probeEvery is how often the prober asks each endpoint.
const probeEvery = 100 * time.Millisecond

// prober asks the admin's health endpoint and its executor API (a registry
// beat, what every executor sends every 30 s) every 100 ms and keeps each
// answer's time: an overloaded admin must stay responsive.
type prober struct {
	base, token string
	client      *http.Client

	mu            sync.Mutex
	health, api   []time.Duration
	healthF, apiF int // failed or non-200 answers
}

func newProber(base, token string) *prober {
	return &prober{base: base, token: token, client: &http.Client{Timeout: 5 * time.Second}}
}

// run probes until ctx ends.
func (p *prober) run(ctx context.Context) {
	tick := time.NewTicker(probeEvery)
	defer tick.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-tick.C:
		}
		d, ok := p.ask(ctx, http.MethodGet, "/actuator/health", "")
		p.note(&p.health, &p.healthF, d, ok)
		d, ok = p.ask(ctx, http.MethodPost, "/api/registry",
			`{"registryGroup":"EXECUTOR","registryKey":"bench-probe","registryValue":"http://127.0.0.1:1/"}`)
		p.note(&p.api, &p.apiF, d, ok)
	}
}

func (p *prober) ask(ctx context.Context, method, path, body string) (time.Duration, bool) {
	req, _ := http.NewRequestWithContext(ctx, method, p.base+path, strings.NewReader(body))
	if body != "" {
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("XXL-JOB-ACCESS-TOKEN", p.token)
	}
	start := time.Now()
	resp, err := p.client.Do(req)
	if err != nil {
		return time.Since(start), ctx.Err() != nil
	}
	_, _ = io.Copy(io.Discard, resp.Body)
	resp.Body.Close()
	return time.Since(start), resp.StatusCode == http.StatusOK
}

func (p *prober) note(into *[]time.Duration, failed *int, d time.Duration, ok bool) {
	p.mu.Lock()
	defer p.mu.Unlock()
	*into = append(*into, d)
	if !ok {
		*failed++
	}
}

// latency is one endpoint's answer times.
type latency struct {
	N      int     `json:"n"`
	Failed int     `json:"failed"`
	P50    float64 `json:"p50_ms"`
	P99    float64 `json:"p99_ms"`
	Max    float64 `json:"max_ms"`
	Over   int     `json:"over_100ms"`
}

func (p *prober) results() (health, api latency) {
	p.mu.Lock()
	defer p.mu.Unlock()
	return summarize(p.health, p.healthF), summarize(p.api, p.apiF)
}

func summarize(d []time.Duration, failed int) latency {
	l := latency{N: len(d), Failed: failed}
	for _, x := range d {
		if x > 100*time.Millisecond {
			l.Over++
		}
	}
	s := cluster.Summarize(append([]time.Duration(nil), d...))
	l.P50, l.P99, l.Max = ms(s.P50), ms(s.P99), ms(s.Max)
	return l
}
