// Command testsummary runs go test with -json and prints what go test
// prints (everything with -v; otherwise package results and the output of
// failed tests), then one line naming the suites that were skipped because
// they are switched off, with the variable that switches each on.
//
//	go run ./scripts/testsummary [-summary FILE] [-serial PKGS] -- [go test flags] [packages]
//
// -serial names packages (comma-separated import paths or ./dir patterns)
// that run after all the others, one package at a time (go test -p 1): the
// suites that count fires to the second against whole admin processes, so
// no other package's CPU use makes their fires late.
//
// With -summary the line goes to FILE (the Makefile prints it last, after
// the fuzz run) unless the tests failed, when it is also printed here. The
// exit status is go test's.
package main

import (
	"bufio"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"regexp"
	"slices"
	"sort"
	"strings"
)

// event is one line of go test -json (cmd/test2json).
type event struct {
	Action  string
	Package string
	Test    string
	Output  string
}

// suiteOff finds a skip for a switched-off suite: tests say "[suite-off]"
// and name the variable; older skips name it without the marker.
var (
	suiteOff = regexp.MustCompile(`\[suite-off\]|XXL_TEST_[A-Z0-9_]+ not set|XXL_TEST_[A-Z0-9_]+=1`)
	variable = regexp.MustCompile(`XXL_TEST_[A-Z0-9_]*[A-Z0-9]`)
)

// hints say how to switch each suite on (as .ci/setup.d does).
var hints = map[string]string{
	"XXL_TEST_MYSQL_DSN":         "XXL_TEST_MYSQL_DSN='xxl:xxl_pwd@tcp(127.0.0.1:3306)/'",
	"XXL_TEST_POSTGRES_DSN":      "XXL_TEST_POSTGRES_DSN='postgres://xxl:xxl_pwd@127.0.0.1:5432/postgres?sslmode=disable'",
	"XXL_TEST_JAVA":              "XXL_TEST_JAVA=1 after make java",
	"XXL_TEST_PYXXL":             "XXL_TEST_PYXXL=<python with pyxxl==0.4.8>",
	"XXL_TEST_IMAGE":             "XXL_TEST_IMAGE=dist/oci after make image",
	"XXL_TEST_OPENAPI_VALIDATOR": "XXL_TEST_OPENAPI_VALIDATOR=<openapi-spec-validator> (.ci/setup.d/50-openapi.sh installs it)",
	"XXL_TEST_SCHEMA_342":        "XXL_TEST_SCHEMA_342=<the 3.4.2 release's doc/db/tables_xxl_job.sql> (or put the reference material at ../shared)",
	"XXL_TEST_LDAP":              "XXL_TEST_LDAP=ldap://127.0.0.1:3389 (and XXL_TEST_LDAPS, XXL_TEST_LDAP_CA) after sourcing .ci/setup.d/60-ldap.sh",
}

func main() {
	summary := flag.String("summary", "", "write the skipped-suites line to this file")
	serial := flag.String("serial", "", "packages to run last, one at a time (comma-separated)")
	flag.Parse()
	code, err := runAll(flag.Args(), splitList(*serial), *summary, os.Stdout)
	if err != nil {
		fmt.Fprintln(os.Stderr, "testsummary:", err)
		if code == 0 {
			code = 2
		}
	}
	os.Exit(code)
}

func splitList(s string) []string {
	var out []string
	for _, p := range strings.Split(s, ",") {
		if p = strings.TrimSpace(p); p != "" {
			out = append(out, p)
		}
	}
	return out
}

// runAll runs go test once, or — with serial packages — twice: every other
// package first, then the serial ones with -p 1; one report covers both.
func runAll(args, serial []string, summaryFile string, out io.Writer) (int, error) {
	verbose := slices.ContainsFunc(args, func(a string) bool { return a == "-v" || a == "-test.v" || a == "-v=true" })
	r := newReport(out, verbose)
	passes := [][]string{args}
	if len(serial) > 0 {
		flags, pkgs := splitArgs(args)
		all, err := list(pkgs)
		if err != nil {
			return 2, err
		}
		last, err := list(serial)
		if err != nil {
			return 2, err
		}
		var first []string
		for _, p := range all {
			if !slices.Contains(last, p) {
				first = append(first, p)
			}
		}
		passes = [][]string{append(slices.Clone(flags), first...), append(append(slices.Clone(flags), "-p", "1"), last...)}
	}
	code := 0
	for _, p := range passes {
		c, err := run(p, r)
		if err != nil {
			return 2, err
		}
		if code == 0 {
			code = c
		}
	}
	line := r.summary()
	if summaryFile != "" {
		if err := os.WriteFile(summaryFile, []byte(line+"\n"), 0o644); err != nil {
			return code, err
		}
	}
	if summaryFile == "" || code != 0 {
		fmt.Fprintln(out, line)
	}
	return code, nil
}

