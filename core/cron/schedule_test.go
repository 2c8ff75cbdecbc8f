package cron

import (
	"errors"
	"testing"
	"time"
)

// TestNextTime covers generateNextValidTime per schedule type
// (scheduler.md §2, including the FIX_RATE 32-bit overflow quirk).
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
		// 2592000*1000 wraps to -1702967296 in Java int arithmetic.
		{"fix rate 30 days wraps", TypeFixRate, "2592000", from.Add(-1702967296 * time.Millisecond), true},
		{"fix rate first wrap", TypeFixRate, "2147484", from.Add(-2147483296 * time.Millisecond), true},
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
