package cron

import (
	"errors"
	"testing"
)

// TestParseErrors checks rejected texts and the message of the Java 2.4.2
// parser (scheduler.md §2.1; messages as in CronExpression, see also the
// invalid rows of quartz-vectors.json).
func TestParseErrors(t *testing.T) {
	tests := []struct {
		expr string
		msg  string
	}{
		{"* * * * *", "Unexpected end of expression."},
		{"", "Unexpected end of expression."},
		{"0 0 0 * * *", "Support for specifying both a day-of-week AND a day-of-month parameter is not implemented."},
		{"0 0 0 ? * ?", "'?' can only be specified for Day-of-Month -OR- Day-of-Week."},
		{"? * * * * *", "'?' can only be specified for Day-of-Month or Day-of-Week."},
		{"0 0 0 ?AB * ?", "Illegal character after '?': A"},
		{"60 * * * * ?", "Minute and Second values must be between 0 and 59"},
		{"0 0 24 * * ?", "Hour values must be between 0 and 23"},
		{"0 0 0 0 * ?", "Day of month values must be between 1 and 31"},
		{"0 0 0 1 1-13 ?", "Month values must be between 1 and 12"},
		{"0 0 0 ? * 0", "Day-of-Week values must be between 1 and 7"},
		{"0 0 0 ? * 9L", "Day-of-Week values must be between 1 and 7"},
		{"*/60 * * * * ?", "Increment > 60 : 60"},
		{"0 0 */24 * * ?", "Increment > 24 : 24"},
		{"0 0 0 */32 * ?", "Increment > 31 : 32"},
		{"0 0 0 1 */13 ?", "Increment > 12 : 13"},
		{"0 0 0 ? * 1/8", "Increment > 7 : 8"},
		{"/ * * * * ?", "'/' must be followed by an integer."},
		{"5/ * * * * ?", "'/' must be followed by an integer."},
		{"*/ * * * * ?", "Unexpected end of string."},
		{"5/1x * * * * ?", "Unexpected character 'X' after '/'"},
		{"-5 * * * * ?", "Unexpected character: -"},
		{"0 0 0 5L * ?", "'L' option is not valid here. (pos=1)"},
		{"0 0 0 ? * 5W", "'W' option is not valid here. (pos=1)"},
		{"0 0 0 15#2 * ?", "'#' option is not valid here. (pos=2)"},
		{"0 0 0 32W * ?", "The 'W' option does not make sense with values larger than 31 (max number of days in a month)"},
		{"0 0 0 ? * MON#6", "A numeric value between 1 and 5 must follow the '#' option"},
		{"0 0 0 ? * 2#", "A numeric value between 1 and 5 must follow the '#' option"},
		{"0 0 0 ? * 2#1,3#2", `Support for specifying multiple "nth" days is not implemented.`},
		{"0 0 0 L,15 * ?", "Support for specifying 'L' and 'LW' with other days of the month is not implemented"},
		{"0 0 0 ? * 6L,2", "Support for specifying 'L' with other days of the week is not implemented"},
		{"0 0 0 L-31 * ?", "Offset from last day must be <= 30"},
		{"0 0 0 1 FOO ?", "Invalid Month value: 'FOO'"},
		{"0 0 0 1 JAN-FOO ?", "Invalid Month value: 'FOO'"},
		{"0 0 0 ? * MON-FOO", "Invalid Day-of-Week value: 'FOO'"},
		{"0 0 0 L5X * ?", "Illegal characters for this position: 'L5X'"},
		// Java runtime exceptions escaping the parser are rewrapped.
		{"AB * * * * ?", "Illegal cron expression format (java.lang.StringIndexOutOfBoundsException: begin 0, end 3, length 2)"},
		{"0 0 0 1 JAN-F ?", "Illegal cron expression format (java.lang.StringIndexOutOfBoundsException: begin 4, end 7, length 5)"},
		{"*/5x * * * * ?", `Illegal cron expression format (java.lang.NumberFormatException: For input string: "5X")`},
		{"5-x * * * * ?", `Illegal cron expression format (java.lang.NumberFormatException: For input string: "X")`},
		{"0 0 0 1 1 ? 2030-2025", "Illegal cron expression format (java.lang.IllegalArgumentException: Start year must be less than stop year)"},
		{"0 0 0 1 1 ? 99999999999", `Illegal cron expression format (java.lang.NumberFormatException: For input string: "99999999999")`},
		{"0 0 0 \x01 * ?", "Illegal cron expression format (java.util.NoSuchElementException)"},
	}
	for _, tt := range tests {
		t.Run(tt.expr, func(t *testing.T) {
			_, err := parseWithMaxYear(tt.expr, 2124)
			var pe *ParseError
			if !errors.As(err, &pe) {
				t.Fatalf("err = %v, want ParseError %q", err, tt.msg)
			}
			if pe.Message != tt.msg {
				t.Errorf("message %q, want %q", pe.Message, tt.msg)
			}
			if Validate(tt.expr) == nil {
				t.Errorf("Validate accepted %q", tt.expr)
			}
		})
	}
}

// TestParseAccepts covers texts the Java class accepts although they look
// wrong; rejecting them would refuse jobs the Java admin stored
// (scheduler.md §2.1: validation is "can it be parsed").
func TestParseAccepts(t *testing.T) {
	for _, expr := range []string{
		"0 0 12 * * ?",
		"0 0 12 * * ? 2025 extra tokens ignored",
		"5X * * * * ?",          // trailing characters after a value are ignored
		"99 * * * * ?",          // 99 is the '*' marker value
		"0 0 0 98 * MON",        // 98 is the '?' marker value
		"0 0 0 1 JANUARY ?",     // only three letters of a name count
		"0 0 0 ? * mon-fri",     // case-insensitive
		"0 0 0 L-0W * ?",        // L-n with W
		"0 0 0 L-W * ?",         // empty offset is 0
		"0 0 0 ? * L",           // L alone in day-of-week is Saturday
		"0 0 0 ? * 9#2",         // n of n#k is not range-checked
		"0 0 0 0W * ?",          // nor is the day of nW
		"*/-5 * * * * ?",        // negative step means every value
		"0 0 0 1-5/0 * ?",       // zero step stores only the start
		"L * * * * ?",           // L outside day fields stores nothing
		"0 0 0 1 1 ? 1900-1950", // years before 1970
		"0 0 0 ?5 * MON",        // one char after '?' is ignored
	} {
		if err := Validate(expr); err != nil {
			t.Errorf("Validate(%q) = %v, want accepted", expr, err)
		}
	}
}

// TestStringUpperCases checks that the stored text is upper-cased like the
// Java class's getCronExpression.
func TestStringUpperCases(t *testing.T) {
	e, err := Parse("0 0 12 ? * mon")
	if err != nil {
		t.Fatal(err)
	}
	if got := e.String(); got != "0 0 12 ? * MON" {
		t.Errorf("String() = %q", got)
	}
}
