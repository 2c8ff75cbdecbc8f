package consolereplay

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"
	"time"
)

// Replay runs one language's plan against a running admin.
type Replay struct {
	Gen      *Generation
	Plan     Plan
	Dir      string // recordings directory
	BaseURL  string // the admin, http://127.0.0.1:PORT
	DB       *DB
	Executor *FakeExecutor
	Cookies  CookieMapper
	Client   *http.Client // must not follow redirects
	// FixtureAt is when this replay loaded its fixture.
	FixtureAt time.Time
	// Tolerances are accepted differences (ours only; nil for Java).
	Tolerances []Tolerance
}

// Result is what a replay found.
type Result struct {
	Exchanges  int
	Mismatches []Mismatch
	Tolerated  []ToleratedMismatch
}

// Tally counts the replayed exchanges by outcome: equal (no mismatch),
// tolerated (only accepted mismatches) and differing (some mismatch not
// accepted). A scenario's executor calls (exchange -1) are not exchanges;
// their mismatches show in the lists only.
func (r Result) Tally() (equal, tolerated, differing int) {
	type key struct {
		scenario string
		exchange int
	}
	bad, ok := map[key]bool{}, map[key]bool{}
	for _, m := range r.Mismatches {
		if m.Exchange >= 0 {
			bad[key{m.Scenario, m.Exchange}] = true
		}
	}
	for _, m := range r.Tolerated {
		if k := (key{m.Scenario, m.Exchange}); m.Exchange >= 0 && !bad[k] {
			ok[k] = true
		}
	}
	return r.Exchanges - len(bad) - len(ok), len(ok), len(bad)
}

// ToleratedMismatch is a mismatch of ours accepted by a Tolerance.
type ToleratedMismatch struct {
	Mismatch
	Reason string
}

// NoRedirects is a client for replays: redirects are compared, not followed.
func NoRedirects() *http.Client {
	return &http.Client{
		Timeout:       30 * time.Second,
		Transport:     &http.Transport{DisableCompression: true, MaxIdleConnsPerHost: 4},
		CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse },
	}
}

// Run replays every step in order. An error means the replay itself could
// not go on (a hook failed, the admin stopped answering); differences are
// in the result.
func (r *Replay) Run(ctx context.Context) (Result, error) {
	var res Result
	for _, step := range r.Plan.Steps {
		if err := RunHooks(ctx, r.DB, step.Before); err != nil {
			return res, fmt.Errorf("before %q: %w", step.Scenario, err)
		}
		if step.Scenario == "" {
			continue
		}
		rec, err := LoadRecording(r.Dir, step.Scenario, r.Plan.Lang)
		if err != nil {
			return res, err
		}
		frame, err := r.frame(rec)
		if err != nil {
			return res, err
		}
		norm := normalizer{executor: r.Executor.Address(), admin: r.BaseURL, recordedAdmin: origin(rec.Setup.AdminURL)}
		r.Executor.TakeCalls()
		for _, l := range rec.Setup.Logins {
			if err := r.Cookies.Login(ctx, l); err != nil {
				return res, fmt.Errorf("%s setup: %w", rec.Scenario, err)
			}
		}
		for i, ex := range rec.Exchanges {
			if err := RunHooks(ctx, r.DB, step.BeforeExchange[i]); err != nil {
				return res, fmt.Errorf("%s[%d]: %w", rec.Scenario, i, err)
			}
			c := &checker{scenario: rec.Scenario, index: i, note: ex.Note, endpoint: r.endpointOf(ex.Request.Path),
				frame: frame, norm: norm, sameCookie: r.Gen.SameCookieValue}
			obs, err := r.exchange(ctx, c.endpoint, ex, norm, frame)
			if err != nil {
				return res, fmt.Errorf("%s[%d]: %w", rec.Scenario, i, err)
			}
			r.Cookies.Learn(strings.Join(HeaderValues(ex.Request.Headers, "Cookie"), "; "),
				HeaderValues(ex.Response.Headers, "Set-Cookie"), obs.Header.Values("Set-Cookie"))
			c.compareExchange(ex.Response, ex.DBAfter, *obs)
			r.classify(&res, step.Scenario, c.out)
			res.Exchanges++
		}
		if len(rec.Setup.FakeExecutorCalls) > 0 {
			c := &checker{scenario: rec.Scenario, index: -1, note: "calls to the fake executor", frame: frame, norm: norm,
				sameCookie: r.Gen.SameCookieValue}
			c.compareExecutorCalls(rec.Setup.FakeExecutorCalls, r.Executor.TakeCalls())
			r.classify(&res, step.Scenario, c.out)
		}
	}
	return res, nil
}

// frame relates the recording's fixture time to the replay's: the plan's
// (2.4.2, reconstructed) or the one the recorder wrote into the recording.
func (r *Replay) frame(rec *Recording) (timeFrame, error) {
	recorded := r.Plan.FixtureAt
	if recorded.IsZero() {
		t, err := time.Parse(time.RFC3339Nano, rec.Setup.FixtureAt)
		if err != nil {
			return timeFrame{}, fmt.Errorf("%s: setup.fixture_at: %w", rec.Scenario, err)
		}
		recorded = t
	}
	return timeFrame{recorded: recorded, replay: r.FixtureAt, loc: r.DB.loc}, nil
}

