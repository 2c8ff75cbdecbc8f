package jobs

import (
	"testing"
	"time"

	"github.com/xxl-admin-go/xxl-admin-go/internal/testsupport/storetest"
)

// TestNextTriggerTimes follows recording jobinfo_nextTriggerTime.en.
func TestNextTriggerTimes(t *testing.T) {
	svc := newService(storetest.SQLite(t), "en", time.Date(2026, 11, 23, 7, 2, 34, 0, time.UTC))
	cases := []struct {
		typ, conf string
		want      []string
		err       string
	}{
		{"CRON", "0 0 1 * * ?", []string{"2026-11-24 01:00:00", "2026-11-25 01:00:00", "2026-11-26 01:00:00", "2026-11-27 01:00:00", "2026-11-28 01:00:00"}, ""},
		{"CRON", "0 0 1 1 1 ? 2020", nil, ""},
		{"CRON", "bad cron", nil, "Schedule TypeillegalIllegal characters for this position: 'BAD'"},
		{"CRON", "", nil, "Schedule TypeillegalUnexpected end of expression."},
		{"FIX_RATE", "60", []string{"2026-11-23 07:03:34", "2026-11-23 07:04:34", "2026-11-23 07:05:34", "2026-11-23 07:06:34", "2026-11-23 07:07:34"}, ""},
		{"FIX_RATE", "abc", nil, `Schedule TypeillegalFor input string: "abc"`},
		{"NONE", "", nil, ""},
		{"WEEKLY", "1", nil, ""},
	}
	for _, c := range cases {
		got, err := svc.NextTriggerTimes(c.typ, c.conf, 5)
		if c.err != "" {
			if r, ok := err.(*Refusal); !ok || r.Msg != c.err {
				t.Errorf("%s %q: err %v, want %q", c.typ, c.conf, err, c.err)
			}
			continue
		}
		if err != nil {
			t.Fatalf("%s %q: %v", c.typ, c.conf, err)
		}
		var txt []string
		for _, tm := range got {
			txt = append(txt, tm.Format(time.DateTime))
		}
		if len(txt) != len(c.want) || (len(txt) > 0 && txt[0] != c.want[0]) || (len(txt) > 4 && txt[4] != c.want[4]) {
			t.Errorf("%s %q: %v, want %v", c.typ, c.conf, txt, c.want)
		}
	}
}
