package thread

import (
	"strconv"
	"unicode"
)

// ChildRule is how the completer reads the items of a job's child_jobid
// (executor-protocol.md §2.5); app picks it from the database's generation.
type ChildRule int

const (
	// ChildRule242 is XxlJobCompleter of 2.4.2: an item is a child when
	// Integer.valueOf accepts it (an optional sign, ASCII digits, 32-bit)
	// and it is positive; a job may name itself and then triggers itself.
	ChildRule242 ChildRule = iota
	// ChildRule342 is JobCompleter of 3.4.2 (JobCompleter.java lines
	// 66–80): an item is a child when StringTool.isNumeric accepts it
	// (only Unicode decimal digits, so no sign) and Integer.parseInt's
	// value is positive; an item naming the parent job itself is skipped
	// without a line, and a queued child's line ends "…: Success" where
	// 2.4.2's ends "…: null". Where Java's parseInt overflows (a numeric item over
	// 2147483647) the whole callback fails with NumberFormatException; we
	// show the item as an invalid child instead.
	ChildRule342
)

// triggerMsg is the trigger message a queued child's line shows: 2.4.2's
// ReturnT.SUCCESS has none (MessageFormat prints "null"), 3.4.2's
// Response.ofSuccess() carries "Success" (xxl-tool ResponseCode.SUCCESS).
func (r ChildRule) triggerMsg() any {
	if r == ChildRule342 {
		return "Success"
	}
	return nil
}

// childID is the child job id an item names, if it names one.
func (r ChildRule) childID(item string) (int, bool) {
	if r == ChildRule342 {
		return numericID(item)
	}
	id, err := strconv.ParseInt(item, 10, 32)
	if err != nil || id <= 0 {
		return 0, false
	}
	return int(id), true
}

// numericID reads item as StringTool.isNumeric and Integer.parseInt do:
// every UTF-16 unit a decimal digit of any script (Character.isDigit on a
// char, so digits outside the BMP do not count), each worth its digit
// value; positive and within int32.
func numericID(item string) (int, bool) {
	if item == "" {
		return 0, false
	}
	var n int64
	for _, r := range item {
		if r >= 0x10000 {
			return 0, false
		}
		d, ok := digitValue(r)
		if !ok {
			return 0, false
		}
		n = n*10 + int64(d)
		if n > 1<<31-1 {
			return 0, false
		}
	}
	return int(n), n > 0
}

// digitValue is Character.digit(r, 10) for a decimal digit: Unicode lays
// every script's digits out as a run of ten from its zero, and each range
// of the Nd table starts at a zero.
func digitValue(r rune) (int, bool) {
	if r >= '0' && r <= '9' {
		return int(r - '0'), true
	}
	if !unicode.Is(unicode.Nd, r) {
		return 0, false
	}
	for _, rg := range unicode.Nd.R16 {
		if rune(rg.Lo) <= r && r <= rune(rg.Hi) {
			return int(r-rune(rg.Lo)) % 10, true
		}
	}
	return 0, false
}
