package javaexec

import (
	"bytes"
	"io"
	"sync"
)

// lockedBuffer collects stdout and stderr of the process for failure diagnostics; os/exec writes
// the two streams from separate goroutines.
type lockedBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *lockedBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *lockedBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}

// markerWriter forwards to dst and closes found the first time marker has passed through,
// even when the marker is split across writes.
type markerWriter struct {
	dst    io.Writer
	marker []byte
	found  chan struct{}
	tail   []byte // last len(marker)-1 bytes seen, to catch a marker split across writes
	seen   bool
}

func newMarkerWriter(dst io.Writer, marker string) *markerWriter {
	return &markerWriter{dst: dst, marker: []byte(marker), found: make(chan struct{})}
}

// Write is called from a single goroutine (os/exec's copier for one stream), so the scan state
// needs no lock.
func (w *markerWriter) Write(p []byte) (int, error) {
	if !w.seen {
		window := append(w.tail, p...)
		if bytes.Contains(window, w.marker) {
			w.seen = true
			w.tail = nil
			close(w.found)
		} else {
			keep := min(len(w.marker)-1, len(window))
			w.tail = append([]byte(nil), window[len(window)-keep:]...)
		}
	}
	return w.dst.Write(p)
}
