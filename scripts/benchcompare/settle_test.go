package main

import (
	"context"
	"testing"
	"time"

	"github.com/xxl-admin-go/xxl-admin-go/internal/testsupport/procstat"
)

// TestBusyOver: /proc/stat parses into idle ≤ total, and the busy share of
// a short window is a fraction.
func TestBusyOver(t *testing.T) {
	idle, total, err := procstat.SystemCPU()
	if err != nil {
		t.Fatal(err)
	}
	if total == 0 || idle > total {
		t.Fatalf("idle %d of total %d jiffies", idle, total)
	}
	busy, err := busyOver(context.Background(), 200*time.Millisecond)
	if err != nil {
		t.Fatal(err)
	}
	if busy < 0 || busy > 1 {
		t.Fatalf("busy share %v", busy)
	}
}
