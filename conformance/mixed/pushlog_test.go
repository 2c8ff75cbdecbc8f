package mixed

import (
	"io"
	"testing"
	"time"

	"github.com/xxl-admin-go/xxl-admin-go/conformance/cluster"
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
	lines := "2026-11-25 07:59:58.012 DEBUG [xxl-job, admin JobScheduleHelper#scheduleThread] c.x.j.a.c.t.JobScheduleHelper - >>>>>>>>>>> xxl-job, schedule push time-ring : 3 = [[7]]\n" +
		"2026-11-25 07:59:58.013 DEBUG [xxl-job] c.x.j.a.c.t.JobScheduleHelper - >>>>>>>>>>> xxl-job, schedule push time-ring : 3 = [[7, 8]]\n" +
		"2026-11-25 07:59:58.014 INFO  [main] other line\n"
	for _, part := range []string{lines[:50], lines[50:172], lines[172:]} {
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

// TestPlan gives Java's fires of one job the planned seconds of its pushes
// in order, even when its trigger pool ran them seconds late; a fire with
// no push keeps its trigger second, pushes never fired are skipped, and
// other admins' fires are left alone.
func TestPlan(t *testing.T) {
	base := int64(1_800_000_000)
	at := func(sec int64, ms int) time.Time { return time.Unix(sec, 0).Add(time.Duration(ms) * time.Millisecond) }
	pushes := []Push{{JobID: 1, Second: base}, {JobID: 1, Second: base + 1}, {JobID: 1, Second: base + 2},
		{JobID: 1, Second: base + 40}} // the last one was lost with the ring
	fires := []cluster.Fire{
		{JobID: 1, Admin: "java-1", Trigger: at(base+1, 300)}, // second base, 1.3 s late in the pool
		{JobID: 1, Admin: "java-1", Trigger: at(base+1, 900)}, // second base+1
		{JobID: 1, Admin: "ours-1", Trigger: at(base+2, 5)},   // ours: not Java's
		{JobID: 1, Admin: "java-1", Trigger: at(base+3, 10)},  // base+2, late
		{JobID: 1, Admin: "java-1", Trigger: at(base+60, 0)},  // no push near: its own second
	}
	got := Plan(fires, "java-1", pushes)
	want := []int64{base, base + 1, base + 2, base + 2, base + 60}
	for i, f := range got {
		if f.Second() != want[i] {
			t.Errorf("fire %d: second %d, want %d", i, f.Second()-base, want[i]-base)
		}
	}
}

// TestMisfires reads the misfire lines of both admins.
func TestMisfires(t *testing.T) {
	loc, err := time.LoadLocation("Asia/Shanghai")
	if err != nil {
		t.Fatal(err)
	}
	p := NewPushLog(io.Discard, loc)
	line := "2026-11-25 08:36:39.001 WARN  [xxl-job, admin JobScheduleHelper#scheduleThread] c.x.j.a.c.t.JobScheduleHelper - >>>>>>>>>>> xxl-job, schedule misfire, jobId = 12\n"
	if _, err := p.Write([]byte(line)); err != nil {
		t.Fatal(err)
	}
	at := time.Date(2026, 11, 25, 8, 36, 39, 1e6, loc)
	if got := p.Misfires(); len(got) != 1 || got[0].JobID != 12 || !got[0].At.Equal(at) {
		t.Fatalf("java misfires %+v", got)
	}
	// 3.4.2 logs a misfire in its strategy's handler.
	line342 := "2026-11-25 08:36:40.002 WARN  [xxl-job, admin JobScheduleHelper#scheduleThread] c.x.j.a.b.s.m.s.MisfireDoNothing - >>>>>>>>>>> xxl-job, schedule MisfireDoNothing: jobId = 13\n"
	if _, err := p.Write([]byte(line342)); err != nil {
		t.Fatal(err)
	}
	if got := p.Misfires(); len(got) != 2 || got[1].JobID != 13 || !got[1].At.Equal(at.Add(1001*time.Millisecond)) {
		t.Fatalf("java 3.4.2 misfires %+v", got)
	}
	ours := cluster.OurMisfires([]byte(`{"level":"warn","component":"schedule","jobId":286,"plannedMs":1795566987363,"misfireStrategy":"DO_NOTHING","time":"2026-11-25T08:36:39+08:00","message":"schedule misfire"}` + "\n{}\n"))
	if len(ours) != 1 || ours[0].JobID != 286 || !ours[0].At.Equal(at.Truncate(time.Second)) {
		t.Fatalf("our misfires %+v", ours)
	}
}
