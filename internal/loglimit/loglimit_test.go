package loglimit

import (
	"strings"
	"testing"
	"time"
)

func TestCut(t *testing.T) {
	tests := []struct{ in, want string }{
		{"short", "short"},
		{strings.Repeat("a", MaxValue), strings.Repeat("a", MaxValue)},
		{strings.Repeat("a", 1<<20), strings.Repeat("a", MaxValue) + "…(1048576 bytes)"},
		// a three-byte character straddling the cut is dropped whole
		{strings.Repeat("a", MaxValue-1) + "界b", strings.Repeat("a", MaxValue-1) + "…(259 bytes)"},
	}
	for _, tt := range tests {
		if got := Cut(tt.in); got != tt.want {
			t.Errorf("Cut(%.20q…) = %.40q…, want %.40q…", tt.in, got, tt.want)
		}
	}
}

func TestRepeats(t *testing.T) {
	now := time.Unix(1000, 0)
	r := NewRepeats(time.Minute, func() time.Time { return now })
	if w, n := r.Allow("token"); !w || n != 0 {
		t.Fatalf("first: %v %d", w, n)
	}
	for range 99 {
		if w, _ := r.Allow("token"); w {
			t.Fatal("repeat within the interval written")
		}
	}
	if w, _ := r.Allow("other"); !w {
		t.Fatal("another key was held back")
	}
	now = now.Add(time.Minute)
	if w, n := r.Allow("token"); !w || n != 99 {
		t.Fatalf("next interval: %v %d, want true 99", w, n)
	}
	if w, n := r.Allow("token"); w || n != 0 {
		t.Fatalf("after the summary: %v %d", w, n)
	}
}
