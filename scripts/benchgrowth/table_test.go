package main

import (
	"strings"
	"testing"
	"time"
)

// TestWriteTable pins the table's shape: a column per admin, the ratio of
// the last to the first only when there are two or more, and a note for a
// lower-bound total or an error.
func TestWriteTable(t *testing.T) {
	ds := dataset{rows: 1000}
	res := map[string][]result{
		"Java": {{shape: "a", median: 2 * time.Second}},
		"ours": {{shape: "a", median: 20 * time.Millisecond, note: "total 51 (lower bound)"}},
	}
	var two strings.Builder
	writeTable(&two, "2.4", ds, []candidate{{label: "Java"}, {label: "ours"}}, res)
	if want := "| request | Java | ours | ours / Java |\n|---|---|---|---|\n| a | 2.00 s | 20 ms (total 51 (lower bound)) | 0.01 |\n"; !strings.HasSuffix(two.String(), want) {
		t.Errorf("two admins:\n%s\nwant suffix\n%s", two.String(), want)
	}
	var one strings.Builder
	writeTable(&one, "2.4", ds, []candidate{{label: "ours"}}, res)
	if want := "| request | ours |\n|---|---|\n| a | 20 ms (total 51 (lower bound)) |\n"; !strings.HasSuffix(one.String(), want) {
		t.Errorf("one admin:\n%s\nwant suffix\n%s", one.String(), want)
	}
}
