package openapi

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"time"

	"github.com/xxl-admin-go/xxl-admin-go/compat/schema"
	"github.com/xxl-admin-go/xxl-admin-go/core/jobs"
	"github.com/xxl-admin-go/xxl-admin-go/core/transfer"
)

// Every answer is JSON. A success is {"data": …} (lists add "page"); a
// failure is {"code": …, "message": …} with the HTTP status saying what
// kind: 400 invalid input (the console's validation message), 401 no or
// wrong token, 403 permission, 404 unknown id, 405, 409 a conflict with
// the stored state, 413 body too large, 415 not JSON, 502 the executor
// failed, 500 an internal error (details only in the admin's log).

// envelope is a success.
type envelope struct {
	Data any   `json:"data"`
	Page *page `json:"page,omitempty"`
}

// page is a list's window and the total it was cut from. The job and log
// lists write TotalExact: false when counting their rows would have taken
// longer than the count's bound and Total is a lower bound (there are at
// least that many); lists that always count exactly leave it out.
type page struct {
	Offset     int   `json:"offset"`
	Limit      int   `json:"limit"`
	Total      int   `json:"total"`
	TotalExact *bool `json:"totalExact,omitempty"`
}

// setTotal sets a bounded list's total.
func (p *page) setTotal(t schema.Total) {
	p.Total, p.TotalExact = t.N, &t.Exact
}

// apiError is a failure with its status and code.
type apiError struct {
	status  int
	code    string
	message string
}

func (e *apiError) Error() string { return e.message }

func invalid(format string, args ...any) error {
	return &apiError{http.StatusBadRequest, "invalid", fmt.Sprintf(format, args...)}
}

func notFound(format string, args ...any) error {
	return &apiError{http.StatusNotFound, "not_found", fmt.Sprintf(format, args...)}
}

func conflict(format string, args ...any) error {
	return &apiError{http.StatusConflict, "conflict", fmt.Sprintf(format, args...)}
}

func encode(v any) []byte {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return []byte(`{"code":"internal","message":"encode answer failed"}` + "\n")
	}
	return b.Bytes()
}

func write(w http.ResponseWriter, status int, body []byte) {
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Cache-Control", "no-store")
	w.WriteHeader(status)
	_, _ = w.Write(body)
}

func writeData(w http.ResponseWriter, status int, data any, p *page) {
	write(w, status, encode(envelope{Data: data, Page: p}))
}

func writeError(w http.ResponseWriter, e *apiError) {
	write(w, e.status, encode(struct {
		Code    string `json:"code"`
		Message string `json:"message"`
	}{e.code, e.message}))
}

// classify turns a service error into the API's failure; ok is false for
// an internal error.
func classify(err error, access jobs.Access) (*apiError, bool) {
	var (
		api      *apiError
		refusal  *jobs.Refusal
		item     *transfer.ItemError
		executor *jobs.ExecutorError
		tooLarge *http.MaxBytesError
	)
	status := http.StatusBadRequest
	switch {
	case errors.As(err, &api):
		return api, true
	case errors.As(err, &tooLarge):
		return &apiError{http.StatusRequestEntityTooLarge, "too_large", fmt.Sprintf("request body larger than %d bytes", tooLarge.Limit)}, true
	case errors.As(err, &executor):
		msg := "the executor did not answer"
		if executor.Msg != nil {
			msg = "executor: " + *executor.Msg
		}
		return &apiError{http.StatusBadGateway, "executor_failed", msg}, true
	case errors.Is(err, jobs.ErrPermission):
		return &apiError{http.StatusForbidden, "forbidden",
			fmt.Sprintf("permission limit: user %q may not use this executor group", access.User)}, true
	case errors.As(err, &refusal), errors.As(err, &item):
		if errors.Is(err, jobs.ErrNotFound) {
			status = http.StatusNotFound
		} else if errors.Is(err, jobs.ErrConflict) {
			status = http.StatusConflict
		}
		return &apiError{status, codeOf(status), err.Error()}, true
	case errors.Is(err, schema.ErrStatementTimeout):
		return &apiError{http.StatusServiceUnavailable, "timeout", statementTimeoutText}, true
	case errors.Is(err, jobs.ErrNotFound), errors.Is(err, jobs.ErrNoRow), errors.Is(err, transfer.ErrNoGroup):
		return &apiError{http.StatusNotFound, "not_found", "not found"}, true
	}
	return &apiError{http.StatusInternalServerError, "internal", "internal error: see the admin's log"}, false
}

// statementTimeoutText answers a list whose statement ran past its time
// bound (Config.ListBounds): the database stopped it.
const statementTimeoutText = "the database did not answer within the time bound of this list: narrow the filter (one job or group, a time range) or page less deep"

func codeOf(status int) string {
	switch status {
	case http.StatusNotFound:
		return "not_found"
	case http.StatusConflict:
		return "conflict"
	}
	return "invalid"
}

// rfc3339 writes a time in the admin's zone; nil for none.
func (a *API) rfc3339(t *time.Time) *string {
	if t == nil {
		return nil
	}
	s := t.In(a.cfg.Loc).Format(time.RFC3339)
	return &s
}

// epochTime writes an epoch-millisecond trigger time; 0 is none.
func (a *API) epochTime(ms int64) *string {
	if ms == 0 {
		return nil
	}
	t := time.UnixMilli(ms)
	return a.rfc3339(&t)
}
