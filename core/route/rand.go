package route

import (
	"math/rand/v2"
	"sync"
)

// Rand is the random source of RANDOM, ROUND and LFU. IntN returns a
// uniform integer in [0, n) for n > 0, like java.util.Random.nextInt(n).
// A *rand.Rand from math/rand/v2 satisfies it; the Registry serialises
// calls, so the source need not be goroutine-safe.
type Rand interface {
	IntN(n int) int
}

// globalRand uses math/rand/v2's goroutine-safe top-level source.
type globalRand struct{}

func (globalRand) IntN(n int) int { return rand.IntN(n) }

// lockedRand makes an injected, possibly unsafe source shareable.
type lockedRand struct {
	mu  sync.Mutex
	src Rand
}

func (l *lockedRand) IntN(n int) int {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.src.IntN(n)
}
