package i18n

import (
	"errors"
	"math"
	"testing"
	"time"
)

type stringerArg struct{}

func (stringerArg) String() string { return "stringer" }

type jobID int

// The bundle messages the scheduler formats (scheduler.md §12, child-job
// trigger text appended to handle_msg).
func TestBundleFormat(t *testing.T) {
	tests := []struct {
		lang, key string
		args      []any
		want      string
	}{
		{"en", "jobconf_callback_child_msg1", []any{1, 2, "3", "success", nil},
			"1/2 [Job ID=3], Trigger success, Trigger msg: null <br>"},
		{"zh_CN", "jobconf_callback_child_msg1", []any{1, 2, "3", "成功", "ok"},
			"1/2 [任务ID=3], 触发成功, 触发备注: ok <br>"},
		{"en", "jobconf_callback_child_msg2", []any{1234, 5000, "x1"},
			"1,234/5,000 [Job ID=x1], Trigger Fail, Trigger msg: Job ID is illegal <br>"},
		{"zh_TC", "jobconf_callback_child_msg2", []any{1, 1, "a"},
			"1/1 [任務ID=a], 觸發失败, 觸發備註: 任務ID格式錯誤 <br>"},
		// Fewer arguments than elements: Java prints the element back.
		{"en", "jobconf_callback_child_msg1", []any{1, 2},
			"1/2 [Job ID={2}], Trigger {3}, Trigger msg: {4} <br>"},
		// Values without elements are returned as stored.
		{"en", "system_ok", []any{"x"}, "Confirm "},
	}
	for _, tc := range tests {
		if got := Load(tc.lang).Format(tc.key, tc.args...); got != tc.want {
			t.Errorf("%s %s%v = %q, want %q", tc.lang, tc.key, tc.args, got, tc.want)
		}
	}
}

// java.text.MessageFormat.format semantics for {n} elements.
func TestFormatPattern(t *testing.T) {
	var nilPtr *int
	tests := []struct {
		name    string
		pattern string
		args    []any
		want    string
	}{
		{"grouping", "{0}", []any{1234}, "1,234"},
		{"no grouping below 1000", "{0}", []any{999}, "999"},
		{"negative grouping", "{0}", []any{-1234567}, "-1,234,567"},
		{"int64", "{0}", []any{int64(9007199254740993)}, "9,007,199,254,740,993"},
		{"uint", "{0}", []any{uint32(1000000)}, "1,000,000"},
		{"int8", "{0}", []any{int8(-5)}, "-5"},
		{"named int", "{0}", []any{jobID(12345)}, "12,345"},
		{"float rounds to 3 digits", "{0}", []any{1234.5678}, "1,234.568"},
		{"float trims zeros", "{0}", []any{2.0}, "2"},
		{"float shortest", "{0}", []any{0.1 + 0.2}, "0.3"},
		{"float half-even tie", "{0}", []any{1.0625}, "1.062"},
		{"float32", "{0}", []any{float32(1.1)}, "1.1"},
		{"negative zero", "{0}", []any{-0.0001}, "-0"},
		{"large float", "{0}", []any{1e21}, "1,000,000,000,000,000,000,000"},
		{"NaN", "{0}", []any{math.NaN()}, "NaN"},
		{"infinity", "{0}", []any{math.Inf(-1)}, "-∞"},
		{"string as is", "{0}", []any{"1234"}, "1234"},
		{"nil", "{0}", []any{nil}, "null"},
		{"typed nil", "{0}", []any{nilPtr}, "null"},
		{"bool", "{0}", []any{true}, "true"},
		{"stringer", "{0}", []any{stringerArg{}}, "stringer"},
		{"duration is a stringer", "{0}", []any{1500 * time.Millisecond}, "1.5s"},
		{"error", "{0}", []any{errors.New("boom")}, "boom"},
		{"repeat and order", "{1}-{0}-{1}", []any{"a", "b"}, "b-a-b"},
		{"missing arg", "{0} {1}", []any{"a"}, "a {1}"},
		{"no args", "x {0}", nil, "x {0}"},
		{"sign in index", "{+1}", []any{"a", "b"}, "b"},
		{"sign in missing index", "{+1}", nil, "{1}"},
		{"doubled quote", "it''s {0}", []any{"x"}, "it's x"},
		{"quoted braces", "'{0}' {0}", []any{"x"}, "{0} x"},
		{"quote inside quoted text", "'it''s {0}' {0}", []any{"x"}, "it's {0} x"},
		{"lone quote quotes to end", "don't {0}", []any{"x"}, "dont {0}"},
		{"closing brace is literal", "a } b {0}", []any{"x"}, "a } b x"},
		{"no elements", "100% sure", []any{"x"}, "100% sure"},
		{"empty", "", nil, ""},
		// Java throws IllegalArgumentException for these; we return the pattern.
		{"unmatched brace", "a {0", []any{"x"}, "a {0"},
		{"non-numeric index", "{x}", []any{"x"}, "{x}"},
		{"negative index", "{-1}", []any{"x"}, "{-1}"},
		{"empty index", "{}", []any{"x"}, "{}"},
		{"format type unsupported", "{0,number}", []any{1}, "{0,number}"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := FormatPattern(tc.pattern, tc.args...); got != tc.want {
				t.Errorf("FormatPattern(%q, %v) = %q, want %q", tc.pattern, tc.args, got, tc.want)
			}
		})
	}
}

func TestGroupDigits(t *testing.T) {
	for in, want := range map[string]string{
		"0": "0", "100": "100", "1000": "1,000", "-100": "-100", "-1000": "-1,000",
		"123456": "123,456", "1234567": "1,234,567",
	} {
		if got := groupDigits(in); got != want {
			t.Errorf("groupDigits(%q) = %q, want %q", in, got, want)
		}
	}
}
