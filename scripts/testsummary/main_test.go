package main

import (
	"bytes"
	"strings"
	"testing"
)

// TestReport renders events as go test does without -v and counts the
// switched-off skips per variable.
func TestReport(t *testing.T) {
	var out bytes.Buffer
	r := newReport(&out, false)
	events := []event{
		{Action: "run", Package: "p", Test: "TestA"},
		{Action: "output", Package: "p", Test: "TestA", Output: "    a_test.go:1: [suite-off] needs XXL_TEST_MYSQL_DSN\n"},
		{Action: "skip", Package: "p", Test: "TestA"},
		{Action: "output", Package: "p", Test: "TestB", Output: "    b_test.go:1: java: XXL_TEST_JAVA=1 not set\n"},
		{Action: "skip", Package: "p", Test: "TestB"},
		{Action: "output", Package: "p", Test: "TestE", Output: "    e_test.go:1: [suite-off] the DDL is not there: set XXL_TEST_SCHEMA_342 to it\n"},
		{Action: "skip", Package: "p", Test: "TestE"},
		{Action: "output", Package: "p", Test: "TestC", Output: "    c_test.go:1: short mode\n"},
		{Action: "skip", Package: "p", Test: "TestC"},
		{Action: "output", Package: "p", Test: "TestD", Output: "    d_test.go:9: boom\n"},
		{Action: "output", Package: "p", Test: "TestD", Output: "--- FAIL: TestD (0.00s)\n"},
		{Action: "fail", Package: "p", Test: "TestD"},
		{Action: "output", Package: "p", Output: "FAIL\tp\t0.1s\n"},
		{Action: "output", Package: "q", Output: "ok  \tq\t0.1s\n"},
	}
	for _, e := range events {
		r.add(e)
	}
	got := out.String()
	if !strings.Contains(got, "d_test.go:9: boom") || !strings.Contains(got, "FAIL\tp") || !strings.Contains(got, "ok  \tq") ||
		strings.Contains(got, "short mode") || strings.Contains(got, "suite-off") {
		t.Errorf("rendered:\n%s", got)
	}
	want := "skipped suites (switched off): 1 tests need XXL_TEST_JAVA=1 after make java; " +
		"1 tests need XXL_TEST_MYSQL_DSN='xxl:xxl_pwd@tcp(127.0.0.1:3306)/'; " +
		"1 tests need XXL_TEST_SCHEMA_342=<the 3.4.2 release's doc/db/tables_xxl_job.sql> (or put the reference material at ../shared) " +
		"(.ci/setup.d shows how CI switches each on)"
	if s := r.summary(); s != want {
		t.Errorf("summary\n  %s\nwant\n  %s", s, want)
	}
}

// TestSplitArgs: the packages are the trailing patterns after the flags.
func TestSplitArgs(t *testing.T) {
	flags, pkgs := splitArgs([]string{"-race", "-count=1", "-run", "X", "./...", "github.com/a/b"})
	if strings.Join(flags, " ") != "-race -count=1 -run X" || strings.Join(pkgs, " ") != "./... github.com/a/b" {
		t.Errorf("flags %q pkgs %q", flags, pkgs)
	}
	if flags, pkgs := splitArgs([]string{"-v"}); len(flags) != 1 || len(pkgs) != 0 {
		t.Errorf("no packages: %q %q", flags, pkgs)
	}
}
