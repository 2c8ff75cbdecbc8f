package main

import (
	"bytes"
	"io"
	"os"
)

// logMark is a position in the admin's log file.
type logMark struct{ bytes int64 }

func markLog(path string) logMark {
	st, err := os.Stat(path)
	if err != nil {
		return logMark{}
	}
	return logMark{bytes: st.Size()}
}

// linesBetween counts the lines and bytes written between two marks.
func linesBetween(path string, a, b logMark) (lines int, size int64) {
	f, err := os.Open(path)
	if err != nil {
		return -1, 0
	}
	defer f.Close()
	buf, err := io.ReadAll(io.NewSectionReader(f, a.bytes, b.bytes-a.bytes))
	if err != nil {
		return -1, 0
	}
	return bytes.Count(buf, []byte("\n")), int64(len(buf))
}

// countLines counts the lines of a file containing s.
func countLines(path, s string) int {
	b, err := os.ReadFile(path)
	if err != nil {
		return -1
	}
	n := 0
	for _, line := range bytes.Split(b, []byte("\n")) {
		if bytes.Contains(line, []byte(s)) {
			n++
		}
	}
	return n
}
