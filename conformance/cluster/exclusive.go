package cluster

import (
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"time"
)

// exclusiveLock is the file the machine-wide lock of Exclusive is taken
// on; test binaries of different packages run as separate processes.
const exclusiveLock = "xxl-admin-go-timing.lock"

// Exclusive makes the tests that count fires by the clock (the process
// and mixed clusters, the drop-in) and the one that starts three Java
// admins at once (the console replay) run one at a time, even across the
// packages go test runs in parallel: on two cores, a Java admin starting
// beside a 300-jobs-per-second cluster makes its rounds and triggers
// seconds late. The lock is released when the test ends.
func Exclusive(t testing.TB) {
	t.Helper()
	f, err := os.OpenFile(filepath.Join(os.TempDir(), exclusiveLock), os.O_CREATE|os.O_RDWR, 0o666)
	if err != nil {
		t.Fatalf("timing lock: %v", err)
	}
	start := time.Now()
	if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX); err != nil {
		f.Close()
		t.Fatalf("timing lock: %v", err)
	}
	if waited := time.Since(start); waited > time.Second {
		t.Logf("waited %s for the other clock-counting tests", waited.Round(time.Second))
	}
	t.Cleanup(func() {
		_ = syscall.Flock(int(f.Fd()), syscall.LOCK_UN)
		f.Close()
	})
}
