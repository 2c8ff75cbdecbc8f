package openapi

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"slices"
	"strings"

	"github.com/getkin/kin-openapi/openapi3"
	"github.com/getkin/kin-openapi/openapi3filter"
	"github.com/getkin/kin-openapi/routers"
	"github.com/getkin/kin-openapi/routers/gorillamux"
)

// contract is the served document as kin-openapi reads it. Every exchange
// of the job-API tests goes through check (env.request), so an answer or a
// request the document does not describe fails the test that made it.
type contract struct {
	doc    *openapi3.T
	router routers.Router
}

// loadContract loads and validates a served document (the JSON of
// GET /openapi.json): the OpenAPI 3.0 rules, every $ref, and every example
// against its schema.
func loadContract(ctx context.Context, served []byte) (*contract, error) {
	loader := openapi3.NewLoader()
	doc, err := loader.LoadFromData(served)
	if err != nil {
		return nil, fmt.Errorf("load the document: %w", err)
	}
	if err := doc.Validate(ctx, openapi3.EnableMultiError(), openapi3.EnableSchemaFormatValidation(),
		openapi3.EnableSchemaPatternValidation(), openapi3.EnableSchemaDefaultsValidation(),
		openapi3.EnableExamplesValidation()); err != nil {
		return nil, fmt.Errorf("the document is not valid OpenAPI: %w", err)
	}
	router, err := gorillamux.NewRouter(doc)
	if err != nil {
		return nil, fmt.Errorf("route the document: %w", err)
	}
	return &contract{doc: doc, router: router}, nil
}

// exchange is one request the tests sent and the answer they got.
type exchange struct {
	method, path string // path: from the context path on, with the query
	header       http.Header
	body         string
	status       int
	respHeader   http.Header
	respBody     string
}

// options: every answer's status must be documented; a request's token is
// checked for its form (Authorization: Bearer <token>) — whether it is the
// right one is the API's business, and a 401 the document's.
func (c *contract) options() *openapi3filter.Options {
	return &openapi3filter.Options{
		IncludeResponseStatus: true,
		// the failing member and the reason; not the whole schema
		SchemaValidationOptions: []openapi3.SchemaValidationOption{openapi3.DisableSchemaErrorDetails()},
		AuthenticationFunc: func(_ context.Context, in *openapi3filter.AuthenticationInput) error {
			scheme, token, _ := strings.Cut(in.RequestValidationInput.Request.Header.Get("Authorization"), " ")
			if !strings.EqualFold(scheme, "Bearer") || token == "" {
				return in.NewError(errors.New("no bearer token"))
			}
			return nil
		},
	}
}

// malformed are the API's messages for a request whose form is wrong — a
// body or parameter the document's schemas describe. The API answering one
// of them to a request the document accepts means the two have drifted
// apart (the other direction — the API accepting what the document
// refuses — check catches for every request).
var malformed = []string{
	"invalid JSON body: ", "a JSON body is required", "is not a positive integer", "is not an integer",
	"offset must be at least 0", "status: use ", "triggerStatus: use ", "dryRun: use ", "fromLine: ",
	"is not an RFC 3339 time", "send the body as application/json", "send the document as application/json",
	"not a jobs document", "jobs document version", "import mode ",
}

// check holds one exchange to the document: the request must be one the
// document describes or be refused, and the answer must have a documented
// status and fit that status's schema. A path or method the document lacks
// must be answered with the JSON error of a 404 or 405.
func (c *contract) check(ctx context.Context, ex exchange) error {
	req, err := http.NewRequestWithContext(ctx, ex.method, ex.path, strings.NewReader(ex.body))
	if err != nil {
		return err
	}
	req.Header = ex.header.Clone()
	route, params, err := c.router.FindRoute(req)
	if err != nil {
		want, code := http.StatusNotFound, "not_found"
		if errors.Is(err, routers.ErrMethodNotAllowed) {
			want, code = http.StatusMethodNotAllowed, "method_not_allowed"
		}
		if ex.status != want {
			return fmt.Errorf("the document has no operation for it (%v), but the API answered %d, not %d", err, ex.status, want)
		}
		return c.isError(ex.respBody, code)
	}
	opts := c.options()
	in := &openapi3filter.RequestValidationInput{Request: req, PathParams: params, Route: route, Options: opts}
	reqErr := openapi3filter.ValidateRequest(ctx, in)
	if reqErr == nil && ex.body != "" && !json.Valid([]byte(ex.body)) {
		// kin-openapi reads the first JSON value of a body and ignores
		// what follows; application/json is one value.
		reqErr = errors.New("the body is not one JSON value")
	}
	switch {
	case reqErr != nil && ex.status < 400:
		return fmt.Errorf("the API accepted (%d) a request the document refuses: %w", ex.status, reqErr)
	case reqErr == nil && ex.status >= 400 && ex.status < 500:
		var e struct{ Message string }
		_ = json.Unmarshal([]byte(ex.respBody), &e)
		if ex.status == http.StatusUnsupportedMediaType || slices.ContainsFunc(malformed, func(m string) bool { return strings.Contains(e.Message, m) }) {
			return fmt.Errorf("the API refused as malformed (%d %q) a request the document accepts", ex.status, e.Message)
		}
	}
	// ValidateRequest read the body; the answer is checked against the
	// route and parameters it found.
	out := &openapi3filter.ResponseValidationInput{RequestValidationInput: in, Status: ex.status,
		Header: ex.respHeader, Body: io.NopCloser(strings.NewReader(ex.respBody)), Options: opts}
	if err := openapi3filter.ValidateResponse(ctx, out); err != nil {
		return fmt.Errorf("answer: %w", err)
	}
	return nil
}

// isError checks a body against the document's Error schema and its code.
func (c *contract) isError(body, code string) error {
	var v any
	if err := json.Unmarshal([]byte(body), &v); err != nil {
		return fmt.Errorf("answer is not JSON: %q", body)
	}
	ref := c.doc.Components.Schemas["Error"]
	if ref == nil || ref.Value == nil {
		return errors.New("the document has no Error schema")
	}
	if err := ref.Value.VisitJSON(v); err != nil {
		return fmt.Errorf("answer is not an Error: %w", err)
	}
	if got := v.(map[string]any)["code"]; got != code {
		return fmt.Errorf("answer code %v, want %s", got, code)
	}
	return nil
}
