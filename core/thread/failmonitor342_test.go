package thread

import (
	"context"
	"testing"
	"time"

	"github.com/rs/zerolog"

	"github.com/xxl-admin-go/xxl-admin-go/compat/i18n"
	"github.com/xxl-admin-go/xxl-admin-go/internal/testsupport/storetest"
)

// TestFailMonitorRetryMarker342: the 3.4.2 admin marks a retried row in
// the run header's blue (JobFailAlarmMonitorHelper.java 3.4.2 line 53,
// where 2.4.2's line 56 wrote orange), with the 3.4.2 bundle's text, and
// a row already carrying that marker is not retried again.
func TestFailMonitorRetryMarker342(t *testing.T) {
	s := storetest.SQLite(t)
	ctx := context.Background()
	a, r := &alarmRecorder{result: true}, &retryRecorder{}
	m := NewFailMonitor(FailMonitorConfig{Store: s, Texts: i18n.LoadFor(3, "zh_CN"), Trigger: r, Alarm: a,
		Now: time.Now, Log: zerolog.Nop(), ReclaimEvery: 1, StuckAfter: time.Minute, RetryColor: RetryColor342})
	id := failedLog(t, s, 1, 2, "")
	if err := m.Pass(ctx); err != nil {
		t.Fatal(err)
	}
	l, err := s.LogLoad(ctx, id)
	if err != nil {
		t.Fatal(err)
	}
	want := `trigger failed<br><br><span style="color:#00c0ef;" > >>>>>>>>>>>失败重试触发<<<<<<<<<<< </span><br>`
	if *l.TriggerMsg != want || len(r.reqs) != 1 {
		t.Fatalf("trigger_msg %q (want %q), %d retries", *l.TriggerMsg, want, len(r.reqs))
	}
}
