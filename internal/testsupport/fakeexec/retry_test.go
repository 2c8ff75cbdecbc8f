package fakeexec

import (
	"testing"
	"time"
)

// TestNextRetryPause: a growing back-off between rounds of failed
// callbacks, capped (Java: its callback file, about every 30 s).
func TestNextRetryPause(t *testing.T) {
	var got []time.Duration
	var p time.Duration
	for range 7 {
		p = nextRetryPause(p)
		got = append(got, p)
	}
	want := []time.Duration{250 * time.Millisecond, 500 * time.Millisecond, time.Second, 2 * time.Second,
		4 * time.Second, 4 * time.Second, 4 * time.Second}
	for i := range want {
		if got[i] != want[i] {
			t.Fatalf("pauses %v, want %v", got, want)
		}
	}
}
