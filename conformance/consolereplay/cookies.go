package consolereplay

import (
	"bytes"
	"context"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strconv"
	"strings"

	sq "github.com/Masterminds/squirrel"
)

// LoginCookie is the console's login cookie name.
const LoginCookie = "XXL_JOB_LOGIN_IDENTITY"

// CookieMode says how recorded login cookies are sent to an admin.
type CookieMode int

const (
	// CookieJava sends the Java format: the recorded value, or the value
	// the Java admin would issue now when the user's password hash has
	// changed since the recording. For the Java admin and for ours with
	// --xxl.job.console.legacy-cookie=true.
	CookieJava CookieMode = iota
	// CookieSigned logs in through POST <ctx>/login as the cookie's user and
	// sends the cookie the admin sets (ours signs its own cookies).
	CookieSigned
)

func (m CookieMode) String() string {
	if m == CookieSigned {
		return "default"
	}
	return "legacy"
}

// knownPasswords are the clear-text passwords the recordings use, per
// user: the fixture's 123456 and the passwords scenarios set. This is the
// one place that maps a recorded cookie to a login.
var knownPasswords = map[string][]string{
	"admin":     {"123456"},
	"normal1":   {"123456"},
	"victim1":   {"123456", "newpass1"},
	"gone1":     {"123456"},
	"pwduser":   {"123456", "newpass1"},
	"spaceuser": {"123456"},
	"nogroups":  {"123456"},
	"newuser1":  {"pass1234"},
}

// identity is the JSON inside a Java login cookie, in Jackson's field order.
type identity struct {
	ID         int     `json:"id"`
	Username   string  `json:"username"`
	Password   string  `json:"password"`
	Role       int     `json:"role"`
	Permission *string `json:"permission"`
}

// CookieMapper turns the Cookie header of a recorded request into the one
// to send to the admin under test. A generation whose login state lives on
// the server (3.4.2's token) learns the mapping from the logins of the
// recording; 2.4.2's cookie carries the user row and is mapped on its own.
type CookieMapper interface {
	// Header returns the Cookie header value to send for a recorded one.
	Header(ctx context.Context, recorded string) (string, error)
	// Login performs a login the recorder made before a scenario
	// (Setup.Logins) and maps the cookie it got to the one the admin
	// under test sets.
	Login(ctx context.Context, l SetupLogin) error
	// Learn maps the login cookies of a recorded answer to the ones of the
	// observed answer to the same request (a recorded login); request is
	// the recorded request's Cookie header.
	Learn(request string, recorded, observed []string)
	// CookieMode is how recorded cookies are sent (the tolerances depend
	// on it).
	CookieMode() CookieMode
}

// Cookies maps the 2.4.2 login cookie, the hex of the user row: the
// recordings have no setup logins, and nothing is learned from answers.
type Cookies struct {
	Mode    CookieMode
	BaseURL string
	DB      *DB
	Client  *http.Client
	signed  map[string]string // username + "/" + password hash → cookie value
}

// CookieMode implements CookieMapper.
func (c *Cookies) CookieMode() CookieMode { return c.Mode }

// Login implements CookieMapper: the 2.4.2 recorder made no setup logins.
func (c *Cookies) Login(_ context.Context, l SetupLogin) error {
	return fmt.Errorf("setup login of %s: the 2.4.2 recordings have none", l.User)
}

// Learn implements CookieMapper: a 2.4.2 cookie is mapped by its content.
func (c *Cookies) Learn(string, []string, []string) {}

// Header implements CookieMapper.
func (c *Cookies) Header(ctx context.Context, recorded string) (string, error) {
	if recorded == "" {
		return "", nil
	}
	parts := strings.Split(recorded, "; ")
	for i, p := range parts {
		name, value, ok := strings.Cut(p, "=")
		if !ok || name != LoginCookie {
			continue
		}
		v, err := c.value(ctx, value)
		if err != nil {
			return "", err
		}
		parts[i] = name + "=" + v
	}
	return strings.Join(parts, "; "), nil
}

// value maps one recorded login cookie value. A cookie that was valid when
// recorded (its hash is the md5 of a known password of its user) follows
// the user's current row; any other value (not hex, not JSON, a wrong hash)
// is sent unchanged, as the scenario means it to be invalid.
func (c *Cookies) value(ctx context.Context, recorded string) (string, error) {
	raw, err := hex.DecodeString(recorded)
	if err != nil {
		return recorded, nil
	}
	var id identity
	if json.Unmarshal(raw, &id) != nil || !knownHash(id.Username, id.Password) {
		return recorded, nil
	}
	row, err := c.userRow(ctx, id.Username)
	if err != nil {
		return "", err
	}
	if row == nil {
		return recorded, nil // the user is gone: the cookie is invalid now
	}
	switch c.Mode {
	case CookieSigned:
		return c.login(ctx, row)
	default:
		if row.Password == id.Password {
			return recorded, nil
		}
		return javaCookieValue(*row)
	}
}

func knownHash(user, hash string) bool {
	for _, p := range knownPasswords[user] {
		if md5Hex(p) == hash {
			return true
		}
	}
	return false
}

func (c *Cookies) userRow(ctx context.Context, username string) (*identity, error) {
	rows, err := c.DB.Rows(ctx, sq.Select("id", "username", "password", "role", "permission").
		From("xxl_job_user").Where(sq.Eq{"username": username}))
	if err != nil {
		return nil, fmt.Errorf("read user %s: %w", username, err)
	}
	if len(rows) == 0 {
		return nil, nil
	}
	r := rows[0]
	id, _ := strconv.Atoi(deref(r["id"]))
	role, _ := strconv.Atoi(deref(r["role"]))
	return &identity{ID: id, Username: deref(r["username"]), Password: deref(r["password"]), Role: role,
		Permission: r["permission"]}, nil
}

func deref(s *string) string {
	if s == nil {
		return ""
	}
	return *s
}

// javaCookieValue is the cookie the Java admin issues for a user row:
// lowercase hex of Jackson's JSON (no HTML escaping) of the row.
func javaCookieValue(u identity) (string, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(u); err != nil {
		return "", fmt.Errorf("encode identity: %w", err)
	}
	return hex.EncodeToString(bytes.TrimSuffix(buf.Bytes(), []byte("\n"))), nil
}

// login signs in as the user with the known password matching the row's
// current hash and returns the login cookie the admin set.
func (c *Cookies) login(ctx context.Context, u *identity) (string, error) {
	key := u.Username + "/" + u.Password
	if v, ok := c.signed[key]; ok {
		return v, nil
	}
	password := ""
	for _, p := range knownPasswords[u.Username] {
		if md5Hex(p) == u.Password {
			password = p
		}
	}
	if password == "" {
		return "", fmt.Errorf("log in as %s: no known password matches its current hash", u.Username)
	}
	form := url.Values{"userName": {u.Username}, "password": {password}}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, c.BaseURL+ContextPath+"/login", strings.NewReader(form.Encode()))
	if err != nil {
		return "", err
	}
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded; charset=UTF-8")
	req.Header.Set("X-Requested-With", "XMLHttpRequest")
	resp, err := c.Client.Do(req)
	if err != nil {
		return "", fmt.Errorf("log in as %s: %w", u.Username, err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	for _, ck := range resp.Cookies() {
		if ck.Name == LoginCookie && ck.Value != "" {
			if c.signed == nil {
				c.signed = map[string]string{}
			}
			c.signed[key] = ck.Value
			return ck.Value, nil
		}
	}
	return "", fmt.Errorf("log in as %s: no %s cookie in the answer (%d %s)", u.Username, LoginCookie, resp.StatusCode, body)
}
