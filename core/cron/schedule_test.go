package cron

import (
	"errors"
	"fmt"
	"os"
	"strings"
	"testing"
	"time"
)

// TestNextTime covers generateNextValidTime per schedule type
// (scheduler.md §2). The FIX_RATE 32-bit overflow of 2.4.2 (N*1000 in int
// arithmetic, so 2592000 s became -1702967296 ms) is a bug 3.1.0 fixed
// (PR-3708/PR-3704, Long.parseLong(conf) * 1000L); we follow the fix on
// both generations.
func TestNextTime(t *testing.T) {
	from := time.Date(2024, 11, 16, 10, 15, 30, 500e6, time.UTC)
	tests := []struct {
		name   string
		typ    string
		conf   string
		want   time.Time
		wantOK bool
	}{
		{"cron", TypeCron, "*/5 * * * * ?", time.Date(2024, 11, 16, 10, 15, 35, 0, time.UTC), true},
		{"cron no future", TypeCron, "0 0 0 1 1 ? 2020", time.Time{}, false},
		{"fix rate keeps ms", TypeFixRate, "30", from.Add(30 * time.Second), true},
		{"fix rate signed", TypeFixRate, "+5", from.Add(5 * time.Second), true},
		{"fix rate negative", TypeFixRate, "-5", from.Add(-5 * time.Second), true},
		{"fix rate largest exact", TypeFixRate, "2147483", from.Add(2147483 * time.Second), true},
		{"fix rate 30 days", TypeFixRate, "2592000", from.Add(30 * 24 * time.Hour), true},
		{"fix rate past the old wrap", TypeFixRate, "2147484", from.Add(2147484 * time.Second), true},
		{"fix rate largest int", TypeFixRate, "2147483647", from.Add(2147483647 * time.Second), true},
		{"none", TypeNone, "", time.Time{}, false},
		{"unknown", "FIX_DELAY", "5", time.Time{}, false},
		{"case-sensitive", "cron", "* * * * * ?", time.Time{}, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, ok, err := NextTime(tt.typ, tt.conf, from, time.UTC)
			if err != nil {
				t.Fatalf("err = %v", err)
			}
			if ok != tt.wantOK || !got.Equal(tt.want) {
				t.Errorf("got %v (ok=%v), want %v (ok=%v)", got, ok, tt.want, tt.wantOK)
			}
		})
	}
}

// TestNextTimeErrors checks that bad confs are errors whose Java message is
// recoverable (console.md §5 nextTriggerTime repeats it).
func TestNextTimeErrors(t *testing.T) {
	from := time.Date(2024, 1, 1, 0, 0, 0, 0, time.UTC)
	tests := []struct {
		typ, conf, msg string
	}{
		{TypeCron, "* * * * *", "Unexpected end of expression."},
		{TypeFixRate, "abc", `For input string: "abc"`},
		{TypeFixRate, "", `For input string: ""`},
		{TypeFixRate, " 5", `For input string: " 5"`},
		{TypeFixRate, "2147483648", `For input string: "2147483648"`},
	}
	for _, tt := range tests {
		_, _, err := NextTime(tt.typ, tt.conf, from, time.UTC)
		var pe *ParseError
		var fe *FixRateError
		switch {
		case errors.As(err, &pe):
			if pe.Message != tt.msg {
				t.Errorf("%s %q: message %q, want %q", tt.typ, tt.conf, pe.Message, tt.msg)
			}
		case errors.As(err, &fe):
			if fe.Error() != tt.msg {
				t.Errorf("%s %q: message %q, want %q", tt.typ, tt.conf, fe.Error(), tt.msg)
			}
		default:
			t.Errorf("%s %q: err = %v, want a Java-message error", tt.typ, tt.conf, err)
		}
	}
	// A search the Java class never finishes is an error, not "no time".
	if _, _, err := NextTime(TypeCron, "0 0 0 0W * ?", from, time.UTC); err == nil {
		t.Error("endless search: want error")
	}
}

