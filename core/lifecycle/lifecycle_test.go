package lifecycle

import (
	"context"
	"errors"
	"sync/atomic"
	"testing"
	"time"

	"go.uber.org/goleak"
)

func TestMain(m *testing.M) { goleak.VerifyTestMain(m) }

type worker struct {
	Base
	runs atomic.Int32
	ran  chan struct{}
}

func (w *worker) Start(ctx context.Context) error {
	_, err := w.StartBase(ctx)
	if err != nil {
		return err
	}
	w.Go(func(ctx context.Context) {
		Loop(ctx, time.Millisecond, time.Second, func(context.Context) {
			if w.runs.Add(1) == 3 {
				close(w.ran)
			}
		})
	})
	return nil
}

func TestStartStop(t *testing.T) {
	w := &worker{ran: make(chan struct{})}
	w.Stop() // before Start: no-op
	if err := w.Start(context.Background()); err != nil {
		t.Fatal(err)
	}
	if err := w.Start(context.Background()); !errors.Is(err, ErrStarted) {
		t.Fatalf("second start: %v", err)
	}
	<-w.ran
	w.Stop()
	w.Stop()
	n := w.runs.Load()
	if n < 3 {
		t.Fatalf("runs %d", n)
	}
	// Restart works after Stop.
	w.ran = make(chan struct{})
	w.runs.Store(0)
	if err := w.Start(context.Background()); err != nil {
		t.Fatal(err)
	}
	<-w.ran
	w.Stop()
}

type rec struct {
	name string
	log  *[]string
	fail bool
}

func (r rec) Start(context.Context) error {
	if r.fail {
		return errors.New("boom")
	}
	*r.log = append(*r.log, "start "+r.name)
	return nil
}
func (r rec) Stop() { *r.log = append(*r.log, "stop "+r.name) }

func TestGroupOrder(t *testing.T) {
	var log []string
	var g Group
	if err := g.Start(context.Background(), rec{"a", &log, false}, rec{"b", &log, false}); err != nil {
		t.Fatal(err)
	}
	g.Stop()
	want := "start a,start b,stop b,stop a"
	if got := join(log); got != want {
		t.Fatalf("got %s", got)
	}
	log = nil
	if err := g.Start(context.Background(), rec{"a", &log, false}, rec{"b", &log, true}); err == nil {
		t.Fatal("want error")
	}
	if got := join(log); got != "start a,stop a" {
		t.Fatalf("got %s", got)
	}
}

func join(s []string) string {
	out := ""
	for i, x := range s {
		if i > 0 {
			out += ","
		}
		out += x
	}
	return out
}
