package api

import (
	"bytes"
	"context"
	"crypto/tls"
	"errors"
	"fmt"
	"net"
	"net/http"
	"strconv"
	"strings"
	"time"
)

// Defaults of [ClientConfig].
const (
	DefaultClientTimeout       = 3 * time.Second
	DefaultCallLimit           = 10 * time.Second
	DefaultMaxIdleConnsPerHost = 64
	DefaultMaxResponseBytes    = 64 << 10
	DefaultMaxLogResponseBytes = 16 << 20
)

// ClientConfig configures [NewClient].
type ClientConfig struct {
	// AccessToken is sent in XXL-JOB-ACCESS-TOKEN when it is not blank
	// (String.trim() semantics, §3.1).
	AccessToken string
	// Timeout is both the connect timeout and the read timeout (default
	// 3 s, fixed in Java 2.4.x, §3.1). Like Java's socket read timeout it
	// bounds each wait for data — the response headers and every read of
	// the body — not the whole exchange; CallLimit bounds that.
	Timeout time.Duration
	// CallLimit bounds a whole call — connect, request, headers and body
	// (default DefaultCallLimit). Java has none: an executor that answers
	// one byte every 2 s holds a Java trigger thread forever, because its
	// read timeout restarts with every byte.
	CallLimit time.Duration
	// MaxIdleConnsPerHost is the keep-alive pool per executor (default
	// DefaultMaxIdleConnsPerHost): a busy executor receives many
	// concurrent triggers.
	MaxIdleConnsPerHost int
	// MaxResponseBytes caps the answer of /run, /beat, /idleBeat and
	// /kill (default DefaultMaxResponseBytes): a ReturnT with a short msg.
	// Java has no cap; a 50 MB answer cost it (and us, before the cap)
	// about 140 MB per trigger in flight.
	MaxResponseBytes int64
	// MaxLogResponseBytes caps the answer of /log, a page of an execution
	// log (default DefaultMaxLogResponseBytes).
	MaxLogResponseBytes int64
	// VerifyTLS turns on certificate and host-name verification for https
	// executor addresses. Off by default because the Java admin accepts
	// every certificate (§3.1): executors behind self-signed certificates
	// work with it, and a drop-in replacement must not break them.
	VerifyTLS bool
}

// Client is the admin-side executor client (ExecutorBizClient, §3). One
// Client serves every executor address and shares one connection pool;
// it is safe for concurrent use. Calls never return a Go error: like Java,
// every failure is a code-500 ReturnT whose msg is one of the texts of
// §3.1, because that text is what ends up in trigger_msg or the console.
type Client struct {
	token    string
	timeout  time.Duration
	limit    time.Duration
	maxBody  int64
	maxLog   int64
	http     *http.Client
	idleConn func()
	direct   *direct
	dests    destinations
}

// NewClient builds a Client; zero config values take the defaults.
func NewClient(cfg ClientConfig) *Client {
	if cfg.Timeout <= 0 {
		cfg.Timeout = DefaultClientTimeout
	}
	if cfg.MaxIdleConnsPerHost <= 0 {
		cfg.MaxIdleConnsPerHost = DefaultMaxIdleConnsPerHost
	}
	if cfg.CallLimit <= 0 {
		cfg.CallLimit = DefaultCallLimit
	}
	if cfg.MaxResponseBytes <= 0 {
		cfg.MaxResponseBytes = DefaultMaxResponseBytes
	}
	if cfg.MaxLogResponseBytes <= 0 {
		cfg.MaxLogResponseBytes = DefaultMaxLogResponseBytes
	}
	dialer := &net.Dialer{Timeout: cfg.Timeout, KeepAlive: 30 * time.Second}
	transport := &http.Transport{
		// Java's HttpURLConnection ignores HTTP_PROXY & co.; so do we.
		Proxy:       nil,
		DialContext: dialer.DialContext,
		TLSClientConfig: &tls.Config{
			InsecureSkipVerify: !cfg.VerifyTLS, // see ClientConfig.VerifyTLS
			MinVersion:         tls.VersionTLS12,
		},
		TLSHandshakeTimeout:   cfg.Timeout,
		ResponseHeaderTimeout: cfg.Timeout,
		MaxIdleConnsPerHost:   cfg.MaxIdleConnsPerHost,
		// The Java executor closes connections idle for 90 s; dropping
		// ours earlier avoids reusing one it is closing.
		IdleConnTimeout:    60 * time.Second,
		DisableCompression: true, // executors never compress
	}
	return &Client{
		token:   cfg.AccessToken,
		timeout: cfg.Timeout,
		limit:   cfg.CallLimit,
		maxBody: cfg.MaxResponseBytes,
		maxLog:  cfg.MaxLogResponseBytes,
		http: &http.Client{
			Transport: transport,
			// A redirect is reported as a bad status instead of being
			// followed: no executor redirects, and following one would
			// send the token elsewhere.
			CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse },
		},
		idleConn: transport.CloseIdleConnections,
		direct:   newDirect(dialer, cfg.MaxIdleConnsPerHost, transport.IdleConnTimeout),
		dests:    destinations{m: map[destKey]destination{}},
	}
}

// CloseIdleConnections closes pooled keep-alive connections (on shutdown).
func (c *Client) CloseIdleConnections() {
	c.idleConn()
	c.direct.closeIdle()
}

