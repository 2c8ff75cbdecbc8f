package main

import (
	"os"
	"testing"
	"time"
)

// TestLateness: a fire's scheduled second is the last one at or before
// its arrival whose remainder by the period is the job's.
func TestLateness(t *testing.T) {
	base := time.Unix(1_800_000_000, 0) // a multiple of 5 s
	for _, tc := range []struct {
		job   int
		after time.Duration
		want  time.Duration
	}{
		{5, 20 * time.Millisecond, 20 * time.Millisecond},                  // due at base
		{7, 2*time.Second + 300*time.Millisecond, 300 * time.Millisecond},  // due at base+2
		{7, 1*time.Second + 900*time.Millisecond, 4900 * time.Millisecond}, // due at base-3, 4.9 s late
		{9, 4*time.Second + time.Millisecond, time.Millisecond},
	} {
		if got := lateness(base.Add(tc.after), tc.job); got != tc.want {
			t.Errorf("job %d arriving %s after: %s late, want %s", tc.job, tc.after, got, tc.want)
		}
	}
}

// TestCPUTicks reads this process's own CPU time.
func TestCPUTicks(t *testing.T) {
	if _, err := os.Stat("/proc/self/stat"); err != nil {
		t.Skip("no /proc")
	}
	if _, err := cpuTicks(os.Getpid()); err != nil {
		t.Fatal(err)
	}
}
