package console

import (
	"bytes"
	"context"
	"crypto/hmac"
	"crypto/md5"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"errors"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/xxl-admin-go/xxl-admin-go/compat/schema"
)

// CookieName is the login cookie of the Java admin (console.md §2).
const CookieName = "XXL_JOB_LOGIN_IDENTITY"

// rememberMaxAge is the Java admin's "remember me" cookie lifetime.
const rememberMaxAge = 2147483647

// sessionMaxAge bounds how long a signed cookie is accepted after it was
// issued: browsers keep no cookie longer (Chrome caps lifetimes at 400 days).
const sessionMaxAge = 400 * 24 * time.Hour

// signedPrefix marks our signed cookie format; a Java cookie is plain hex.
const signedPrefix = "s1."

// sessions issues and checks login cookies.
//
// The default format is signed: "s1." + base64url(payload) + "." +
// base64url(HMAC-SHA256(secret, payload + "\n" + password hash from the
// database)). It holds no password hash, yet a password change invalidates
// it because the MAC covers the current hash; every admin given the same
// secret accepts it without any table of its own.
//
// With legacy set, the Java format is issued and accepted (the hex of the
// user row as JSON, password hash included), so a user sent to Java and Go
// admins in turn during a rolling migration stays logged in.
type sessions struct {
	secret []byte
	legacy bool
	store  userLoader
	now    func() time.Time
	// signinTimeout ends a signed-in user's session (a row sign-in made)
	// this long after it began; 0: no limit of its own.
	signinTimeout time.Duration
}

type userLoader interface {
	UserLoadByName(ctx context.Context, username string) (schema.User, error)
}

type signedPayload struct {
	User     string `json:"u"`
	IssuedAt int64  `json:"t"`
}

// errNoSession is a cookie that does not identify a user.
var errNoSession = errors.New("no valid login")

// issue returns the cookie value for a user who just logged in.
func (s *sessions) issue(u schema.User) string {
	if s.legacy {
		return hex.EncodeToString(javaCookieJSON(u))
	}
	payload, _ := json.Marshal(signedPayload{User: u.Username, IssuedAt: s.now().Unix()})
	p := base64.RawURLEncoding.EncodeToString(payload)
	return signedPrefix + p + "." + base64.RawURLEncoding.EncodeToString(s.mac(p, u.Password))
}

func (s *sessions) mac(payload, passwordHash string) []byte {
	m := hmac.New(sha256.New, s.secret)
	m.Write([]byte(payload))
	m.Write([]byte{'\n'})
	m.Write([]byte(passwordHash))
	return m.Sum(nil)
}

// resolve returns the user a cookie value identifies, read fresh from the
// database (role and permission changes apply at once). clear reports a
// value so malformed that Java clears the cookie (non-hex legacy values).
func (s *sessions) resolve(ctx context.Context, value string) (u schema.User, clear bool, err error) {
	if strings.HasPrefix(value, signedPrefix) {
		u, err := s.resolveSigned(ctx, strings.TrimPrefix(value, signedPrefix))
		return u, false, err
	}
	if !s.legacy {
		// A Java cookie is refused, and one that is not even hex is cleared
		// as the Java admin clears it.
		_, err := hex.DecodeString(value)
		return schema.User{}, err != nil, errNoSession
	}
	return s.resolveJava(ctx, value)
}

func (s *sessions) resolveSigned(ctx context.Context, value string) (schema.User, error) {
	p, sig, ok := strings.Cut(value, ".")
	if !ok {
		return schema.User{}, errNoSession
	}
	raw, err1 := base64.RawURLEncoding.DecodeString(p)
	mac, err2 := base64.RawURLEncoding.DecodeString(sig)
	var payload signedPayload
	if err1 != nil || err2 != nil || json.Unmarshal(raw, &payload) != nil || payload.User == "" {
		return schema.User{}, errNoSession
	}
	issued := time.Unix(payload.IssuedAt, 0)
	if now := s.now(); issued.After(now.Add(time.Minute)) || now.Sub(issued) > sessionMaxAge {
		return schema.User{}, errNoSession
	}
	u, err := s.store.UserLoadByName(ctx, payload.User)
	if err != nil {
		return schema.User{}, lookupErr(err)
	}
	// An exact name match too: the lookup ignores case as the collation
	// does, the signature was made for one spelling.
	if u.Username != payload.User || !hmac.Equal(mac, s.mac(p, u.Password)) {
		return schema.User{}, errNoSession
	}
	if signedInLimit(u, issued, s.now(), s.signinTimeout) {
		return schema.User{}, errNoSession
	}
	return u, nil
}

// resolveJava checks a Java admin cookie (console.md §2 validation): hex
// of the user row's JSON; the user must exist with that password hash.
func (s *sessions) resolveJava(ctx context.Context, value string) (schema.User, bool, error) {
	raw, err := hex.DecodeString(value)
	if err != nil {
		return schema.User{}, true, errNoSession
	}
	var c struct {
		ID         *int    `json:"id"`
		Username   *string `json:"username"`
		Password   *string `json:"password"`
		Role       *int    `json:"role"`
		Permission *string `json:"permission"`
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.DisallowUnknownFields() // Jackson fails on unknown properties: anonymous
	if err := dec.Decode(&c); err != nil || c.Username == nil || c.Password == nil {
		return schema.User{}, false, errNoSession
	}
	u, err := s.store.UserLoadByName(ctx, *c.Username)
	if err != nil {
		return schema.User{}, false, lookupErr(err)
	}
	if u.Password != *c.Password {
		return schema.User{}, false, errNoSession
	}
	return u, false, nil
}

func lookupErr(err error) error {
	if errors.Is(err, schema.ErrNotFound) {
		return errNoSession
	}
	return err
}

// javaCookieJSON is the user row as the Java admin's plain Jackson mapper
// writes it, in field order, nulls included (console.md §2).
func javaCookieJSON(u schema.User) []byte {
	var b bytes.Buffer
	b.WriteString(`{"id":` + strconv.Itoa(u.ID) + `,"username":`)
	b.Write(jackson(u.Username))
	b.WriteString(`,"password":`)
	b.Write(jackson(u.Password))
	b.WriteString(`,"role":` + strconv.Itoa(u.Role) + `,"permission":`)
	b.Write(jackson(u.Permission))
	b.WriteString(`}`)
	return b.Bytes()
}

// setLoginCookie writes the login cookie: a session cookie, or with
// remember the Java admin's Max-Age and Expires. The signed format adds
// SameSite=Lax.
func (s *sessions) setLoginCookie(w http.ResponseWriter, value string, remember bool) {
	c := &http.Cookie{Name: CookieName, Value: value, Path: "/", HttpOnly: true}
	if remember {
		c.MaxAge = rememberMaxAge
		c.Expires = s.now().Add(rememberMaxAge * time.Second)
	}
	if !s.legacy {
		c.SameSite = http.SameSiteLaxMode
	}
	http.SetCookie(w, c)
}

// clearLoginCookie is the Java admin's logout cookie.
func clearLoginCookie(w http.ResponseWriter) {
	http.SetCookie(w, &http.Cookie{Name: CookieName, Value: "", Path: "/", HttpOnly: true, MaxAge: -1,
		Expires: time.Unix(10, 0)})
}

// PasswordHash is the xxl_job_user password hash: lowercase hex MD5 of the
// password's UTF-8 bytes (console.md §2).
func PasswordHash(password string) string {
	sum := md5.Sum([]byte(password))
	return hex.EncodeToString(sum[:])
}
