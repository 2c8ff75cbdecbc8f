package api

import (
	"context"
	"runtime"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/rs/zerolog"
)

// blockingCallbacks holds every Callback until release is closed, ignoring
// its context (as store work past the call limit does).
type blockingCallbacks struct {
	fakeStore
	release chan struct{}
	calls   atomic.Int32
	done    sync.WaitGroup
}

func (b *blockingCallbacks) Callback(context.Context, []HandleCallbackParam) error {
	defer b.done.Done()
	b.calls.Add(1)
	<-b.release
	return nil
}

type refusalCount struct{ n atomic.Int32 }

func (r *refusalCount) CallbackRefused() { r.n.Add(1) }

// TestHandlerRefusesCallbacksWhenBusy: with MaxCallbacks POSTs in progress
// — one answered at the call limit whose work still runs counts — the next
// POST is refused at once with code 500 and the busy message, before any
// work (the executor keeps it and retries, §2.5), and counted; once the
// work ends, callbacks are taken again.
func TestHandlerRefusesCallbacksWhenBusy(t *testing.T) {
	tok := map[string]string{TokenHeader: testToken}
	cb := &blockingCallbacks{release: make(chan struct{})}
	refused := &refusalCount{}
	h := NewHandler(HandlerConfig{AccessToken: testToken, CallTimeout: 20 * time.Millisecond, Registry: cb, Callbacks: cb,
		MaxCallbacks: 1, Refused: refused, Log: zerolog.Nop()})

	cb.done.Add(1)
	if _, got := serve(t, h, "POST", "/xxl-job-admin/api/callback", tok, `[{"logId":1}]`); got != failBody("callback not processed within 20ms, please retry.") {
		t.Fatalf("first POST: got %s", got)
	}
	if _, got := serve(t, h, "POST", "/xxl-job-admin/api/callback", tok, `[{"logId":2}]`); got != failBody(msgCallbackBusy) {
		t.Errorf("POST while the first one's work runs: got %s, want the busy refusal", got)
	}
	if n := cb.calls.Load(); n != 1 {
		t.Errorf("%d calls reached Callbacks, want 1 (a refused POST does no work)", n)
	}
	if n := refused.n.Load(); n != 1 {
		t.Errorf("%d refusals counted, want 1", n)
	}
	// An empty list needs no work and is answered success even now.
	if _, got := serve(t, h, "POST", "/xxl-job-admin/api/callback", tok, `[]`); got != successBody {
		t.Errorf("empty POST while busy: got %s", got)
	}

	close(cb.release)
	cb.done.Wait()
	for len(h.(*handler).callbacks) != 0 { // the token goes back right after Callback returns
		runtime.Gosched()
	}
	cb.done.Add(1)
	if _, got := serve(t, h, "POST", "/xxl-job-admin/api/callback", tok, `[{"logId":2}]`); got != successBody {
		t.Errorf("POST after the work ended: got %s", got)
	}
	cb.done.Wait()
}
