package mixed

import (
	"io"
	"testing"
	"time"
)

// TestPushLog reads the push lines of the Java admin's debug log, split
// across writes as a pipe delivers them, and maps each ring slot to the
// planned second it stands for.
func TestPushLog(t *testing.T) {
	loc, err := time.LoadLocation("Asia/Shanghai")
	if err != nil {
		t.Fatal(err)
	}
	p := NewPushLog(io.Discard, loc)
	lines := "2026-11-25 07:59:58.012 DEBUG [xxl-job, admin JobScheduleHelper#scheduleThread] c.x.j.a.c.t.JobScheduleHelper - >>>>>>>>>>> xxl-job, schedule push time-ring : 3 = [7]\n" +
		"2026-11-25 07:59:58.013 DEBUG [xxl-job] c.x.j.a.c.t.JobScheduleHelper - >>>>>>>>>>> xxl-job, schedule push time-ring : 3 = [7, 8]\n" +
		"2026-11-25 07:59:58.014 INFO  [main] other line\n"
	for _, part := range []string{lines[:50], lines[50:170], lines[170:]} {
		if _, err := p.Write([]byte(part)); err != nil {
			t.Fatal(err)
		}
	}
	got := p.Pushes()
	at := time.Date(2026, 11, 25, 7, 59, 58, 12e6, loc)
	want := at.Truncate(time.Minute).Add(time.Minute + 3*time.Second).Unix() // 08:00:03
	if len(got) != 2 || got[0].JobID != 7 || got[1].JobID != 8 || got[0].Second != want || !got[0].At.Equal(at) {
		t.Fatalf("pushes %+v, want jobs 7 and 8 at second %d", got, want)
	}
}
