package api

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strings"
	"time"

	"github.com/rs/zerolog"

	"github.com/xxl-admin-go/xxl-admin-go/internal/loglimit"
)

// Registry stores executor registrations (§2.4). Implementations should be
// a fast upsert / delete; the handler waits for them (see [NewHandler]).
type Registry interface {
	Registry(ctx context.Context, p RegistryParam) error
	RegistryRemove(ctx context.Context, p RegistryParam) error
}

// Callbacks processes execution results (§2.5) — the whole POST at once.
type Callbacks interface {
	Callback(ctx context.Context, items []HandleCallbackParam) error
}

// Defaults of [HandlerConfig].
const (
	DefaultMaxBodyBytes = 10 << 20
	DefaultCallTimeout  = 2 * time.Second
	// DefaultMaxCallbacks is how many /api/callback POSTs an admin works
	// on at once, counting those still finishing after their answer.
	DefaultMaxCallbacks = 128
)

// Refusals sees the /api/callback POSTs refused because MaxCallbacks were
// in progress (metrics).
type Refusals interface {
	CallbackRefused()
}

// HandlerConfig configures [NewHandler].
type HandlerConfig struct {
	// AccessToken is xxl.job.accessToken; empty or blank disables the
	// check (§2.2 step 3).
	AccessToken string
	// MaxBodyBytes caps a request body (default DefaultMaxBodyBytes). Java
	// has no cap; a larger body is refused with code 500 before anything
	// reaches Registry or Callbacks.
	MaxBodyBytes int64
	// CallTimeout bounds each Registry / Callbacks call (default
	// DefaultCallTimeout). It must stay well under the executor's 3 s read
	// timeout so that the executor sees our failure instead of timing out
	// and re-sending a callback that was in fact stored.
	CallTimeout time.Duration
	// MaxCallbacks bounds the /api/callback POSTs in progress (default
	// DefaultMaxCallbacks), counting one answered at CallTimeout while its
	// work still runs. A POST beyond it is refused at once with code 500
	// (msgCallbackBusy), before any work: the executor keeps the batch and
	// sends it again later (§2.5: its retry file), instead of the retries
	// of an overloaded admin piling onto work it has not finished.
	MaxCallbacks int
	// Refused, when set, counts the POSTs refused by MaxCallbacks.
	Refused Refusals
	// NotRouted serves paths that Java's /api/{uri} mapping does not match
	// (e.g. /api/a/b, /api/): Spring's error page behind the console login
	// (§2.1). Default http.NotFound.
	NotRouted http.Handler
	// Envelope is the answers' shape: ReturnTEnvelope (2.x, the zero
	// value) or ResponseEnvelope (3.x). With ResponseEnvelope the checks
	// also run in the 3.4.2 admin's order (a blank body is refused before
	// the token) and its texts.
	Envelope Envelope
	// Registry and Callbacks store what executors send.
	Registry  Registry
	Callbacks Callbacks
	Log       zerolog.Logger
}

// Protocol messages of §2.2; they are part of the wire contract.
const (
	msgMethod     = "invalid request, HttpMethod not support."
	msgURIEmpty   = "invalid request, uri-mapping empty."
	msgToken      = "The access token is wrong."
	msgIllegalArg = "Illegal Argument."
	msgBodyEmpty  = "invalid request, requestBody empty." // 3.x (OpenApiController)
	// msgCallbackBusy is ours (Java queues without bound): any answer
	// other than code 200 makes the executor keep the batch and retry.
	msgCallbackBusy = "callback refused: the admin is busy with other callbacks, please retry later."
	// msgInvokeError prefixes a 3.x answer to a body that cannot be read
	// (3.4.2 catches the decoder's exception in the controller).
	msgInvokeError  = "openapi invoke error: "
	contentTypeJSON = "application/json" // Spring's Jackson converter (executor-protocol.md §2 table)
	// contentTypeJSONException is what Java's exception resolver sends
	// (executor-protocol.md §2.2 notes): ours for the bodies Java throws on.
	contentTypeJSONException = "application/json;charset=utf-8"
)

// NewHandler serves the executor-facing API at the relative paths
// /api/{uri}; mount it under the context path with http.StripPrefix (a
// path without the leading slash, "api/{uri}", is accepted too).
//
// Checks run in Java's order — method, blank uri, token, uri name, then
// the body — and every routed answer is HTTP 200 with a ReturnT (§2.2).
// With ResponseEnvelope they run in 3.4.2's: method, blank uri, blank
// body, token, then the uri name.
//
// Unlike Java, which acknowledges first and stores asynchronously (§2.4,
// §2.5), the handler calls reg / cb synchronously under CallTimeout and
// answers success only once they returned nil; an error or timeout answers
// code 500, which makes the executor keep the data and retry (for
// callbacks: its retry file, §2.5). So a success is durable. reg and cb
// must not be nil.
func NewHandler(cfg HandlerConfig) http.Handler {
	reg, cb, log := cfg.Registry, cfg.Callbacks, cfg.Log
	if reg == nil || cb == nil {
		panic("api.NewHandler: Registry and Callbacks are required")
	}
	if cfg.MaxBodyBytes <= 0 {
		cfg.MaxBodyBytes = DefaultMaxBodyBytes
	}
	if cfg.CallTimeout <= 0 {
		cfg.CallTimeout = DefaultCallTimeout
	}
	if cfg.NotRouted == nil {
		cfg.NotRouted = http.NotFoundHandler()
	}
	if cfg.MaxCallbacks <= 0 {
		cfg.MaxCallbacks = DefaultMaxCallbacks
	}
	return &handler{cfg: cfg, reg: reg, cb: cb, log: log, repeats: loglimit.NewRepeats(0, nil),
		callbacks: make(chan struct{}, cfg.MaxCallbacks)}
}

