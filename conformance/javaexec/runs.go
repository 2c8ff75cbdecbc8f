package javaexec

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"strconv"
	"strings"
)

// runLogName is the run ledger's file in Options.LogDir when Options.RunLog is empty. The library's
// log cleaner only deletes dated directories there, never files.
const runLogName = "conformance-runs.txt"

// Run is one job run an executor executed: its handler wrote "<logId> <handler>" to the run ledger
// before doing anything else (conformance/java RunLedger). An admin that sends one /run twice shows
// one log row — the second callback changes nothing — but two runs here.
type Run struct {
	LogID   int64
	Handler string
}

// Runs returns the runs the executor's handlers have started so far, in order.
func (e *Executor) Runs() ([]Run, error) {
	return ReadRuns(e.opts.RunLog)
}

// ReadRuns reads a run ledger: one "<logId> <handler>" line per run. A missing file means no run
// yet. Other executors of the suite (pyxxl) write the same form.
func ReadRuns(path string) ([]Run, error) {
	f, err := os.Open(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("javaexec: run ledger: %w", err)
	}
	defer f.Close()
	runs, err := parseRuns(f)
	if err != nil {
		return nil, fmt.Errorf("javaexec: run ledger %s: %w", path, err)
	}
	return runs, nil
}

func parseRuns(r io.Reader) ([]Run, error) {
	var runs []Run
	sc := bufio.NewScanner(r)
	for n := 1; sc.Scan(); n++ {
		id, handler, ok := strings.Cut(sc.Text(), " ")
		logID, err := strconv.ParseInt(id, 10, 64)
		if !ok || err != nil || handler == "" {
			return nil, fmt.Errorf("line %d %q is not \"<logId> <handler>\"", n, sc.Text())
		}
		runs = append(runs, Run{LogID: logID, Handler: handler})
	}
	return runs, sc.Err()
}

// CountRuns counts runs per log id.
func CountRuns(runs []Run) map[int64]int {
	n := make(map[int64]int, len(runs))
	for _, r := range runs {
		n[r.LogID]++
	}
	return n
}