// splitArgs separates go test flags from package patterns (the patterns
// come last; a flag's value never starts with "./" or a module path here).
func splitArgs(args []string) (flags, pkgs []string) {
	i := len(args)
	for i > 0 && !strings.HasPrefix(args[i-1], "-") && (strings.HasPrefix(args[i-1], "./") || strings.Contains(args[i-1], "/")) {
		i--
	}
	return args[:i], args[i:]
}

// list expands package patterns to import paths.
func list(patterns []string) ([]string, error) {
	if len(patterns) == 0 {
		patterns = []string{"."}
	}
	b, err := exec.Command("go", append([]string{"list"}, patterns...)...).Output()
	if err != nil {
		return nil, fmt.Errorf("go list %v: %w", patterns, err)
	}
	return strings.Fields(string(b)), nil
}

// run runs one go test and feeds its events to r; it returns go test's
// exit status.
func run(args []string, r *report) (int, error) {
	cmd := exec.Command("go", append([]string{"test", "-json"}, args...)...)
	cmd.Stderr = os.Stderr
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return 2, err
	}
	if err := cmd.Start(); err != nil {
		return 2, err
	}
	sc := bufio.NewScanner(stdout)
	sc.Buffer(make([]byte, 1<<20), 64<<20)
	for sc.Scan() {
		var e event
		if err := json.Unmarshal(sc.Bytes(), &e); err != nil {
			fmt.Fprintln(r.out, sc.Text()) // build output and the like
			continue
		}
		r.add(e)
	}
	code := 0
	if err := cmd.Wait(); err != nil {
		var exit *exec.ExitError
		if !errors.As(err, &exit) {
			return 2, err
		}
		code = exit.ExitCode()
	}
	return code, nil
}

// report renders the events and counts the switched-off skips.
type report struct {
	out     io.Writer
	verbose bool
	buf     map[string][]string // package/test → output lines held back
	skips   map[string]int      // variable → skipped tests
	unnamed int                 // switched-off skips naming no variable
}

func newReport(out io.Writer, verbose bool) *report {
	return &report{out: out, verbose: verbose, buf: map[string][]string{}, skips: map[string]int{}}
}

func (r *report) add(e event) {
	key := e.Package + "/" + e.Test
	switch e.Action {
	case "output":
		if r.verbose {
			fmt.Fprint(r.out, e.Output)
		}
		r.buf[key] = append(r.buf[key], e.Output)
		if e.Test == "" && !r.verbose && packageLine(e.Output) {
			fmt.Fprint(r.out, e.Output)
		}
	case "build-output":
		fmt.Fprint(r.out, e.Output)
	case "skip":
		if e.Test != "" {
			r.countSkip(r.buf[key])
		}
		delete(r.buf, key)
	case "fail":
		if e.Test != "" && !r.verbose {
			fmt.Fprint(r.out, strings.Join(r.buf[key], ""))
		}
		delete(r.buf, key)
	case "pass":
		delete(r.buf, key)
	}
}

// packageLine: what go test prints per package without -v.
func packageLine(s string) bool {
	return strings.HasPrefix(s, "ok  \t") || strings.HasPrefix(s, "FAIL\t") || strings.HasPrefix(s, "?   \t") ||
		strings.HasPrefix(s, "panic:") || strings.HasPrefix(s, "--- FAIL")
}

func (r *report) countSkip(lines []string) {
	text := strings.Join(lines, "")
	if !suiteOff.MatchString(text) {
		return
	}
	vars := variable.FindAllString(text, -1)
	if len(vars) == 0 {
		r.unnamed++
		return
	}
	slices.Sort(vars)
	for _, v := range slices.Compact(vars) {
		r.skips[v]++
	}
}

// summary is the one line: which suites were off and how to switch them on.
func (r *report) summary() string {
	if len(r.skips) == 0 && r.unnamed == 0 {
		return "skipped suites: none (every suite ran)"
	}
	var vars []string
	for v := range r.skips {
		vars = append(vars, v)
	}
	sort.Slice(vars, func(i, j int) bool {
		return r.skips[vars[i]] > r.skips[vars[j]] || r.skips[vars[i]] == r.skips[vars[j]] && vars[i] < vars[j]
	})
	var parts []string
	for _, v := range vars {
		h := hints[v]
		if h == "" {
			h = v
		}
		parts = append(parts, fmt.Sprintf("%d tests need %s", r.skips[v], h))
	}
	if r.unnamed > 0 {
		parts = append(parts, fmt.Sprintf("%d more", r.unnamed))
	}
	return "skipped suites (switched off): " + strings.Join(parts, "; ") + " (.ci/setup.d shows how CI switches each on)"
}
