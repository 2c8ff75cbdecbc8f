// Package browser drives a headless Chromium for the console's page tests
// with chromedp: open a page, evaluate expressions in it, and collect what
// went wrong there (uncaught exceptions, console errors, Content-Security-
// Policy violations, failed requests, native dialogs).
//
// chromedp starts Chromium with --remote-debugging-pipe, so no port is
// opened and nothing but the pipe reaches the browser.
package browser

import (
	"context"
	"errors"
	"fmt"

	"github.com/chromedp/chromedp"
)

// EnvChromium names the variable that switches the browser suites on; it
// holds the Chromium binary (CI: /usr/bin/chromium).
const EnvChromium = "XXL_TEST_CHROMIUM"

// Zone is the browser's time zone.
const Zone = "Asia/Shanghai"

// Browser is one running Chromium with its own temporary profile.
type Browser struct {
	ctx         context.Context // the browser's first tab; its cancel ends the process
	cancel      context.CancelFunc
	cancelAlloc context.CancelFunc
}

// flags are the switches that work on a CI machine without a display,
// sandbox support or network: headless, no sandbox, no GPU, and no traffic
// of Chromium's own (updates, sync, QUIC probes).
func flags(path string) []chromedp.ExecAllocatorOption {
	return []chromedp.ExecAllocatorOption{
		chromedp.ExecPath(path),
		chromedp.Headless,
		chromedp.NoSandbox,
		chromedp.DisableGPU,
		chromedp.NoFirstRun,
		chromedp.NoDefaultBrowserCheck,
		chromedp.Flag("disable-quic", true),
		chromedp.Flag("disable-background-networking", true),
		chromedp.Flag("disable-component-update", true),
		chromedp.Flag("disable-sync", true),
		chromedp.Flag("disable-extensions", true),
		chromedp.Flag("disable-dev-shm-usage", true),
		chromedp.Flag("disable-features", "Translate,MediaRouter"),
		chromedp.Flag("password-store", "basic"),
		chromedp.WindowSize(1400, 900),
		// the zone of every admin the tests start (the recordings'), so a
		// time shown or typed in the page means the same to both
		chromedp.Env("TZ=" + Zone),
		// no UserDataDir: chromedp makes a fresh temporary profile and
		// removes it when the browser ends
	}
}

// Launch starts Chromium at path. Close stops it.
func Launch(path string) (*Browser, error) {
	allocCtx, cancelAlloc := chromedp.NewExecAllocator(context.Background(), flags(path)...)
	ctx, cancel := chromedp.NewContext(allocCtx)
	// The first action starts the process; it must run on ctx itself (not a
	// child with a deadline), which owns the browser from then on.
	if err := chromedp.Do(ctx); err != nil {
		cancel()
		cancelAlloc()
		return nil, fmt.Errorf("start %s: %w", path, err)
	}
	return &Browser{ctx: ctx, cancel: cancel, cancelAlloc: cancelAlloc}, nil
}

// Close stops Chromium and removes its profile.
func (b *Browser) Close() error {
	err := chromedp.Cancel(b.ctx) // closes the browser gracefully
	b.cancel()
	b.cancelAlloc() // waits for the process and the profile's removal
	if errors.Is(err, context.Canceled) {
		err = nil
	}
	return err
}

// NewPage opens a blank tab in a browser context of its own (its own
// cookies and storage, like a private window), so tabs of parallel tests do
// not share a login. It collects problems from its first moment. ctx bounds
// the opening only.
func (b *Browser) NewPage(ctx context.Context) (*Page, error) {
	p := &Page{}
	tabCtx, cancel := chromedp.NewContext(b.ctx, chromedp.WithNewBrowserContext(), chromedp.WithListener(p.event))
	p.ctx, p.cancel = tabCtx, cancel
	// As with the browser, the tab lives as long as the context of its first
	// action, so that one runs on tabCtx; ctx only bounds the wait.
	opened := make(chan error, 1)
	// a 1400x900 page, as the Java admin's screenshots
	go func() { opened <- chromedp.Do(tabCtx, chromedp.EmulateViewport(1400, 900)) }()
	select {
	case err := <-opened:
		if err != nil {
			cancel()
			return nil, fmt.Errorf("open tab: %w", err)
		}
	case <-ctx.Done():
		cancel()
		return nil, fmt.Errorf("open tab: %w", ErrTimeout)
	}
	return p, nil
}

// ErrTimeout is returned by waits that ran out of time.
var ErrTimeout = errors.New("browser: timed out")
