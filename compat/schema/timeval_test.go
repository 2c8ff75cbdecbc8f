package schema

import (
	"context"
	"testing"
	"time"
)

// TestDateTimeZone checks schema.md §3: DATETIME holds the wall time of the
// session zone (serverTimezone=Asia/Shanghai here), so an instant written by
// the store reads back as the same instant and the raw column text is the
// Shanghai wall time a Java admin would have written.
func TestDateTimeZone(t *testing.T) {
	forEachPrepared(t, func(t *testing.T, s *Store) {
		ctx := context.Background()
		if s.Location().String() != testZone {
			t.Fatalf("store zone = %s, want %s from serverTimezone", s.Location(), testZone)
		}
		instant := time.Date(2024, 1, 1, 16, 30, 0, 0, time.UTC) // 2024-01-02 00:30 in Shanghai
		id, err := s.LogSave(ctx, JobLog{JobGroup: 1, JobID: 1, TriggerTime: &instant})
		mustNoErr(t, err)
		got, err := s.LogLoad(ctx, id)
		mustNoErr(t, err)
		if got.TriggerTime == nil || !got.TriggerTime.Equal(instant) {
			t.Errorf("read back %v, want %v", got.TriggerTime, instant)
		}
		if got.TriggerTime.Location() != s.Location() {
			t.Errorf("read back in %s, want the store zone", got.TriggerTime.Location())
		}
		if raw := rawString(t, s, "SELECT CAST(trigger_time AS CHAR) FROM xxl_job_log WHERE id = ?", id); *raw != "2024-01-02 00:30:00" {
			t.Errorf("raw trigger_time = %q, want Shanghai wall time", *raw)
		}

		// Sub-seconds are dropped, never rounded up into the next second.
		frac := time.Date(2024, 1, 1, 16, 30, 5, 999_000_000, time.UTC)
		mustNoErr(t, s.LogUpdateHandleInfo(ctx, JobLog{ID: id, HandleTime: &frac}))
		if raw := rawString(t, s, "SELECT CAST(handle_time AS CHAR) FROM xxl_job_log WHERE id = ?", id); *raw != "2024-01-02 00:30:05" {
			t.Errorf("raw handle_time = %q", *raw)
		}

		// The same row seen through a UTC session is a different instant:
		// the zone is the only thing that gives DATETIME a meaning.
		utc := newStore(s.db, s.d, time.UTC)
		got, err = utc.LogLoad(ctx, id)
		mustNoErr(t, err)
		if want := time.Date(2024, 1, 2, 0, 30, 0, 0, time.UTC); !got.TriggerTime.Equal(want) {
			t.Errorf("UTC store read %v, want %v", got.TriggerTime, want)
		}
	})
}

// TestTimeScanner covers every shape a driver may hand back for DATETIME.
func TestTimeScanner(t *testing.T) {
	sh, err := time.LoadLocation(testZone)
	mustNoErr(t, err)
	want := time.Date(2024, 3, 4, 5, 6, 7, 0, sh)
	cases := []struct {
		name string
		in   any
		want *time.Time
		err  bool
	}{
		{"NULL", nil, nil, false},
		{"text", "2024-03-04 05:06:07", &want, false},
		{"bytes", []byte("2024-03-04 05:06:07"), &want, false},
		{"fraction", "2024-03-04 05:06:07.5", Ptr(want.Add(500 * time.Millisecond)), false},
		{"RFC3339 wall time", "2024-03-04T05:06:07Z", &want, false},
		{"with offset, wall time kept", "2024-03-04 05:06:07+00:00", &want, false},
		{"date only", "2024-03-04", Ptr(time.Date(2024, 3, 4, 0, 0, 0, 0, sh)), false},
		{"driver time, wall kept", time.Date(2024, 3, 4, 5, 6, 7, 0, time.UTC), &want, false},
		{"zero date", "0000-00-00 00:00:00", nil, false},
		{"garbage", "yesterday", nil, true},
		{"number", int64(5), nil, true},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got := &want // must be overwritten
			err := timeScanner{loc: sh, dest: &got}.Scan(c.in)
			if (err != nil) != c.err {
				t.Fatalf("err = %v", err)
			}
			if c.err {
				return
			}
			if (got == nil) != (c.want == nil) || (got != nil && !got.Equal(*c.want)) {
				t.Errorf("got %v, want %v", got, c.want)
			}
		})
	}
}
