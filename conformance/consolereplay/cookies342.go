package consolereplay

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"io"
	"maps"
	"net/http"
	"net/url"
	"slices"
	"strings"
)

// TokenCookie342 is the 3.4.2 login cookie (xxl-sso.token.key).
const TokenCookie342 = "xxl_job_login_token"

// LoginPath342 is the 3.4.2 login form's endpoint.
const LoginPath342 = "/auth/doLogin"

// SetupLogin is a login the recorder made before a scenario, outside the
// recorded exchanges: the scenario's requests carry the cookie it got.
type SetupLogin struct {
	User     string `json:"user"`
	Password string `json:"password"`
	Cookie   string `json:"cookie"` // the login cookie's value the jar set
}

// TokenCookies maps 3.4.2 login tokens. A token names the user and a
// random signature the admin stores in the user's row (one per user: a new
// login ends the previous one), so a recorded token cannot be rebuilt: the
// replay makes the same logins at the same points (the scenario's setup
// logins and its recorded login exchanges) and sends the token it got
// where the recording sent the recorded one. A recorded value never
// issued by a login (a forged or broken token) is sent unchanged.
type TokenCookies struct {
	Mode    CookieMode
	BaseURL string
	Client  *http.Client
	mapped  map[string]string // recorded token → the replay's
}

// CookieMode implements CookieMapper.
func (c *TokenCookies) CookieMode() CookieMode { return c.Mode }

// Header implements CookieMapper.
func (c *TokenCookies) Header(_ context.Context, recorded string) (string, error) {
	if recorded == "" {
		return "", nil
	}
	parts := strings.Split(recorded, "; ")
	for i, p := range parts {
		name, value, ok := strings.Cut(p, "=")
		if !ok || name != TokenCookie342 {
			continue
		}
		if v, ok := c.mapped[value]; ok {
			parts[i] = name + "=" + v
		}
	}
	return strings.Join(parts, "; "), nil
}

// Login implements CookieMapper: it posts the login form as the page does.
func (c *TokenCookies) Login(ctx context.Context, l SetupLogin) error {
	form := "userName=" + url.QueryEscape(l.User) + "&password=" + url.QueryEscape(l.Password)
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, c.BaseURL+LoginPath342, strings.NewReader(form))
	if err != nil {
		return err
	}
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded; charset=UTF-8")
	req.Header.Set("X-Requested-With", "XMLHttpRequest")
	resp, err := c.Client.Do(req)
	if err != nil {
		return fmt.Errorf("log in as %s: %w", l.User, err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	for _, ck := range resp.Cookies() {
		if ck.Name == TokenCookie342 && ck.Value != "" {
			c.learn(l.Cookie, ck.Value)
			return nil
		}
	}
	return fmt.Errorf("log in as %s: no %s cookie in the answer (%d %s)", l.User, TokenCookie342, resp.StatusCode, body)
}

// Learn implements CookieMapper. A token the recorded answer set is mapped
// to the one ours set. A token ours set where the recording set none
// renews the session the request carried (ours gives the session that
// changed its password a new token): as a browser would, the replay sends
// it from then on where the recording sends the request's token.
func (c *TokenCookies) Learn(request string, recorded, observed []string) {
	setByRecording := false
	for _, r := range recorded {
		rc := parseSetCookie(r)
		if rc.name != TokenCookie342 {
			continue
		}
		setByRecording = true
		if rc.value == "" {
			continue
		}
		for _, o := range observed {
			if oc := parseSetCookie(o); oc.name == rc.name && oc.value != "" {
				c.learn(rc.value, oc.value)
			}
		}
	}
	if setByRecording {
		return
	}
	for _, o := range observed {
		oc := parseSetCookie(o)
		if oc.name != TokenCookie342 || oc.value == "" {
			continue
		}
		for _, p := range strings.Split(request, "; ") {
			if name, value, ok := strings.Cut(p, "="); ok && name == TokenCookie342 {
				c.learn(value, oc.value)
			}
		}
	}
}

func (c *TokenCookies) learn(recorded, replay string) {
	if c.mapped == nil {
		c.mapped = map[string]string{}
	}
	c.mapped[recorded] = replay
}

// loginToken is the content of a 3.4.2 token: base64url of the JSON of
// xxl-sso's LoginInfo reduced to user id and signature.
func loginToken(v string) (map[string]any, bool) {
	raw, err := base64.RawURLEncoding.DecodeString(strings.TrimRight(v, "="))
	if err != nil {
		return nil, false
	}
	var m map[string]any
	if json.Unmarshal(raw, &m) != nil || m == nil {
		return nil, false
	}
	return m, true
}

// sameTokenCookie compares 3.4.2 cookie values: a login token by its
// content (same keys, same user id and expiry, a signature of the same
// form: 32 lowercase hex digits, random per login); anything else exactly.
func sameTokenCookie(name, want, got string) bool {
	if name != TokenCookie342 || want == got {
		return want == got
	}
	w, ok := loginToken(want)
	if !ok {
		return false
	}
	g, ok := loginToken(got)
	if !ok || !slices.Equal(slices.Sorted(maps.Keys(w)), slices.Sorted(maps.Keys(g))) {
		return false
	}
	for k, wv := range w {
		if k == "signature" {
			ws, _ := wv.(string)
			gs, _ := g[k].(string)
			if !hexToken(ws) || !hexToken(gs) {
				return false
			}
			continue
		}
		if fmt.Sprint(wv) != fmt.Sprint(g[k]) {
			return false
		}
	}
	return true
}

// hexToken reports whether s looks like the random tokens of 3.4.2
// (UUID without dashes): 32 lowercase hex digits.
func hexToken(s string) bool {
	if len(s) != 32 {
		return false
	}
	for _, r := range s {
		if (r < '0' || r > '9') && (r < 'a' || r > 'f') {
			return false
		}
	}
	return true
}
