package console

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/xxl-admin-go/xxl-admin-go/core/signin"
	"github.com/xxl-admin-go/xxl-admin-go/internal/testsupport/browser"
)

// TestOIDCSignInBrowser signs in on both consoles in headless Chromium:
// the console's button, the zitadel provider's own login page, back to
// the console's frame. XXL_SIGNIN_SCREENSHOTS=DIR saves the login pages
// (docs/screenshots/signin*.png).
func TestOIDCSignInBrowser(t *testing.T) {
	path := os.Getenv(browser.EnvChromium)
	if path == "" {
		t.Skip("[suite-off] " + browser.EnvChromium + " not set (a Chromium binary)")
	}
	b, err := browser.Launch(path)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = b.Close() })
	bothConsoles(t, func(t *testing.T, gen3 bool) {
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		defer cancel()
		e := newSigninEnv(t, gen3, nil)
		issuer, _ := e.useZitadel()
		p, err := b.NewPage(ctx)
		if err != nil {
			t.Fatal(err)
		}
		defer func() { _ = p.Close(ctx) }()
		if err := p.Navigate(ctx, e.srv.URL+ctxPath+e.loginPath()); err != nil {
			t.Fatal(err)
		}
		if err := p.WaitFor(ctx, `document.getElementById('signin-oidc') && window.jQuery`); err != nil {
			t.Fatal(err)
		}
		if dir := os.Getenv("XXL_SIGNIN_SCREENSHOTS"); dir != "" {
			png, err := p.Screenshot(ctx)
			if err != nil {
				t.Fatal(err)
			}
			name := "signin.en.png"
			if gen3 {
				name = "signin.v3.en.png"
			}
			if err := os.WriteFile(filepath.Join(dir, name), png, 0o644); err != nil {
				t.Fatal(err)
			}
		}
		wait := p.ExpectLoadOf(issuer + "/login/username")
		if err := p.Eval(ctx, `document.getElementById('signin-oidc').click(), true`, nil); err != nil {
			t.Fatal(err)
		}
		if err := wait(ctx); err != nil {
			t.Fatal(err)
		}
		wait = p.ExpectLoadOf(e.srv.URL + ctxPath + "/")
		if err := p.Eval(ctx, `document.getElementById('username').value = 'test-user2';
			document.getElementById('password').value = 'verysecure';
			document.querySelector('button[type=submit]').click(), true`, nil); err != nil {
			t.Fatal(err)
		}
		if err := wait(ctx); err != nil {
			t.Fatal(err)
		}
		var where string
		if err := p.Eval(ctx, `location.pathname`, &where); err != nil {
			t.Fatal(err)
		}
		if where != ctxPath+"/" {
			t.Fatalf("after the sign-in the browser is at %s", where)
		}
		// The page shows the signed-in user's name.
		if err := p.WaitFor(ctx, `document.body.innerText.indexOf('test-user2') >= 0`); err != nil {
			t.Fatal(err)
		}
		if u := e.user("test-user2"); signin.MarkerSource(u.Password) != "oidc" {
			t.Fatalf("test-user2: %+v", u)
		}
		for _, prob := range p.Problems() {
			if !strings.Contains(prob, "favicon") {
				t.Errorf("page problem: %s", prob)
			}
		}
	})
}