// Run sends a trigger (§3.4). Its body is encoded straight into the
// request's pooled buffer (TriggerParam.appendGson).
func (c *Client) Run(ctx context.Context, address string, p TriggerParam) ReturnT[string] {
	r := c.outgoing(address, "run")
	r.buf = p.appendGson(r.buf)
	return call[string](ctx, c, r, nil, c.maxBody)
}

// Beat probes an executor for FAILOVER (§3.2); the body is the JSON string
// "" as the Java client sends it.
func (c *Client) Beat(ctx context.Context, address string) ReturnT[string] {
	return callJSON[string](ctx, c, address, "beat", "", c.maxBody)
}

// IdleBeat probes a job thread for BUSYOVER (§3.3).
func (c *Client) IdleBeat(ctx context.Context, address string, p IdleBeatParam) ReturnT[string] {
	return callJSON[string](ctx, c, address, "idleBeat", p, c.maxBody)
}

// Kill stops a job thread (§3.5).
func (c *Client) Kill(ctx context.Context, address string, p KillParam) ReturnT[string] {
	return callJSON[string](ctx, c, address, "kill", p, c.maxBody)
}

// Log reads a page of an execution log (§3.6).
func (c *Client) Log(ctx context.Context, address string, p LogParam) ReturnT[LogResult] {
	return callJSON[LogResult](ctx, c, address, "log", p, c.maxLog)
}

// ExecutorURL joins an executor address and a path word as Java does
// (§3.1): trim, add "/" unless present, append the word.
func ExecutorURL(address, word string) string {
	a := javaTrim(address)
	if !strings.HasSuffix(a, "/") {
		a += "/"
	}
	return a + word
}

// callJSON is call with a body encoded by reflection (gsonReflect).
func callJSON[T any](ctx context.Context, c *Client, address, word string, param any, maxBody int64) ReturnT[T] {
	r := c.outgoing(address, word)
	body, err := gsonReflect(param)
	r.buf = append(r.buf, body...)
	return call[T](ctx, c, r, err, maxBody)
}

// call performs one POST of r (its body encoded, or encodeErr) and
// interprets the answer (§3.1), reading at most maxBody bytes of it within
// the call limit. It releases r.
func call[T any](ctx context.Context, c *Client, r *outgoing, encodeErr error, maxBody int64) ReturnT[T] {
	defer release(r)
	url := r.dest.url
	if r.dest.blank {
		// Java has no client for a blank address and the caller fails
		// with a null-pointer error (§3.8); report it plainly instead.
		return remotingError[T]("executor address is blank", url)
	}
	if encodeErr != nil {
		return remotingError[T]("encode request: "+encodeErr.Error(), url)
	}
	var status int
	var answer []byte
	var failure string
	if r.dest.direct {
		status, answer, failure = c.direct.exchange(ctx, r.dest.target, r.buf, r.start, c.timeout, c.limit, maxBody)
	} else {
		// Not the pooled buffer: net/http may still hold the body when Do
		// has returned.
		status, answer, failure = c.exchangeHTTP(ctx, url, bytes.Clone(r.buf[r.start:]), maxBody)
	}
	switch {
	case failure != "":
		return remotingError[T](failure, url)
	case status != http.StatusOK:
		return Fail[T]("xxl-job remoting fail, StatusCode(" + strconv.Itoa(status) + ") invalid. for url : " + url)
	}
	ret, err := DecodeReturnT[T](answer)
	if err != nil {
		return Fail[T]("xxl-job remoting (url=" + url + ") response content invalid(" + string(answer) + ").")
	}
	return ret
}

// exchangeHTTP is one POST through net/http (https addresses and anything
// the direct path does not take): the status, the answer of a 200, or the
// transport failure text.
func (c *Client) exchangeHTTP(ctx context.Context, url string, body []byte, maxBody int64) (status int, answer []byte, failure string) {
	ctx, cancel := context.WithTimeout(ctx, c.limit)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, url, bytes.NewReader(body))
	if err != nil {
		return 0, nil, err.Error()
	}
	req.Header["Content-Type"] = []string{"application/json;charset=UTF-8"}
	req.Header["Accept-Charset"] = []string{"application/json;charset=UTF-8"}
	if !isTrimBlank(c.token) {
		// Written in the protocol's own case (executors match it
		// case-insensitively anyway).
		req.Header[TokenHeader] = []string{c.token}
	}
	resp, err := c.http.Do(req)
	if err != nil {
		if errors.Is(ctx.Err(), context.DeadlineExceeded) {
			return 0, nil, c.overLimit()
		}
		return 0, nil, transportErrorText(err, false)
	}
	defer func() { _ = resp.Body.Close() }()
	if resp.StatusCode != http.StatusOK {
		discard(resp.Body)
		return resp.StatusCode, nil, ""
	}
	answer, failure = readAnswer(resp, c.timeout, cancel, maxBody)
	if failure != "" && errors.Is(ctx.Err(), context.DeadlineExceeded) {
		return 0, nil, c.overLimit()
	}
	return resp.StatusCode, answer, failure
}

// overLimit is the failure text of a call that outlasted the call limit.
func (c *Client) overLimit() string {
	return "Read timed out (no complete answer within " + c.limit.String() + ")"
}

func remotingError[T any](msg, url string) ReturnT[T] {
	return Fail[T](fmt.Sprintf("xxl-job remoting error(%s), for url : %s", msg, url))
}
