// Package browser drives a headless Chromium over the DevTools protocol for
// the console's page tests: open a page, evaluate expressions in it, and
// collect what went wrong there (uncaught exceptions, console errors,
// Content-Security-Policy violations, failed requests).
//
// It talks to Chromium over --remote-debugging-pipe (NUL-terminated JSON on
// file descriptors 3 and 4), so it needs no WebSocket client and no third-
// party module.
package browser

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"sync"
	"time"
)

// EnvChromium names the variable that switches the browser suites on; it
// holds the Chromium binary (CI: /usr/bin/chromium).
const EnvChromium = "XXL_TEST_CHROMIUM"

// Browser is one running Chromium with its own temporary profile.
type Browser struct {
	cmd     *exec.Cmd
	w       io.WriteCloser
	profile string

	writeMu sync.Mutex
	mu      sync.Mutex
	nextID  int64
	calls   map[int64]chan reply
	pages   map[string]*Page // by session id
	readErr error
	done    chan struct{} // closed when the read loop ends
}

type reply struct {
	Result json.RawMessage
	Err    error
}

// message is any frame Chromium sends: a reply (ID set) or an event (Method set).
type message struct {
	ID        int64           `json:"id"`
	Method    string          `json:"method"`
	Params    json.RawMessage `json:"params"`
	Result    json.RawMessage `json:"result"`
	SessionID string          `json:"sessionId"`
	Error     *struct {
		Code    int    `json:"code"`
		Message string `json:"message"`
	} `json:"error"`
}

// Launch starts Chromium at path (headless, no sandbox, no background
// traffic). Close stops it.
func Launch(path string) (*Browser, error) {
	profile, err := os.MkdirTemp("", "xxl-browser-")
	if err != nil {
		return nil, fmt.Errorf("browser profile: %w", err)
	}
	toChrome, ourWrite, err := os.Pipe()
	if err != nil {
		return nil, fmt.Errorf("browser pipe: %w", err)
	}
	ourRead, fromChrome, err := os.Pipe()
	if err != nil {
		return nil, fmt.Errorf("browser pipe: %w", err)
	}
	cmd := exec.Command(path,
		"--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
		"--disable-component-update", "--no-first-run", "--disable-sync",
		"--disable-extensions", "--mute-audio", "--window-size=1400,900",
		"--remote-debugging-pipe", "--user-data-dir="+profile, "about:blank")
	cmd.ExtraFiles = []*os.File{toChrome, fromChrome} // fd 3: commands in, fd 4: messages out
	if err := cmd.Start(); err != nil {
		_ = os.RemoveAll(profile)
		return nil, fmt.Errorf("start %s: %w", path, err)
	}
	_ = toChrome.Close()
	_ = fromChrome.Close()
	b := &Browser{
		cmd: cmd, w: ourWrite, profile: profile,
		calls: map[int64]chan reply{}, pages: map[string]*Page{},
		done: make(chan struct{}),
	}
	go b.readLoop(ourRead)
	return b, nil
}

// Close asks Chromium to quit, kills it if it does not within 5 s, and
// removes the profile.
func (b *Browser) Close() error {
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	_, _ = b.call(ctx, "", "Browser.close", nil)
	exited := make(chan error, 1)
	go func() { exited <- b.cmd.Wait() }()
	select {
	case <-exited:
	case <-ctx.Done():
		_ = b.cmd.Process.Kill()
		<-exited
	}
	_ = b.w.Close()
	<-b.done
	return os.RemoveAll(b.profile)
}

func (b *Browser) readLoop(r io.ReadCloser) {
	defer close(b.done)
	defer r.Close()
	rd := bufio.NewReaderSize(r, 1<<20)
	for {
		frame, err := rd.ReadBytes(0)
		if err != nil {
			b.fail(fmt.Errorf("browser connection: %w", err))
			return
		}
		var m message
		if err := json.Unmarshal(frame[:len(frame)-1], &m); err != nil {
			b.fail(fmt.Errorf("browser message: %w", err))
			return
		}
		if m.ID != 0 {
			b.mu.Lock()
			ch := b.calls[m.ID]
			delete(b.calls, m.ID)
			b.mu.Unlock()
			if ch != nil {
				r := reply{Result: m.Result}
				if m.Error != nil {
					r.Err = fmt.Errorf("devtools error %d: %s", m.Error.Code, m.Error.Message)
				}
				ch <- r
			}
			continue
		}
		b.mu.Lock()
		p := b.pages[m.SessionID]
		b.mu.Unlock()
		if p != nil {
			p.event(m.Method, m.Params)
		}
	}
}

// fail ends every pending call with err.
func (b *Browser) fail(err error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.readErr = err
	for id, ch := range b.calls {
		ch <- reply{Err: err}
		delete(b.calls, id)
	}
}

// call sends one command (to the browser when session is "", else to that
// page session) and waits for its reply.
func (b *Browser) call(ctx context.Context, session, method string, params any) (json.RawMessage, error) {
	ch := make(chan reply, 1)
	b.mu.Lock()
	if b.readErr != nil {
		b.mu.Unlock()
		return nil, b.readErr
	}
	b.nextID++
	id := b.nextID
	b.calls[id] = ch
	b.mu.Unlock()

	frame := map[string]any{"id": id, "method": method}
	if params != nil {
		frame["params"] = params
	}
	if session != "" {
		frame["sessionId"] = session
	}
	data, err := json.Marshal(frame)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", method, err)
	}
	b.writeMu.Lock()
	_, err = b.w.Write(append(data, 0))
	b.writeMu.Unlock()
	if err != nil {
		return nil, fmt.Errorf("%s: %w", method, err)
	}
	select {
	case r := <-ch:
		if r.Err != nil {
			return nil, fmt.Errorf("%s: %w", method, r.Err)
		}
		return r.Result, nil
	case <-ctx.Done():
		b.mu.Lock()
		delete(b.calls, id)
		b.mu.Unlock()
		return nil, fmt.Errorf("%s: %w", method, ctx.Err())
	}
}

// NewPage opens a blank tab with exceptions, console and log collection on.
func (b *Browser) NewPage(ctx context.Context) (*Page, error) {
	raw, err := b.call(ctx, "", "Target.createTarget", map[string]any{"url": "about:blank"})
	if err != nil {
		return nil, err
	}
	var target struct {
		TargetID string `json:"targetId"`
	}
	if err := json.Unmarshal(raw, &target); err != nil {
		return nil, fmt.Errorf("createTarget: %w", err)
	}
	raw, err = b.call(ctx, "", "Target.attachToTarget", map[string]any{"targetId": target.TargetID, "flatten": true})
	if err != nil {
		return nil, err
	}
	var attached struct {
		SessionID string `json:"sessionId"`
	}
	if err := json.Unmarshal(raw, &attached); err != nil {
		return nil, fmt.Errorf("attachToTarget: %w", err)
	}
	p := &Page{b: b, session: attached.SessionID, target: target.TargetID, loaded: make(chan struct{})}
	b.mu.Lock()
	b.pages[p.session] = p
	b.mu.Unlock()
	for _, m := range []string{"Page.enable", "Runtime.enable", "Log.enable", "Network.enable"} {
		if _, err := b.call(ctx, p.session, m, nil); err != nil {
			return nil, err
		}
	}
	return p, nil
}

// ErrTimeout is returned by waits that ran out of time.
var ErrTimeout = errors.New("browser: timed out")