type handler struct {
	cfg     HandlerConfig
	reg     Registry
	cb      Callbacks
	log     zerolog.Logger
	repeats *loglimit.Repeats // warnings any client can provoke
	// callbacks holds a token per /api/callback POST in progress (its
	// work, which may outlive its answer); full: refuse.
	callbacks chan struct{}
}

func (h *handler) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	uri, ok := apiURI(r.URL, h.cfg.Envelope != ResponseEnvelope)
	if !ok {
		h.cfg.NotRouted.ServeHTTP(w, r)
		return
	}
	env := h.cfg.Envelope
	log := h.log.With().Str("uri", loglimit.Cut(uri)).Str("remote", r.RemoteAddr).Logger()
	switch {
	case !strings.EqualFold(r.Method, http.MethodPost):
		h.refuse(w, r, msgMethod)
		return
	case isTrimBlank(uri):
		h.refuse(w, r, msgURIEmpty)
		return
	case env == ResponseEnvelope && r.ContentLength == 0:
		// 3.4.2 refuses a blank body before it looks at the token. Only
		// an announced empty body is judged here, unread: a body must not
		// be read before the token is checked (a wrong-token client could
		// drip it forever), so a body of blanks with a wrong token gets
		// the token's answer.
		h.refuse(w, r, msgBodyEmpty)
		return
	}
	header, present := tokenHeader(r.Header)
	if !TokenAccepted(h.cfg.AccessToken, header, present) {
		if ok, n := h.repeats.Allow("token"); ok {
			log.Warn().Bool("token_sent", present).Int("suppressed", n).
				Msg("api: access token rejected (repeats are summarised once a minute)")
		}
		h.refuse(w, r, msgToken)
		return
	}
	var serve func(ctx context.Context, body []byte, log zerolog.Logger) reply
	switch uri {
	case "callback":
		serve = h.callback
	case "registry":
		serve = h.registry(h.reg.Registry)
	case "registryRemove":
		serve = h.registry(h.reg.RegistryRemove)
	}
	unknown := "invalid request, uri-mapping(" + uri + ") not found."
	if serve == nil && env != ResponseEnvelope {
		h.refuse(w, r, unknown)
		return
	}
	// 3.4.2 judges a body of blanks before the uri's name: the caller has
	// shown the token, so its body is read even for an unknown uri.
	body, msg := h.readBody(w, r)
	if msg == "" && env == ResponseEnvelope && isTrimBlank(string(body)) {
		msg = msgBodyEmpty
	}
	if msg != "" {
		if ok, n := h.repeats.Allow("body"); ok {
			log.Warn().Str("reason", msg).Int("suppressed", n).Msg("api: request body refused")
		}
		h.refuse(w, r, msg)
		return
	}
	if serve == nil {
		h.refuse(w, r, unknown)
		return
	}
	if rep := serve(r.Context(), body, log); rep.msg != "" {
		switch {
		case rep.exception && env == ResponseEnvelope:
			rep.msg = msgInvokeError + rep.msg
		case rep.exception:
			w.Header().Set("Content-Type", contentTypeJSONException)
		}
		env.writeFail(w, rep.msg)
		return
	}
	writeJSON(w, env.success())
}

// refuse answers a request whose body is left unread, and closes the
// connection after the answer without reading the rest: net/http would
// otherwise drain up to 256 KiB of it, waiting as long as the client wants
// — 50 clients announcing a body they never send held their connections
// (and file descriptors) forever.
func (h *handler) refuse(w http.ResponseWriter, r *http.Request, msg string) {
	if r.ContentLength != 0 {
		w.Header().Set("Connection", "close")
		// A deadline in the past makes the drain fail at once; the answer
		// is already buffered and is written before the body is closed.
		_ = http.NewResponseController(w).SetReadDeadline(time.Now())
	}
	h.cfg.Envelope.writeFail(w, msg)
}

// tokenHeader returns the first value of the token header, as the
// servlet's getHeader does.
func tokenHeader(h http.Header) (string, bool) {
	v := h.Values(TokenHeader)
	if len(v) == 0 {
		return "", false
	}
	return v[0], true
}

// readBody reads the whole body under the size cap; a non-empty msg is the
// failure to answer. A body announced too large is refused unread, and
// MaxBytesReader makes the server close such a connection.
func (h *handler) readBody(w http.ResponseWriter, r *http.Request) (body []byte, msg string) {
	limit := h.cfg.MaxBodyBytes
	tooBigMsg := fmt.Sprintf("invalid request, request body larger than %d bytes.", limit)
	if r.ContentLength > limit {
		return nil, tooBigMsg
	}
	body, err := io.ReadAll(http.MaxBytesReader(w, r.Body, limit))
	var tooBig *http.MaxBytesError
	if errors.As(err, &tooBig) {
		return nil, tooBigMsg
	}
	if err != nil {
		return nil, "invalid request body: " + err.Error()
	}
	return body, ""
}
