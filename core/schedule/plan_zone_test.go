package schedule

import (
	"context"
	"slices"
	"testing"
	"time"

	"github.com/rs/zerolog"

	"github.com/xxl-admin-go/xxl-admin-go/compat/schema"
	"github.com/xxl-admin-go/xxl-admin-go/core/clock"
	"github.com/xxl-admin-go/xxl-admin-go/core/cron"
	"github.com/xxl-admin-go/xxl-admin-go/core/trigger"
	"github.com/xxl-admin-go/xxl-admin-go/internal/testsupport/testfactory"
)

func rfc(t *testing.T, s string) time.Time {
	t.Helper()
	v, err := time.Parse(time.RFC3339, s)
	if err != nil {
		t.Fatal(err)
	}
	return v
}

// TestPlanZoned follows zoned CRON jobs through successive rounds (each
// fire planned from the one before, case C) across the DST transitions of
// 2025 and 2026, with the admin in Shanghai: the wall time holds in the
// job's zone, a skipped 02:30 gets no fire that day, a repeated 01:30 or
// 02:30 fires once in the second pass. A job without a zone computes in
// the admin's zone, as before; a zone the tz database does not know stops
// the job as an unparseable expression does.
func TestPlanZoned(t *testing.T) {
	shanghai, err := time.LoadLocation("Asia/Shanghai")
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name, conf, zone, first string
		want                    []string // the next times after first, in UTC
	}{
		{"New York 09:00 into daylight time 2025", "0 0 9 * * ?", "America/New_York", "2025-03-08T14:00:00Z",
			[]string{"2025-03-09T13:00:00Z", "2025-03-10T13:00:00Z"}},
		{"New York 09:00 into standard time 2025", "0 0 9 * * ?", "America/New_York", "2025-11-01T13:00:00Z",
			[]string{"2025-11-02T14:00:00Z", "2025-11-03T14:00:00Z"}},
		{"New York 09:00 into daylight time 2026", "0 0 9 * * ?", "America/New_York", "2026-03-07T14:00:00Z",
			[]string{"2026-03-08T13:00:00Z"}},
		{"New York 09:00 into standard time 2026", "0 0 9 * * ?", "America/New_York", "2026-10-31T13:00:00Z",
			[]string{"2026-11-01T14:00:00Z"}},
		{"New York 02:30 skipped on 2025-03-09", "0 30 2 * * ?", "America/New_York", "2025-03-08T07:30:00Z",
			[]string{"2025-03-10T06:30:00Z"}},
		{"New York 02:30 on 2025-11-02, after the repeated hour", "0 30 2 * * ?", "America/New_York", "2025-11-01T06:30:00Z",
			[]string{"2025-11-02T07:30:00Z", "2025-11-03T07:30:00Z"}},
		{"New York 01:30 on 2025-11-02: second pass only", "0 30 1 * * ?", "America/New_York", "2025-11-01T05:30:00Z",
			[]string{"2025-11-02T06:30:00Z", "2025-11-03T06:30:00Z"}},
		{"Berlin 02:30 skipped on 2026-03-29", "0 30 2 * * ?", "Europe/Berlin", "2026-03-28T01:30:00Z",
			[]string{"2026-03-30T00:30:00Z"}},
		{"Berlin 02:30 on 2026-10-25: second pass only", "0 30 2 * * ?", "Europe/Berlin", "2026-10-24T00:30:00Z",
			[]string{"2026-10-25T01:30:00Z", "2026-10-26T01:30:00Z"}},
		{"no zone: the admin's (Shanghai, no DST)", "0 0 9 * * ?", "", "2025-03-08T01:00:00Z",
			[]string{"2025-03-09T01:00:00Z", "2025-03-10T01:00:00Z"}},
		{"unknown zone: stopped", "0 0 9 * * ?", "Nowhere/Town", "2025-03-08T14:00:00Z", []string{"0"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			first := rfc(t, tt.first)
			clk := clock.NewFake(first.Add(-2 * time.Second))
			p := planner{loc: shanghai, zones: new(cron.Zones), clock: clk, log: zerolog.Nop()}
			j := schema.JobInfo{ID: 1, ScheduleType: cron.TypeCron, ScheduleConf: schema.Ptr(tt.conf), TriggerStatus: 1,
				TriggerNextTime: first.UnixMilli()}
			if tt.zone != "" {
				j.ScheduleTimezone = schema.Ptr(tt.zone)
			}
			var got []string
			for range tt.want {
				planned := j.TriggerNextTime
				acts := p.plan(&j, clk.Now().UnixMilli())
				if len(acts) != 1 || !acts[0].ring || acts[0].planned != planned {
					t.Fatalf("actions %+v, want the ring at %d", acts, planned)
				}
				if j.TriggerStatus == 0 {
					got = append(got, "0")
					break
				}
				got = append(got, time.UnixMilli(j.TriggerNextTime).UTC().Format(time.RFC3339))
				clk.Set(time.UnixMilli(j.TriggerNextTime).Add(-2 * time.Second))
			}
			if !slices.Equal(got, tt.want) {
				t.Errorf("next times %v\nwant       %v", got, tt.want)
			}
		})
	}
}

