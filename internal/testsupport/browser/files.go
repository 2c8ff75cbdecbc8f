package browser

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"sync"

	cdpbrowser "github.com/chromedp/cdproto/browser"
	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/chromedp"
)

// Downloaded is a file the page downloaded.
type Downloaded struct {
	Name string // the name the browser suggested (Content-Disposition's filename)
	Data []byte
}

// Download runs action, which makes the page download a file, waits until
// the browser has written it (into dir) and returns it. Downloads are
// allowed in the tab's browser context only while this runs.
func (p *Page) Download(ctx context.Context, dir string, action func()) (Downloaded, error) {
	c := chromedp.FromContext(p.ctx)
	if c == nil || c.Target == nil {
		return Downloaded{}, fmt.Errorf("download: %w", chromedp.ErrInvalidContext)
	}
	// the tab's main frame has the target's id: downloads of other tabs
	// (the download events are the browser's) are not this one's
	frame := cdp.FrameID(c.Target.TargetID)
	allow := cdpbrowser.SetDownloadBehaviorParams{
		Behavior: cdpbrowser.SetDownloadBehaviorBehaviorAllowAndName, BrowserContextID: c.BrowserContextID,
		DownloadPath: dir, EventsEnabled: new(true),
	}
	sub, stop := context.WithCancel(p.ctx)
	defer stop()
	type end struct {
		guid, name string
		canceled   bool
	}
	var mu sync.Mutex
	names := map[string]string{} // guid -> suggested name, of this tab's downloads
	ended := make(chan end, 1)
	err := chromedp.ListenBrowser(sub, func(ev any) {
		switch e := ev.(type) {
		case *cdpbrowser.EventDownloadWillBegin:
			if e.FrameID == frame {
				mu.Lock()
				names[e.GUID] = e.SuggestedFilename
				mu.Unlock()
			}
		case *cdpbrowser.EventDownloadProgress:
			if e.State != cdpbrowser.DownloadProgressStateCompleted && e.State != cdpbrowser.DownloadProgressStateCanceled {
				return
			}
			mu.Lock()
			name, mine := names[e.GUID]
			mu.Unlock()
			if !mine {
				return
			}
			select {
			case ended <- end{guid: e.GUID, name: name, canceled: e.State == cdpbrowser.DownloadProgressStateCanceled}:
			default:
			}
		}
	})
	if err != nil {
		return Downloaded{}, fmt.Errorf("download: %w", err)
	}
	tctx, cancel := p.bound(ctx)
	defer cancel()
	if _, err := chromedp.CallBrowser(tctx, cdpbrowser.SetDownloadBehavior, allow); err != nil {
		return Downloaded{}, fmt.Errorf("allow downloads: %w", p.timeout(ctx, err))
	}
	defer func() {
		deny := cdpbrowser.SetDownloadBehaviorParams{Behavior: cdpbrowser.SetDownloadBehaviorBehaviorDeny, BrowserContextID: c.BrowserContextID}
		_, _ = chromedp.CallBrowser(p.ctx, cdpbrowser.SetDownloadBehavior, deny)
	}()
	action()
	select {
	case r := <-ended:
		if r.canceled {
			return Downloaded{}, fmt.Errorf("download of %q canceled", r.name)
		}
		data, err := os.ReadFile(filepath.Join(dir, r.guid)) // allowAndName: the file is named by its guid
		if err != nil {
			return Downloaded{}, fmt.Errorf("download: %w", err)
		}
		return Downloaded{Name: r.name, Data: data}, nil
	case <-ctx.Done():
		return Downloaded{}, fmt.Errorf("download: %w", ErrTimeout)
	}
}

// SetFiles chooses files (paths on this machine) in the file input the CSS
// selector matches, as the user would in the file chooser.
func (p *Page) SetFiles(ctx context.Context, sel string, paths ...string) error {
	tctx, cancel := p.bound(ctx)
	defer cancel()
	if err := chromedp.Do(tctx, chromedp.SetUploadFiles(chromedp.CSS(sel), paths)); err != nil {
		return fmt.Errorf("choose files in %s: %w", sel, p.timeout(ctx, err))
	}
	return nil
}

// Download runs action, which makes the page download a file, and returns
// the file (see Page.Download).
func (tb *Tab) Download(action func()) Downloaded {
	tb.T.Helper()
	ctx, cancel := context.WithTimeout(tb.Ctx, WaitLimit)
	defer cancel()
	d, err := tb.Page.Download(ctx, tb.T.TempDir(), action)
	if err != nil {
		tb.T.Fatal(err)
	}
	return d
}

// SetFiles chooses files in a file input (see Page.SetFiles).
func (tb *Tab) SetFiles(sel string, paths ...string) {
	tb.T.Helper()
	if err := tb.Page.SetFiles(tb.Ctx, sel, paths...); err != nil {
		tb.T.Fatal(err)
	}
}
