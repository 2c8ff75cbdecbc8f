package cluster

import (
	"context"
	"testing"
	"time"
)

// TestWaitHandover: the victim of a kill is an admin that took over a
// second from another and kept the next one too; an admin that fired a
// single second before the lock moved on (it holds nothing by then, as the
// CI run of 890e9a7 saw) is passed over, as is an admin not in want.
func TestWaitHandover(t *testing.T) {
	base := time.Now().Add(-time.Minute).Truncate(time.Second)
	tests := []struct {
		name   string
		owners []string // by second from base; "" fired nothing
		want   []string
		admin  string
		second int // from base
	}{
		{"kept two seconds", []string{"a", "a", "b", "b", "b"}, nil, "b", 2},
		{"one second only", []string{"a", "b", "c", "c", "c"}, nil, "c", 2},
		{"back to the first", []string{"a", "b", "a", "a"}, nil, "a", 2},
		{"not wanted", []string{"a", "b", "b", "c", "c"}, []string{"a", "c"}, "c", 3},
		{"a gap is no handover", []string{"a", "", "b", "b", "c", "c"}, nil, "c", 4},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e := &Executor{owner: map[int64]string{}}
			for i, o := range tt.owners {
				if o != "" {
					e.owner[base.Unix()+int64(i)] = o
				}
			}
			ctx, cancel := context.WithTimeout(context.Background(), time.Second)
			defer cancel()
			admin, sec, err := e.WaitHandover(ctx, base, tt.want...)
			if err != nil {
				t.Fatal(err)
			}
			if admin != tt.admin || sec != base.Unix()+int64(tt.second) {
				t.Errorf("got %s at +%d s, want %s at +%d s", admin, sec-base.Unix(), tt.admin, tt.second)
			}
		})
	}
	t.Run("none", func(t *testing.T) {
		e := &Executor{owner: map[int64]string{base.Unix(): "a", base.Unix() + 1: "b", base.Unix() + 2: "a"}}
		ctx, cancel := context.WithTimeout(context.Background(), 100*time.Millisecond)
		defer cancel()
		if admin, sec, err := e.WaitHandover(ctx, base); err == nil {
			t.Errorf("got %s at %d, want no handover", admin, sec)
		}
	})
}
