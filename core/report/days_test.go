package report

import (
	"testing"
	"time"
)

// TestDayRange checks the report day boundaries: local midnight to the last
// instant of the day in the admin zone (scheduler.md §11, §13), across month
// ends, leap days, DST changes and a clock reading in another zone.
func TestDayRange(t *testing.T) {
	sh := zone(t)
	ny, err := time.LoadLocation("America/New_York")
	if err != nil {
		t.Fatal(err)
	}
	end := func(y int, m time.Month, d int, loc *time.Location) time.Time {
		return time.Date(y, m, d, 23, 59, 59, 999_999_999, loc)
	}
	tests := []struct {
		name     string
		now      time.Time
		loc      *time.Location
		i        int
		from, to time.Time
	}{
		{"today", time.Date(2024, 6, 15, 10, 0, 0, 0, sh), sh, 0,
			time.Date(2024, 6, 15, 0, 0, 0, 0, sh), end(2024, 6, 15, sh)},
		{"at midnight", time.Date(2024, 6, 15, 0, 0, 0, 0, sh), sh, 0,
			time.Date(2024, 6, 15, 0, 0, 0, 0, sh), end(2024, 6, 15, sh)},
		{"last instant", end(2024, 6, 15, sh), sh, 0,
			time.Date(2024, 6, 15, 0, 0, 0, 0, sh), end(2024, 6, 15, sh)},
		{"leap day", time.Date(2024, 3, 1, 8, 0, 0, 0, sh), sh, 1,
			time.Date(2024, 2, 29, 0, 0, 0, 0, sh), end(2024, 2, 29, sh)},
		{"across year", time.Date(2025, 1, 1, 8, 0, 0, 0, sh), sh, 2,
			time.Date(2024, 12, 30, 0, 0, 0, 0, sh), end(2024, 12, 30, sh)},
		// 17:00 UTC is 01:00 the next day in Shanghai: the admin zone decides.
		{"clock in UTC", time.Date(2024, 3, 1, 17, 0, 0, 0, time.UTC), sh, 0,
			time.Date(2024, 3, 2, 0, 0, 0, 0, sh), end(2024, 3, 2, sh)},
		// A 23-hour day keeps its own wall-clock bounds.
		{"DST start", time.Date(2024, 3, 11, 9, 0, 0, 0, ny), ny, 1,
			time.Date(2024, 3, 10, 0, 0, 0, 0, ny), end(2024, 3, 10, ny)},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			from, to := dayRange(tt.now, tt.loc, tt.i)
			if !from.Equal(tt.from) || !to.Equal(tt.to) {
				t.Errorf("dayRange = %v .. %v, want %v .. %v", from, to, tt.from, tt.to)
			}
		})
	}
}

// TestClearBefore checks the retention limit: local midnight of today − N
// days (scheduler.md §11).
func TestClearBefore(t *testing.T) {
	sh := zone(t)
	tests := []struct {
		name string
		now  time.Time
		days int
		want time.Time
	}{
		{"30 days", time.Date(2024, 6, 30, 12, 0, 0, 0, sh), 30, time.Date(2024, 5, 31, 0, 0, 0, 0, sh)},
		{"7 days over a month end", time.Date(2024, 3, 3, 0, 0, 1, 0, sh), 7, time.Date(2024, 2, 25, 0, 0, 0, 0, sh)},
		{"clock in UTC", time.Date(2024, 3, 1, 17, 0, 0, 0, time.UTC), 7, time.Date(2024, 2, 24, 0, 0, 0, 0, sh)},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := clearBefore(tt.now, sh, tt.days); !got.Equal(tt.want) {
				t.Errorf("clearBefore = %v, want %v", got, tt.want)
			}
		})
	}
}
