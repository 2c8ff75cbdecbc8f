package cron

import (
	"testing"
	"time"
)

// FuzzParse checks that no input makes the parser or the search panic or
// run unbounded, and that any fire time found is strictly after the start
// and within the year limit (scheduler.md §2.1).
func FuzzParse(f *testing.F) {
	seen := map[string]bool{}
	for _, v := range loadVectors(f) {
		if !seen[v.Expr] {
			seen[v.Expr] = true
			f.Add(v.Expr)
		}
	}
	for _, s := range []string{
		"0 0 0 0W * ?", "99 98 * * * ?",
		"0 0 0 1 1 ? 1970-2999/7", "*/-5 * * * * ?", "0 0 0 ? * MON#+2", "L-\x01 * * * * ?",
		"0 0 0 ?\x00 * MON", "٣ * * * * ?", "0 0 0 ß * ?", "0 0 0 1 1 ? 2147483647",
	} {
		f.Add(s)
	}
	ny, err := time.LoadLocation("America/New_York")
	if err != nil {
		f.Fatal(err)
	}
	starts := []time.Time{
		time.Date(2024, 2, 28, 23, 59, 59, 500e6, time.UTC),
		time.Date(2025, 11, 2, 5, 30, 0, 0, time.UTC), // New York's repeated hour
	}
	f.Fuzz(func(t *testing.T, expr string) {
		const maxYear = 2124
		e, err := parseWithMaxYear(expr, maxYear)
		if err != nil {
			if _, ok := err.(*ParseError); !ok {
				t.Fatalf("error type %T", err)
			}
			return
		}
		for _, loc := range []*time.Location{time.UTC, ny} {
			for _, from := range starts {
				next, ok := e.Next(from, loc)
				if !ok {
					continue
				}
				if !next.After(from) {
					t.Fatalf("%q: next %v not after %v", expr, next, from)
				}
				if next.Nanosecond() != 0 {
					t.Fatalf("%q: next %v has a fraction", expr, next)
				}
				if next.In(loc).Year() > maxYear+1 {
					t.Fatalf("%q: next %v beyond year limit", expr, next)
				}
			}
		}
	})
}
