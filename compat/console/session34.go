package console

import (
	"context"
	"crypto/rand"
	"crypto/subtle"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"errors"
	"net/http"
	"net/url"
	"strconv"
	"time"

	"github.com/xxl-admin-go/xxl-admin-go/compat/schema"
)

// tokenSessions is the 3.x login (xxl-sso 2.4 with the 3.4.2 admin's
// SimpleLoginStore): a login writes a fresh random token into
// xxl_job_user.token — one login per user at a time — and the cookie
// (xxl-sso.token.key, default xxl_job_login_token) carries base64url,
// unpadded, of {"userId":"1","expireTime":…,"signature":"<token>"}, URL
// encoded. A request is logged in while its signature equals the user's
// stored token; a logout stores "". Admins and Java 3.4.2 admins sharing
// a database accept each other's cookies: the state is the row.
//
// What is ours: the token is compared in constant time; a new password
// clears it (schema.Store.UserUpdate), so a password change ends every
// session, which Java 3.4.2 does not; and a login expires
// xxl-sso.token.timeout after it was made. Java writes 0 into the
// cookie's expireTime and never expires a login; ours writes 0 too (the
// cookie stays byte-compatible) and keeps the login time in the token
// itself: it is a UUID version 7 (48 bits of Unix milliseconds, then
// random bits), 32 hex digits like Java's version-4 UUID. A version-4
// token, issued by a Java admin, carries no time and does not expire.
type tokenSessions struct {
	store   tokenStore
	key     string        // cookie name
	timeout time.Duration // login lifetime; 0: unlimited
	now     func() time.Time
	// signinTimeout is the lifetime of a signed-in user's login (a row
	// sign-in made); 0: timeout only.
	signinTimeout time.Duration
}

type tokenStore interface {
	UserLoadByID(ctx context.Context, id int) (schema.User, error)
	UserUpdateToken(ctx context.Context, id int, token string) (int64, error)
}

// tokenPayload is xxl-sso's LoginInfo as its TokenHelper writes it with
// Gson: only userId, expireTime and signature are set, in that order.
type tokenPayload struct {
	UserID     string `json:"userId"`
	ExpireTime int64  `json:"expireTime"`
	Signature  string `json:"signature"`
}

// login stores a fresh token for u and returns the cookie value.
func (s *tokenSessions) login(ctx context.Context, u schema.User) (string, error) {
	token, err := newToken(s.now())
	if err != nil {
		return "", err
	}
	if n, err := s.store.UserUpdateToken(ctx, u.ID, token); err != nil {
		return "", err
	} else if n == 0 {
		return "", schema.ErrNotFound
	}
	b, _ := json.Marshal(tokenPayload{UserID: strconv.Itoa(u.ID), Signature: token})
	return base64.RawURLEncoding.EncodeToString(b), nil
}

// parse reads a cookie value; nil when it is not a token.
func parseToken(value string) *tokenPayload {
	if v, err := url.QueryUnescape(value); err == nil {
		value = v
	}
	raw, err := base64.RawURLEncoding.DecodeString(value)
	if err != nil {
		return nil
	}
	var p tokenPayload
	if json.Unmarshal(raw, &p) != nil || p.UserID == "" || p.Signature == "" {
		return nil
	}
	return &p
}

// resolve returns the user a cookie value is logged in as.
func (s *tokenSessions) resolve(ctx context.Context, value string) (schema.User, error) {
	p := parseToken(value)
	if p == nil {
		return schema.User{}, errNoSession
	}
	id, err := strconv.Atoi(p.UserID)
	if err != nil {
		return schema.User{}, errNoSession
	}
	if issued, ok := tokenTime(p.Signature); ok && s.timeout > 0 && s.now().Sub(issued) > s.timeout {
		return schema.User{}, errNoSession
	}
	u, err := s.store.UserLoadByID(ctx, id)
	if err != nil {
		return schema.User{}, lookupErr(err)
	}
	if u.Token == nil || *u.Token == "" || subtle.ConstantTimeCompare([]byte(*u.Token), []byte(p.Signature)) != 1 {
		return schema.User{}, errNoSession
	}
	if issued, ok := tokenTime(p.Signature); ok && signedInLimit(u, issued, s.now(), s.signinTimeout) {
		return schema.User{}, errNoSession
	}
	return u, nil
}

// errTokenRemove is SimpleLoginStore's answer when the user of a logout
// no longer exists.
var errTokenRemove = errors.New("token remove fail")

// logout ends the login a cookie value names (any token of the user: the
// user has one login at a time).
func (s *tokenSessions) logout(ctx context.Context, value string) error {
	p := parseToken(value)
	if p == nil {
		return errors.New("token is invalid")
	}
	id, err := strconv.Atoi(p.UserID)
	if err != nil {
		return errTokenRemove
	}
	n, err := s.store.UserUpdateToken(ctx, id, "")
	if err != nil {
		return err
	}
	if n == 0 {
		return errTokenRemove
	}
	return nil
}

// setCookie writes the login cookie as xxl-tool's CookieTool does: path /,
// HttpOnly, and with remember the largest Max-Age (a session cookie
// otherwise). No SameSite, as the jar's: a request another site makes a
// browser send is refused by the console's cross-site check
// (Sec-Fetch-Site, Origin, Referer) before any handler runs.
func (s *tokenSessions) setCookie(w http.ResponseWriter, value string, remember bool) {
	c := &http.Cookie{Name: s.key, Value: url.QueryEscape(value), Path: "/", HttpOnly: true}
	if remember {
		c.MaxAge = rememberMaxAge
		c.Expires = s.now().Add(rememberMaxAge * time.Second)
	}
	http.SetCookie(w, c)
}

// clearCookie is CookieTool.remove: an empty value with Max-Age 0, which
// Tomcat writes as an Expires in 1970 and no Max-Age (answer of the 3.4.2
// jar: "xxl_job_login_token=; Expires=Thu, 01 Jan 1970 00:00:10 GMT;
// Path=/; HttpOnly").
func (s *tokenSessions) clearCookie(w http.ResponseWriter) {
	http.SetCookie(w, &http.Cookie{Name: s.key, Value: "", Path: "/", HttpOnly: true, Expires: time.Unix(10, 0)})
}

// newToken is a UUID version 7 as 32 hex digits (RFC 9562 §5.7): the
// login time in its first 48 bits, then the version, variant and 74
// random bits.
func newToken(now time.Time) (string, error) {
	var u [16]byte
	if _, err := rand.Read(u[6:]); err != nil {
		return "", err
	}
	ms := uint64(now.UnixMilli())
	for i := 0; i < 6; i++ {
		u[i] = byte(ms >> (8 * (5 - i)))
	}
	u[6] = 0x70 | u[6]&0x0f // version 7
	u[8] = 0x80 | u[8]&0x3f // variant 10
	return hex.EncodeToString(u[:]), nil
}

// tokenTime reads the login time of a token newToken made; ok is false for
// any other token (a Java admin's version-4 UUID).
func tokenTime(token string) (time.Time, bool) {
	if len(token) != 32 || token[12] != '7' {
		return time.Time{}, false
	}
	raw, err := hex.DecodeString(token[:12])
	if err != nil {
		return time.Time{}, false
	}
	var ms int64
	for _, b := range raw {
		ms = ms<<8 | int64(b)
	}
	return time.UnixMilli(ms), true
}
