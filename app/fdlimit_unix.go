//go:build unix

package app

import "syscall"

// fileLimit is the process's open-file limit (the soft RLIMIT_NOFILE, which
// the Go runtime raises to the hard one at start), 0 when unknown.
func fileLimit() int {
	var r syscall.Rlimit
	if err := syscall.Getrlimit(syscall.RLIMIT_NOFILE, &r); err != nil || r.Cur > 1<<30 {
		return 0
	}
	return int(r.Cur)
}
