package api

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/rs/zerolog"

	"github.com/xxl-admin-go/xxl-admin-go/internal/loglimit"
)

// registry serves registry and registryRemove; it returns the failure msg
// or "" for success.
func (h *handler) registry(store func(context.Context, RegistryParam) error) func(context.Context, []byte, zerolog.Logger) string {
	return func(ctx context.Context, body []byte, log zerolog.Logger) string {
		p, err := DecodeRegistryParam(body)
		if err != nil {
			log.Warn().Err(err).Msg("api: undecodable registry body")
			return "invalid request body: " + err.Error()
		}
		if !p.Valid() {
			return msgIllegalArg
		}
		if tooLong := p.TooLong(); tooLong != "" {
			return msgIllegalArg + " " + tooLong
		}
		if err := callWithin(ctx, h.cfg.CallTimeout, func(ctx context.Context) error { return store(ctx, p) }); err != nil {
			log.Error().Err(err).Str("key", loglimit.Cut(p.RegistryKey)).Str("value", loglimit.Cut(p.RegistryValue)).
				Msg("api: registry not stored")
			return failureMsg("registry", err, h.cfg.CallTimeout)
		}
		return ""
	}
}

// callback serves /api/callback. An empty list (empty body, null, [] or
// only null elements) succeeds without calling Callbacks, as Java answers
// success for it (§2.2 notes).
func (h *handler) callback(ctx context.Context, body []byte, log zerolog.Logger) string {
	items, err := DecodeCallbackParams(body)
	if err != nil {
		log.Warn().Err(err).Msg("api: undecodable callback body")
		return "invalid request body: " + err.Error()
	}
	if len(items) == 0 {
		return ""
	}
	if err := callWithin(ctx, h.cfg.CallTimeout, func(ctx context.Context) error { return h.cb.Callback(ctx, items) }); err != nil {
		log.Error().Err(err).Int("items", len(items)).Msg("api: callback not stored")
		return failureMsg("callback", err, h.cfg.CallTimeout)
	}
	return ""
}

// failureMsg tells the executor why it must retry without exposing
// internal error texts (they are logged instead).
func failureMsg(what string, err error, timeout time.Duration) string {
	if errors.Is(err, context.DeadlineExceeded) {
		return fmt.Sprintf("%s not processed within %s, please retry.", what, timeout)
	}
	return what + " not processed (internal error), please retry."
}