// TestPlanZoneIgnoredByOtherTypes: a FIX_RATE job's zone changes nothing.
func TestPlanZoneIgnoredByOtherTypes(t *testing.T) {
	clk := clock.NewFake(t0.Add(10 * time.Second))
	p := planner{loc: time.UTC, zones: new(cron.Zones), clock: clk, log: zerolog.Nop()}
	for _, zone := range []string{"America/New_York", "Nowhere/Town"} {
		j := schema.JobInfo{ID: 1, ScheduleType: cron.TypeFixRate, ScheduleConf: schema.Ptr("30"), TriggerStatus: 1,
			TriggerNextTime: ms(12 * time.Second), ScheduleTimezone: schema.Ptr(zone)}
		p.plan(&j, ms(10*time.Second))
		if j.TriggerStatus != 1 || j.TriggerNextTime != ms(42*time.Second) {
			t.Errorf("zone %s: status %d next %d, want 1 and %d", zone, j.TriggerStatus, j.TriggerNextTime, ms(42*time.Second))
		}
	}
}

// TestLoopZonedJobs runs the scheduler on a database with the zone
// column, on each backend: a New York job at 09:00 and a job without a
// zone at 13:00 UTC fire in the same second on Saturday 2025-11-01 (09:00
// EDT); written back, the New York job's next fire is Sunday 09:00 EST,
// 25 hours later, the other's 24 hours later.
func TestLoopZonedJobs(t *testing.T) {
	forEachBackend(t, func(t *testing.T, open opener) {
		st := open(t)
		if err := st.AddScheduleTimezone(context.Background()); err != nil {
			t.Fatal(err)
		}
		due := rfc(t, "2025-11-01T13:00:00Z")
		add := func(conf, zone string) int {
			id, err := st.JobSave(context.Background(), testfactory.JobRow(testfactory.JobOpts{Desc: "tz",
				ScheduleType: "CRON", ScheduleConf: conf, Handler: "h", Status: 1, Next: due.UnixMilli(), Zone: zone}))
			if err != nil {
				t.Fatal(err)
			}
			return id
		}
		ny := add("0 0 9 * * ?", "America/New_York")
		plain := add("0 0 13 * * ?", "")
		_, rec, d := startFake(t, st, due.Add(-10*time.Second))
		d.until(due.Add(2 * time.Second))
		got := firedOf(rec.take())
		slices.SortFunc(got, func(a, b fired) int { return a.job - b.job })
		if want := []fired{{ny, trigger.TypeCron}, {plain, trigger.TypeCron}}; !slices.Equal(got, want) {
			t.Fatalf("fired %v, want %v", got, want)
		}
		if s := loadState(t, st, ny); s.next != rfc(t, "2025-11-02T14:00:00Z").UnixMilli() || s.last != due.UnixMilli() {
			t.Errorf("New York job stored %+v, want next Sunday 09:00 EST (14:00Z)", s)
		}
		if s := loadState(t, st, plain); s.next != rfc(t, "2025-11-02T13:00:00Z").UnixMilli() {
			t.Errorf("job without zone stored %+v, want next 13:00Z", s)
		}
	})
}

// BenchmarkRefreshZone is the next-time computation of one fire for a
// CRON job without a zone and with one (loaded once, then from the
// planner's cache; New York is the admin's zone's neighbour in cost).
func BenchmarkRefreshZone(b *testing.B) {
	shanghai, err := time.LoadLocation("Asia/Shanghai")
	if err != nil {
		b.Fatal(err)
	}
	p := planner{loc: shanghai, zones: new(cron.Zones), clock: clock.NewFake(t0), log: zerolog.Nop()}
	for _, zone := range []string{"", "America/New_York"} {
		name := zone
		if name == "" {
			name = "admin-zone"
		}
		b.Run(name, func(b *testing.B) {
			j := schema.JobInfo{ID: 1, ScheduleType: cron.TypeCron, ScheduleConf: schema.Ptr("0 0 9 * * ?"), TriggerStatus: 1}
			if zone != "" {
				j.ScheduleTimezone = schema.Ptr(zone)
			}
			b.ReportAllocs()
			for b.Loop() {
				j.TriggerNextTime = t0.UnixMilli()
				p.refresh(&j, j.TriggerNextTime)
			}
		})
	}
}
