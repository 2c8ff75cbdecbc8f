package openapi

import (
	"bytes"
	"context"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"mime"
	"net/http"
	"sort"
	"strconv"
	"strings"

	"github.com/xxl-admin-go/xxl-admin-go/compat/schema"
	"github.com/xxl-admin-go/xxl-admin-go/core/jobs"
)

// Request bodies above maxBody (maxImport for an import) are refused.
const (
	maxBody   = 10 << 20
	maxImport = 64 << 20
)

// call is one authenticated request to a route.
type call struct {
	w      http.ResponseWriter
	r      *http.Request
	ctx    context.Context
	access jobs.Access
}

// serve authenticates a request, runs the route and answers its error.
func (a *API) serve(w http.ResponseWriter, r *http.Request, rt route) {
	c := &call{w: w, r: r, ctx: r.Context()}
	if !rt.public {
		access, err := a.authenticate(r)
		if err != nil {
			if e, ok := err.(*apiError); ok && e.status == http.StatusUnauthorized {
				w.Header().Set("WWW-Authenticate", `Bearer realm="xxl-admin-go"`)
			}
			a.answerError(c, err)
			return
		}
		c.access = access
	}
	limit := int64(maxBody)
	if rt.op == "importJobs" {
		limit = maxImport
	}
	r.Body = http.MaxBytesReader(w, r.Body, limit)
	if err := rt.serve(a, c); err != nil {
		a.answerError(c, err)
	}
}

func (a *API) answerError(c *call, err error) {
	e, known := classify(err, c.access)
	if errors.Is(err, schema.ErrStatementTimeout) {
		a.log.Warn().Err(err).Str("path", c.r.URL.Path).Msg("job API list stopped at its time bound")
	}
	if !known {
		a.log.Error().Err(err).Str("method", c.r.Method).Str("path", c.r.URL.Path).Msg("job API request failed")
	}
	writeError(c.w, e)
}

// authenticate checks the bearer token in constant time and resolves the
// user it acts as, read fresh so a role or permission change applies at
// once.
func (a *API) authenticate(r *http.Request) (jobs.Access, error) {
	scheme, token, _ := strings.Cut(r.Header.Get("Authorization"), " ")
	if !strings.EqualFold(scheme, "Bearer") || token == "" {
		return jobs.Access{}, &apiError{http.StatusUnauthorized, "unauthorized", "send the job API token as Authorization: Bearer <token>"}
	}
	sum := sha256.Sum256([]byte(strings.TrimSpace(token)))
	if subtle.ConstantTimeCompare(sum[:], a.token[:]) != 1 {
		return jobs.Access{}, &apiError{http.StatusUnauthorized, "unauthorized", "wrong job API token"}
	}
	if a.cfg.User == "" {
		return jobs.AdminAccess("openapi"), nil
	}
	u, err := a.cfg.Store.UserLoadByName(r.Context(), a.cfg.User)
	if errors.Is(err, schema.ErrNotFound) {
		return jobs.Access{}, &apiError{http.StatusForbidden, "forbidden",
			fmt.Sprintf("the job API acts as user %q (xxl.job.openapi.user), who does not exist", a.cfg.User)}
	}
	if err != nil {
		return jobs.Access{}, err
	}
	return jobs.AccessOf(u), nil
}

// requireAdmin refuses a normal user what the console keeps for admins.
func (c *call) requireAdmin() error {
	if !c.access.Admin {
		return &apiError{http.StatusForbidden, "forbidden", fmt.Sprintf("permission limit: user %q is not an admin", c.access.User)}
	}
	return nil
}

// mayUse refuses a group the user may not use.
func (c *call) mayUse(group int) error {
	if !c.access.May(group) {
		return jobs.ErrPermission
	}
	return nil
}

// decode reads a JSON body strictly: unknown members are refused, so a
// misspelt field is an error instead of a silently dropped setting, and so
// is null, which the document allows nowhere — decoded, it would read as a
// member left out ("keep it") or, in a list, as "".
func (c *call) decode(v any) error {
	if ct := c.r.Header.Get("Content-Type"); ct != "" {
		if mt, _, err := mime.ParseMediaType(ct); err != nil || mt != "application/json" {
			return &apiError{http.StatusUnsupportedMediaType, "unsupported_media_type", "send the body as application/json"}
		}
	}
	raw, err := io.ReadAll(c.r.Body)
	if err != nil {
		return err // *http.MaxBytesError, or the connection's
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		if errors.Is(err, io.EOF) {
			return invalid("a JSON body is required")
		}
		return invalid("invalid JSON body: %s", strings.TrimPrefix(err.Error(), "json: "))
	}
	if _, err := dec.Token(); !errors.Is(err, io.EOF) {
		return invalid("invalid JSON body: data after the JSON value")
	}
	var tree any
	if err := json.Unmarshal(raw, &tree); err == nil {
		if at := nullAt(tree, ""); at != "" {
			return invalid("invalid JSON body: %s is null: leave a member out to keep it", at)
		}
	}
	return nil
}

// nullAt is the path of the first null in a decoded JSON value, "" for none.
func nullAt(v any, at string) string {
	switch t := v.(type) {
	case nil:
		if at == "" {
			return "the body"
		}
		return at
	case map[string]any:
		keys := make([]string, 0, len(t))
		for k := range t {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		for _, k := range keys {
			p := k
			if at != "" {
				p = at + "." + k
			}
			if n := nullAt(t[k], p); n != "" {
				return n
			}
		}
	case []any:
		for i, e := range t {
			if n := nullAt(e, fmt.Sprintf("%s[%d]", at, i)); n != "" {
				return n
			}
		}
	}
	return ""
}

// decodeOptional is decode for a body that may be empty.
func (c *call) decodeOptional(v any) error {
	if c.r.ContentLength == 0 {
		return nil
	}
	return c.decode(v)
}

// pathID is the {id} path parameter.
func (c *call) pathID() (int, error) {
	n, err := strconv.Atoi(c.r.PathValue("id"))
	if err != nil || n < 1 {
		return 0, invalid("id: %q is not a positive integer", c.r.PathValue("id"))
	}
	return n, nil
}

// queryInt is an optional integer query parameter.
func (c *call) queryInt(name string, def int) (int, error) {
	v := c.r.URL.Query().Get(name)
	if v == "" {
		return def, nil
	}
	n, err := strconv.Atoi(v)
	if err != nil {
		return 0, invalid("%s: %q is not an integer", name, v)
	}
	return n, nil
}

// window reads offset and limit (default 20, at most 1000).
func (c *call) window() (page, error) {
	offset, err := c.queryInt("offset", 0)
	if err != nil {
		return page{}, err
	}
	limit, err := c.queryInt("limit", 20)
	if err != nil {
		return page{}, err
	}
	if offset < 0 || limit < 1 || limit > 1000 {
		return page{}, invalid("offset must be at least 0 and limit between 1 and 1000")
	}
	return page{Offset: offset, Limit: limit}, nil
}
