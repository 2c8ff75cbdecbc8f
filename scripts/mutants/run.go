package main

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"time"
)

// outcome is what one go test run made of a mutant.
type outcome int

const (
	// killed: a test failed, as it must.
	killed outcome = iota + 1
	// survived: every test passed with the mutant in place.
	survived
	// suiteOff: the tests skipped for a switched-off suite, so they proved
	// nothing.
	suiteOff
	// broken: no test verdict at all (build failure, no test matched, the
	// package failed outside any test); the check is broken, not the code.
	broken
)

func (o outcome) String() string {
	switch o {
	case killed:
		return "killed"
	case survived:
		return "SURVIVED"
	case suiteOff:
		return "SUITE-OFF"
	case broken:
		return "ERROR"
	}
	return "?"
}

// check is one package's fire-counting tests run against a mutant.
type check struct {
	Pkg string // ./conformance/live
	Run string // -run filter; empty runs every test
}

func (c check) String() string {
	if c.Run == "" {
		return c.Pkg
	}
	return c.Pkg + " -run " + c.Run
}

// result is one row of the table.
type result struct {
	mutant  mutant
	check   check
	outcome outcome
	took    time.Duration
	why     string // the first failure, the skip, or the error
	log     string // go test's output
}

// event is one line of go test -json.
type event struct {
	Action  string
	Package string
	Test    string
	Output  string
}

// verdict reads go test -json output: killed when a test failed or hung
// until go test's -timeout, suiteOff when tests skipped for a switched-off suite and none failed,
// survived when tests ran and passed, broken otherwise. why is the first
// failing test and the first lines of its output.
func verdict(r io.Reader, exitErr error) (outcome, string) {
	var (
		ran, failed  bool
		firstFail    string
		hung         string // the test running when go test's -timeout struck
		failOutput   = map[string][]string{}
		off, nonJSON []string
	)
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 1<<20), 64<<20)
	for sc.Scan() {
		var e event
		if err := json.Unmarshal(sc.Bytes(), &e); err != nil || e.Action == "" {
			nonJSON = append(nonJSON, sc.Text())
			continue
		}
		switch e.Action {
		case "run":
			if e.Test != "" {
				ran = true
			}
		case "output":
			if e.Test != "" && len(failOutput[e.Test]) < 40 {
				failOutput[e.Test] = append(failOutput[e.Test], strings.TrimRight(e.Output, "\n"))
			}
			if strings.Contains(e.Output, "[suite-off]") {
				off = append(off, strings.TrimSpace(e.Output))
			}
			if strings.HasPrefix(e.Output, "panic: test timed out") && hung == "" {
				hung = e.Test + ": " + strings.TrimSpace(e.Output)
			}
		case "build-output":
			nonJSON = append(nonJSON, strings.TrimRight(e.Output, "\n"))
		case "fail":
			if e.Test != "" {
				failed = true
				// The deepest failing test comes first (subtests end
				// before their parents).
				if firstFail == "" {
					firstFail = e.Test
				}
			}
		}
	}
	switch {
	case failed:
		return killed, firstFail + ": " + problemLine(failOutput[firstFail])
	case hung != "":
		// The test did not pass: it waited for the lost or extra fire
		// without a deadline of its own.
		return killed, "hung: " + hung
	case len(off) > 0:
		return suiteOff, off[0]
	case exitErr != nil:
		return broken, fmt.Sprintf("go test: %v: %s", exitErr, lastLines(nonJSON, 3))
	case !ran:
		return broken, "no test ran (does the -run filter still match?)"
	}
	return survived, "every test passed"
}

// problemLine picks the line of a failed test's output that says what
// went wrong: t.Log and t.Error lines look alike, so the first
// file:line line that speaks of a count (want, duplicate, missing, ran N
// times, not within) wins, else the first file:line line, else the last.
func problemLine(lines []string) string {
	first := ""
	for _, l := range lines {
		t := strings.TrimSpace(l)
		i := strings.Index(t, ".go:")
		if i <= 0 || strings.Contains(t[:i], " ") {
			continue
		}
		if countWords.MatchString(t) {
			return t
		}
		if first == "" {
			first = t
		}
	}
	if first != "" {
		return first
	}
	return lastLines(lines, 1)
}

