package report

import (
	"context"
	"errors"
	"sync"
	"testing"
	"time"

	"github.com/xxl-admin-go/xxl-admin-go/core/lifecycle"
)

// TestStartStop checks the lifecycle: the first refresh runs at start
// (scheduler.md §11), a second Start is refused, Stop twice is safe, and
// with retention disabled no cleanup pass runs at all.
func TestStartStop(t *testing.T) {
	st := &countingStore{}
	r := New(Config{Store: st, Interval: time.Hour})
	var mu sync.Mutex
	duties := map[string]int{}
	first := make(chan struct{})
	r.afterPass = func(duty string, err error) {
		mu.Lock()
		defer mu.Unlock()
		duties[duty]++
		if duties[duty] == 1 && duty == "refresh" {
			close(first)
		}
	}
	r.Stop() // before Start: no-op
	if err := r.Start(context.Background()); err != nil {
		t.Fatal(err)
	}
	if err := r.Start(context.Background()); !errors.Is(err, lifecycle.ErrStarted) {
		t.Errorf("second Start: %v", err)
	}
	<-first // the hour-long interval proves the first pass is immediate
	r.Stop()
	r.Stop()
	mu.Lock()
	defer mu.Unlock()
	if duties["retention"] != 0 || st.selects != 0 {
		t.Errorf("retention ran while disabled: %v, %d selects", duties, st.selects)
	}
}