func (r *Replay) classify(res *Result, scenario string, found []Mismatch) {
	for _, m := range found {
		if t := tolerated(r.Tolerances, scenario, r.Cookies.CookieMode(), m); t != nil {
			res.Tolerated = append(res.Tolerated, ToleratedMismatch{Mismatch: m, Reason: t.Reason})
		} else {
			res.Mismatches = append(res.Mismatches, m)
		}
	}
}

// RunHooks runs hooks in order (the recorder runs the plan's hooks too).
func RunHooks(ctx context.Context, db *DB, hooks []Hook) error {
	for _, h := range hooks {
		if err := h.Run(ctx, db); err != nil {
			return fmt.Errorf("setup hook (%s): %w", h.Why, err)
		}
	}
	return nil
}

// endpointOf is a recorded path below the context path, without query.
func (r *Replay) endpointOf(path string) string {
	p, _, _ := strings.Cut(path, "?")
	return strings.TrimPrefix(p, r.Gen.ContextPath)
}

// exchange sends one recorded request and reads the answer and the
// db_after rows.
func (r *Replay) exchange(ctx context.Context, endpoint string, ex Exchange, norm normalizer, frame timeFrame) (*Observed, error) {
	var logBefore int64
	if _, ok := ex.DBAfter["newest_log"]; ok {
		var err error
		if logBefore, err = r.DB.MaxLogID(ctx); err != nil {
			return nil, err
		}
	}
	req, err := r.request(ctx, endpoint, ex.Request, norm, frame)
	if err != nil {
		return nil, err
	}
	resp, err := r.Client.Do(req)
	if err != nil {
		return nil, fmt.Errorf("%s %s: %w", req.Method, req.URL, err)
	}
	body, err := io.ReadAll(resp.Body)
	resp.Body.Close()
	if err != nil {
		return nil, fmt.Errorf("read answer of %s %s: %w", req.Method, req.URL, err)
	}
	obs := &Observed{Status: resp.StatusCode, Header: resp.Header, Body: body}
	if len(ex.DBAfter) > 0 {
		if obs.DB, err = r.DB.after(ctx, ex, body, logBefore); err != nil {
			return nil, err
		}
	}
	return obs, nil
}

// request builds the request to send for a recorded one: the same method,
// path, headers and body, with our executor's address, dates moved to the
// replay's time and the login cookie mapped for the admin under test.
func (r *Replay) request(ctx context.Context, endpoint string, rec Request, norm normalizer, frame timeFrame) (*http.Request, error) {
	body := norm.request(rec.Body)
	if fields, ok := datedFields[endpoint]; ok && rec.Body != "" {
		shift := frame.replay.Sub(frame.recorded)
		parts := make([]string, 0, len(rec.Form))
		for _, kv := range rec.Form {
			v := kv[1]
			if fields[kv[0]] {
				v = shiftDates(v, shift, r.DB.loc)
			}
			parts = append(parts, url.QueryEscape(kv[0])+"="+url.QueryEscape(v))
		}
		body = strings.Join(parts, "&")
	}
	var reader io.Reader
	if body != "" || rec.Method == http.MethodPost {
		reader = strings.NewReader(body)
	}
	req, err := http.NewRequestWithContext(ctx, rec.Method, r.BaseURL+norm.request(rec.Path), reader)
	if err != nil {
		return nil, fmt.Errorf("build request: %w", err)
	}
	for _, h := range rec.Headers {
		switch strings.ToLower(h[0]) {
		case "host", "content-length", "cookie":
		default:
			req.Header.Add(h[0], h[1])
		}
	}
	if recorded, ok := Header(rec.Headers, "Cookie"); ok {
		v, err := r.Cookies.Header(ctx, recorded)
		if err != nil {
			return nil, err
		}
		req.Header.Set("Cookie", v)
	}
	return req, nil
}

// compareExecutorCalls compares what the fake executor received during a
// scenario with what the recorder's received, in order.
func (c *checker) compareExecutorCalls(want []ExecutorCall, got []ReceivedCall) {
	if len(want) != len(got) {
		paths := func(n int, f func(int) string) []string {
			out := make([]string, n)
			for i := range out {
				out[i] = f(i)
			}
			return out
		}
		c.add("executor_calls (count)", paths(len(want), func(i int) string { return want[i].Path }),
			paths(len(got), func(i int) string { return got[i].Path }))
		return
	}
	for i := range want {
		field := fmt.Sprintf("executor_calls[%d]", i)
		if want[i].Path != got[i].Path {
			c.add(field+".path", want[i].Path, got[i].Path)
			continue
		}
		w, err := decodeJSON(want[i].BodyJSON)
		if err != nil {
			c.add(field, "recorded JSON ("+err.Error()+")", string(want[i].BodyJSON))
			continue
		}
		g, err := decodeJSON(got[i].Body)
		if err != nil {
			c.add(field, w, "not JSON: "+string(got[i].Body))
			continue
		}
		c.compareValue(field, w, g, exact)
	}
}

// jsonContent is the payload of a JSON answer as text: "content" of a
// 2.4.2 ReturnT, "data" of a 3.4.2 Response (the new id of /jobinfo/add
// and /jobinfo/insert).
func jsonContent(body []byte) string {
	var v struct {
		Content json.RawMessage `json:"content"`
		Data    json.RawMessage `json:"data"`
	}
	if json.Unmarshal(body, &v) != nil {
		return ""
	}
	raw := v.Content
	if len(raw) == 0 {
		raw = v.Data
	}
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return s
	}
	return string(raw)
}