// countWords marks the failure lines of the fire-counting tests.
var countWords = regexp.MustCompile(`\bwant\b|duplicate|missing|ran \d+ times|not within`)

func lastLines(lines []string, n int) string {
	if len(lines) > n {
		lines = lines[len(lines)-n:]
	}
	return strings.TrimSpace(strings.Join(lines, " | "))
}

// runner runs go test with a mutant's overlay.
type runner struct {
	root    string        // module root
	work    string        // temp dir: overlays, mutated files, logs
	timeout time.Duration // per go test
}

// overlay writes the mutated file of m and an overlay that replaces the
// original with it, and checks that the mutated package builds (a mutant
// that does not compile would count as killed by every test).
func (r *runner) overlay(ctx context.Context, m mutant) (string, error) {
	orig := filepath.Join(r.root, filepath.FromSlash(m.target.File))
	src, err := os.ReadFile(orig)
	if err != nil {
		return "", fmt.Errorf("mutant %s: %w", m, err)
	}
	mutated, err := mutate(m.target.File, src, m.target, m.kind)
	if err != nil {
		return "", fmt.Errorf("mutant %s: %w", m, err)
	}
	dir := filepath.Join(r.work, m.String())
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return "", err
	}
	file := filepath.Join(dir, filepath.Base(orig))
	if err := os.WriteFile(file, mutated, 0o644); err != nil {
		return "", err
	}
	spec, err := json.Marshal(map[string]map[string]string{"Replace": {orig: file}})
	if err != nil {
		return "", err
	}
	overlay := filepath.Join(dir, "overlay.json")
	if err := os.WriteFile(overlay, spec, 0o644); err != nil {
		return "", err
	}
	pkg := "./" + filepath.ToSlash(filepath.Dir(m.target.File))
	cmd := exec.CommandContext(ctx, "go", "build", "-overlay="+overlay, pkg)
	cmd.Dir = r.root
	if out, err := cmd.CombinedOutput(); err != nil {
		return "", fmt.Errorf("mutant %s does not build: %w\n%s", m, err, out)
	}
	return overlay, nil
}

// goflags adds the overlay to GOFLAGS, so the go build that the cluster,
// drop-in and mixed tests run for the admin binary builds the mutant too.
func goflags(overlay string) (string, error) {
	if strings.ContainsAny(overlay, " \t") {
		return "", fmt.Errorf("overlay path %q has white space, which GOFLAGS cannot carry", overlay)
	}
	return strings.TrimSpace(os.Getenv("GOFLAGS") + " -overlay=" + overlay), nil
}

// run runs one check against a mutant's overlay.
func (r *runner) run(ctx context.Context, m mutant, overlay string, c check) result {
	res := result{mutant: m, check: c}
	flags, err := goflags(overlay)
	if err != nil {
		res.outcome, res.why = broken, err.Error()
		return res
	}
	args := []string{"test", "-json", "-count=1", "-failfast", "-timeout", r.timeout.String()}
	if c.Run != "" {
		args = append(args, "-run", c.Run)
	}
	args = append(args, c.Pkg)
	ctx, cancel := context.WithTimeout(ctx, r.timeout+time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, "go", args...)
	cmd.Dir = r.root
	cmd.Env = append(os.Environ(), "GOFLAGS="+flags)
	logFile := filepath.Join(r.work, m.String(), strings.NewReplacer("/", "_", ".", "").Replace(c.Pkg)+".log")
	var out strings.Builder
	cmd.Stdout = &out
	cmd.Stderr = &out
	begin := time.Now()
	runErr := cmd.Run()
	res.took = time.Since(begin)
	var exit *exec.ExitError
	if runErr != nil && !errors.As(runErr, &exit) {
		res.outcome, res.why = broken, runErr.Error()
		return res
	}
	res.outcome, res.why = verdict(strings.NewReader(out.String()), runErr)
	if err := os.WriteFile(logFile, []byte(out.String()), 0o644); err == nil {
		res.log = logFile
	}
	return res
}
