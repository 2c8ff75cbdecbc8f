package thread

import (
	"testing"
	"unicode"
)

// Every BMP range of Unicode's decimal digits is whole runs of ten
// starting at a zero, which digitValue relies on.
func TestDigitRangesStartAtZero(t *testing.T) {
	for _, rg := range unicode.Nd.R16 {
		if rg.Stride != 1 || (rg.Hi-rg.Lo+1)%10 != 0 {
			t.Errorf("Nd range %U–%U stride %d is not runs of ten", rg.Lo, rg.Hi, rg.Stride)
		}
	}
}

// The two readings of a child_jobid item: ChildRule242 is this port's 2.x
// reading of XxlJobCompleter.isNumeric / Integer.valueOf (ASCII digits
// only; Java's valueOf would also take other scripts' digits, left alone
// for 2.x), ChildRule342 3.4.2's StringTool.isNumeric + Integer.parseInt
// (JobCompleter.java lines 66–69).
func TestChildID(t *testing.T) {
	for _, tc := range []struct {
		item  string
		id242 int // 0: not a child
		id342 int
	}{
		{"5", 5, 5},
		{"007", 7, 7},
		{"+5", 5, 0}, // a sign is not a digit in 3.4.2
		{"-5", 0, 0}, // negative in 2.4.2, not numeric in 3.4.2
		{"0", 0, 0},  // not positive
		{" 5", 0, 0}, // untrimmed items are not numbers in either
		{"5 ", 0, 0},
		{"", 0, 0},
		{"x", 0, 0},
		{"5.0", 0, 0},
		{"2147483647", 2147483647, 2147483647},
		{"2147483648", 0, 0}, // Java 3.4.2 throws NumberFormatException here (see ChildRule342)
		{"５", 0, 5},          // FULLWIDTH DIGIT FIVE: Character.isDigit and parseInt accept it
		{"١٢", 0, 12},        // ARABIC-INDIC ONE TWO
		{"𝟓", 0, 0},          // MATHEMATICAL BOLD DIGIT FIVE is outside the BMP: two chars, neither a digit
	} {
		for _, r := range []struct {
			rule ChildRule
			want int
		}{{ChildRule242, tc.id242}, {ChildRule342, tc.id342}} {
			got, ok := r.rule.childID(tc.item)
			if got != r.want || ok != (r.want != 0) {
				t.Errorf("rule %d childID(%q) = %d, %v; want %d", r.rule, tc.item, got, ok, r.want)
			}
		}
	}
}