// TestParseFixRate checks Integer.valueOf semantics for FIX_RATE confs.
func TestParseFixRate(t *testing.T) {
	tests := []struct {
		conf string
		want int
		ok   bool
	}{
		{"60", 60, true},
		{"+60", 60, true},
		{"-1", -1, true},
		{"2147483647", 2147483647, true},
		{"-2147483648", -2147483648, true},
		{"٣", 3, true}, // Java accepts any Unicode decimal digit
		{"2147483648", 0, false},
		{"1.5", 0, false},
		{"+", 0, false},
		{"", 0, false},
	}
	for _, tt := range tests {
		got, err := ParseFixRate(tt.conf)
		if (err == nil) != tt.ok || got != tt.want {
			t.Errorf("ParseFixRate(%q) = %d, %v; want %d, ok=%v", tt.conf, got, err, tt.want, tt.ok)
		}
	}
}

// TestFixRate342 checks 3.4.2's FixRateScheduleType.generateNextTriggerTime
// (3.4.0 release note 9): the next time is rounded up to a whole second
// when it has milliseconds; FixRate242 keeps them. The vectors were run
// through the 3.4.2 class itself (testdata/FixRate342.txt, see
// TestFixRateVectors342).
func TestFixRate342(t *testing.T) {
	sh := time.FixedZone("CST", 8*3600)
	for _, tc := range []struct {
		from time.Time
		conf string
		want time.Time
	}{
		{time.Date(2026, 11, 27, 14, 0, 0, 0, sh), "30", time.Date(2026, 11, 27, 14, 0, 30, 0, sh)},
		{time.Date(2026, 11, 27, 14, 0, 0, 1e6, sh), "30", time.Date(2026, 11, 27, 14, 0, 31, 0, sh)},
		{time.Date(2026, 11, 27, 14, 0, 0, 999e6, sh), "1", time.Date(2026, 11, 27, 14, 0, 2, 0, sh)},
		{time.Date(2026, 11, 27, 14, 0, 0, 500e6, sh), "2592000", time.Date(2026, 12, 27, 14, 0, 1, 0, sh)},
	} {
		got, ok, err := NextTimeWith(FixRate342, TypeFixRate, tc.conf, tc.from, sh)
		if err != nil || !ok || !got.Equal(tc.want) {
			t.Errorf("FixRate342 %s + %s = %v, %v, %v; want %v", tc.from, tc.conf, got, ok, err, tc.want)
		}
		old, _, _ := NextTimeWith(FixRate242, TypeFixRate, tc.conf, tc.from, sh)
		if n, _ := ParseFixRate(tc.conf); !old.Equal(tc.from.Add(time.Duration(n) * time.Second)) {
			t.Errorf("FixRate242 %s + %s = %v, want the milliseconds kept", tc.from, tc.conf, old)
		}
	}
}

// TestFixRateVectors342 replays testdata/fixrate-3.4.2.txt, the 3.4.2
// class's own answers (testdata/FixRateVectors.java on the reference
// jar): whole-second rounding and no 32-bit wrap.
func TestFixRateVectors342(t *testing.T) {
	raw, err := os.ReadFile("testdata/fixrate-3.4.2.txt")
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for line := range strings.SplitSeq(strings.TrimSpace(string(raw)), "\n") {
		if strings.HasPrefix(line, "#") {
			continue
		}
		var from, want int64
		var conf string
		if _, err := fmt.Sscan(line, &from, &conf, &want); err != nil {
			t.Fatalf("%q: %v", line, err)
		}
		got, ok, err := NextTimeWith(FixRate342, TypeFixRate, conf, time.UnixMilli(from), time.UTC)
		if err != nil || !ok || got.UnixMilli() != want {
			t.Errorf("from %d + %s s = %d (%v, %v), Java %d", from, conf, got.UnixMilli(), ok, err, want)
		}
		n++
	}
	if n < 10 {
		t.Fatalf("only %d vectors", n)
	}
}
