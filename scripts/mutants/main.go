// Command mutants checks that the suites counting fires can fail: it writes
// broken copies of the two doors every fire goes through — the executor
// client's (*api.Client).Run and the trigger pools' (*trigger.Pools).Submit
// — each once sending every call twice (double) and once dropping every
// second call as if it had worked (drop), runs the fire-counting tests
// against each, one package at a time with -failfast, and fails when a
// mutant survives.
//
//	go run ./scripts/mutants [-plan ci|full] [-mutants run-double,...] [-pkgs ./conformance/live,...] [-run REGEXP]
//
// A mutant is not a copy of the module: the method is renamed and a broken
// one of the same name appended (go/parser, go/ast, go/format), and the
// rewritten file is handed to go test as a build overlay (-overlay, passed
// in GOFLAGS so the admin binaries the process-level suites build with go
// build carry the mutant too). A target method that is not found is an
// error, so a refactoring cannot switch the check off silently.
//
// The table lists mutant × package: killed (a test failed — the first
// failure is shown), SURVIVED, SUITE-OFF (the tests skipped for a switched-off
// suite) or ERROR (no verdict: build failure, no test matched). The exit
// status is 0 only when every mutant was killed everywhere it was run.
package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"strings"
	"syscall"
	"text/tabwriter"
	"time"
)

func main() {
	planName := flag.String("plan", "ci", "which packages each mutant runs against: ci or full")
	names := flag.String("mutants", "", "comma-separated mutants (default: all of "+mutantNames(allMutants())+")")
	pkgs := flag.String("pkgs", "", "comma-separated packages, instead of the plan's (each run with -run, if given)")
	runFilter := flag.String("run", "", "with -pkgs: the -run filter")
	timeout := flag.Duration("timeout", 10*time.Minute, "go test -timeout of each run")
	keep := flag.Bool("keep", false, "keep the mutated files and logs (printed at the end)")
	flag.Parse()

	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	code, err := runMain(ctx, *planName, *names, *pkgs, *runFilter, *timeout, *keep, os.Stdout)
	if err != nil {
		fmt.Fprintln(os.Stderr, "mutants:", err)
		code = 2
	}
	os.Exit(code)
}

func runMain(ctx context.Context, planName, names, pkgs, runFilter string, timeout time.Duration, keep bool, out io.Writer) (int, error) {
	mutants, err := findMutants(names)
	if err != nil {
		return 2, err
	}
	p, err := choosePlan(planName, pkgs, runFilter)
	if err != nil {
		return 2, err
	}
	root, err := moduleRoot(ctx)
	if err != nil {
		return 2, err
	}
	work, err := os.MkdirTemp("", "xxl-mutants-")
	if err != nil {
		return 2, err
	}
	if !keep {
		defer os.RemoveAll(work)
	}
	r := &runner{root: root, work: work, timeout: timeout}

	began := time.Now()
	var results []result
	for _, m := range mutants {
		overlay, err := r.overlay(ctx, m)
		if err != nil {
			return 2, err
		}
		for _, c := range p(m) {
			fmt.Fprintf(out, "mutants: %s against %s ...\n", m, c)
			res := r.run(ctx, m, overlay, c)
			fmt.Fprintf(out, "mutants: %s against %s: %s in %s\n", m, c.Pkg, res.outcome, res.took.Round(time.Second))
			results = append(results, res)
			if ctx.Err() != nil {
				return 2, ctx.Err()
			}
		}
	}
	printTable(out, results, time.Since(began))
	if keep {
		fmt.Fprintln(out, "mutated files, overlays and go test logs kept in", work)
	}
	code := 0
	for _, res := range results {
		if res.outcome != killed {
			code = 1
			if !keep && res.log != "" {
				// The log goes with the work dir: show its end here.
				showLog(out, res)
			}
		}
	}
	return code, nil
}

// moduleRoot is the directory of the main module's go.mod.
func moduleRoot(ctx context.Context) (string, error) {
	b, err := exec.CommandContext(ctx, "go", "env", "GOMOD").Output()
	if err != nil {
		return "", fmt.Errorf("go env GOMOD: %w", err)
	}
	mod := strings.TrimSpace(string(b))
	if mod == "" || mod == os.DevNull {
		return "", fmt.Errorf("not inside a Go module")
	}
	return filepath.Dir(mod), nil
}

func printTable(out io.Writer, results []result, total time.Duration) {
	fmt.Fprintln(out)
	tw := tabwriter.NewWriter(out, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "MUTANT\tPACKAGE\tRESULT\tTIME\tFIRST FAILURE / REASON")
	for _, r := range results {
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\n", r.mutant, r.check, r.outcome, r.took.Round(time.Second), clip(r.why, 160))
	}
	_ = tw.Flush()
	fmt.Fprintf(out, "%d runs in %s\n", len(results), total.Round(time.Second))
}

// showLog prints the end of a run's test output, for a run that did not
// kill its mutant.
func showLog(out io.Writer, r result) {
	b, err := os.ReadFile(r.log)
	if err != nil {
		return
	}
	lines := strings.Split(strings.TrimRight(plainOutput(b), "\n"), "\n")
	if len(lines) > 30 {
		lines = lines[len(lines)-30:]
	}
	fmt.Fprintf(out, "\n%s against %s: %s; the end of its output:\n%s\n", r.mutant, r.check, r.outcome, strings.Join(lines, "\n"))
}

// plainOutput turns go test -json output back into what go test -v
// prints; lines that are not JSON (build errors) are kept as they are.
func plainOutput(b []byte) string {
	var sb strings.Builder
	for _, line := range strings.Split(string(b), "\n") {
		var e event
		if err := json.Unmarshal([]byte(line), &e); err != nil || e.Action == "" {
			if line != "" {
				sb.WriteString(line + "\n")
			}
			continue
		}
		if e.Action == "output" {
			sb.WriteString(e.Output)
		}
	}
	return sb.String()
}

func clip(s string, n int) string {
	s = strings.Join(strings.Fields(s), " ")
	if len(s) > n {
		return s[:n-1] + "…"
	}
	return s
}
