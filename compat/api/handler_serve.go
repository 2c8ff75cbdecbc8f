package api

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/rs/zerolog"

	"github.com/xxl-admin-go/xxl-admin-go/internal/loglimit"
)

// reply is a serve function's failure: msg ("" for success) and whether
// Java answers it from its exception resolver (an undecodable body), which
// sends the charset content type.
type reply struct {
	msg       string
	exception bool
}

func failed(msg string) reply { return reply{msg: msg} }

// undecodable is the answer to a body Java's Gson cannot read (Java: the
// exception's text through the resolver; ours: a plain message).
func undecodable(err error) reply {
	return reply{msg: "invalid request body: " + err.Error(), exception: true}
}

// registry serves registry and registryRemove.
func (h *handler) registry(store func(context.Context, RegistryParam) error) func(context.Context, []byte, zerolog.Logger) reply {
	return func(ctx context.Context, body []byte, log zerolog.Logger) reply {
		p, err := DecodeRegistryParam(body)
		if err != nil {
			log.Warn().Err(err).Msg("api: undecodable registry body")
			return undecodable(err)
		}
		if !p.Valid() {
			return failed(msgIllegalArg)
		}
		if tooLong := p.TooLong(); tooLong != "" {
			return failed(msgIllegalArg + " " + tooLong)
		}
		if err := callWithin(ctx, h.cfg.CallTimeout, func(ctx context.Context) error { return store(ctx, p) }); err != nil {
			log.Error().Err(err).Str("key", loglimit.Cut(p.RegistryKey)).Str("value", loglimit.Cut(p.RegistryValue)).
				Msg("api: registry not stored")
			return failed(failureMsg("registry", err, h.cfg.CallTimeout))
		}
		return reply{}
	}
}

// callback serves /api/callback. An empty list (empty body, null, [] or
// only null elements) succeeds without calling Callbacks, as Java answers
// success for it (§2.2 notes).
func (h *handler) callback(ctx context.Context, body []byte, log zerolog.Logger) reply {
	items, err := DecodeCallbackParams(body)
	if err != nil {
		log.Warn().Err(err).Msg("api: undecodable callback body")
		return undecodable(err)
	}
	if len(items) == 0 {
		return reply{}
	}
	select {
	case h.callbacks <- struct{}{}:
	default:
		h.refused(log, len(items))
		return failed(msgCallbackBusy)
	}
	work := func(ctx context.Context) error {
		defer func() { <-h.callbacks }() // when the work ends, not the answer
		return h.cb.Callback(ctx, items)
	}
	if err := callWithin(ctx, h.cfg.CallTimeout, work); err != nil {
		log.Error().Err(err).Int("items", len(items)).Msg("api: callback not stored")
		return failed(failureMsg("callback", err, h.cfg.CallTimeout))
	}
	return reply{}
}

// refused counts a callback POST refused as busy and logs it, at most
// once a minute (an overloaded admin refuses many).
func (h *handler) refused(log zerolog.Logger, items int) {
	if h.cfg.Refused != nil {
		h.cfg.Refused.CallbackRefused()
	}
	if ok, suppressed := h.repeats.Allow("callback-busy"); ok {
		log.Warn().Int("items", items).Int("in_progress", cap(h.callbacks)).Int("suppressed", suppressed).
			Msg("api: callback refused, too many in progress; the executor sends it again later")
	}
}

// failureMsg tells the executor why it must retry without exposing
// internal error texts (they are logged instead).
func failureMsg(what string, err error, timeout time.Duration) string {
	if errors.Is(err, context.DeadlineExceeded) {
		return fmt.Sprintf("%s not processed within %s, please retry.", what, timeout)
	}
	return what + " not processed (internal error), please retry."
}
