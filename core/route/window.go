package route

import "time"

// cacheLifetime is how long ROUND, LFU and LRU keep per-job state before
// clearing every job at once (Java CACHE_VALID_TIME = now + 24 h,
// routing.md §1.2 step 1).
const cacheLifetime = 24 * time.Hour

// resetWindow tracks one strategy's global cache validity. It is not
// goroutine-safe; the owning strategy holds its lock around expired.
type resetWindow struct {
	// validUntilMs is epoch ms, 0 at start so the first call resets, as in
	// Java.
	validUntilMs int64
}

// expired reports whether the state must be cleared now and, if so,
// starts a new window. Millisecond precision matches Java's comparison of
// System.currentTimeMillis() values.
func (w *resetWindow) expired(now time.Time) bool {
	ms := now.UnixMilli()
	if ms <= w.validUntilMs {
		return false
	}
	w.validUntilMs = ms + cacheLifetime.Milliseconds()
	return true
}
