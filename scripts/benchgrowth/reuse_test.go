package main

import (
	"testing"
	"time"
)

// TestKeptStatsDataset pins what -reuse rebuilds from a kept data set: the
// span in days from its first and last triggers (the last is less than a
// second before the build's end), and a clear error for a database that
// is not one of ours.
func TestKeptStatsDataset(t *testing.T) {
	end := time.Date(2026, 11, 29, 2, 0, 0, 0, time.UTC)
	for _, c := range []struct {
		name     string
		days     int
		rows     int
		wantDays int
	}{
		{"a year of 100M", 365, 100_000_000, 365},
		{"27 days of 10M", 27, 10_000_000, 27},
		{"one day of 1000", 1, 1000, 1},
	} {
		t.Run(c.name, func(t *testing.T) {
			start := end.Add(-time.Duration(c.days) * 24 * time.Hour)
			step := end.Sub(start) / time.Duration(c.rows)
			k := keptStats{firstGroup: 7, firstJob: 12, rows: c.rows, first: start.Add(step), last: start.Add(step * time.Duration(c.rows))}
			ds, days, err := k.dataset("kept")
			if err != nil {
				t.Fatal(err)
			}
			if days != c.wantDays || ds.rows != c.rows || ds.firstGroup != 7 || ds.firstJob != 12 || ds.name != "kept" {
				t.Errorf("got %+v over %d days", ds, days)
			}
			if ds.end.Sub(end) > time.Second || end.Sub(ds.end) > time.Second {
				t.Errorf("end %s, built until %s", ds.end, end)
			}
		})
	}
	if _, _, err := (keptStats{rows: 10}).dataset("other"); err == nil {
		t.Error("a database without our groups and jobs: no error")
	}
}
