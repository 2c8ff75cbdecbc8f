// Package loglimit keeps what strangers send from multiplying in the log:
// values are cut to a few hundred bytes, and a warning that anyone can
// provoke at will (a wrong token, an unknown log id) is written once per
// interval with the count of the ones left out.
package loglimit

import (
	"strconv"
	"sync"
	"time"
	"unicode/utf8"
)

// MaxValue is how many bytes of a value a log line keeps.
const MaxValue = 256

// Cut shortens s to MaxValue bytes on a character boundary, saying how
// long it was: a 1 MiB registry value must not become a 1 MiB log line.
func Cut(s string) string {
	if len(s) <= MaxValue {
		return s
	}
	n := MaxValue
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n] + "…(" + strconv.Itoa(len(s)) + " bytes)"
}

// DefaultInterval is how often a repeated warning is written.
const DefaultInterval = time.Minute

// Repeats decides which of many identical warnings to write: the first of
// each interval per key. It is safe for concurrent use and needs no
// goroutine. Keys must come from a small fixed set (a message), never
// from a request.
type Repeats struct {
	interval time.Duration
	now      func() time.Time

	mu   sync.Mutex
	keys map[string]*repeat
}

type repeat struct {
	last       time.Time
	suppressed int
}

// NewRepeats builds a Repeats; interval 0 means DefaultInterval and now
// nil means time.Now.
func NewRepeats(interval time.Duration, now func() time.Time) *Repeats {
	if interval <= 0 {
		interval = DefaultInterval
	}
	if now == nil {
		now = time.Now
	}
	return &Repeats{interval: interval, now: now, keys: map[string]*repeat{}}
}

// Allow reports whether a warning for key is written now, and if so how
// many were left out since the last one written (to log as "suppressed").
func (r *Repeats) Allow(key string) (write bool, suppressed int) {
	now := r.now()
	r.mu.Lock()
	defer r.mu.Unlock()
	e := r.keys[key]
	if e == nil {
		r.keys[key] = &repeat{last: now}
		return true, 0
	}
	if now.Sub(e.last) < r.interval {
		e.suppressed++
		return false, 0
	}
	n := e.suppressed
	e.last, e.suppressed = now, 0
	return true, n
}
