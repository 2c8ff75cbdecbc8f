package cron

import (
	"fmt"
	"strconv"
	"unicode"
	"unicode/utf16"
)

// The parser works on UTF-16 code units because the Java class indexes
// strings by char; lengths and substring bounds in its error messages (and
// which inputs fail at all) depend on that.

// text16 converts a Go string to Java chars.
func text16(s string) []uint16 { return utf16.Encode([]rune(s)) }

// string16 converts Java chars back to a Go string for messages.
func string16(s []uint16) string { return string(utf16.Decode(s)) }

// equals16 reports whether s holds exactly the ASCII text lit.
func equals16(s []uint16, lit string) bool {
	if len(s) != len(lit) {
		return false
	}
	for i := range s {
		if s[i] != uint16(lit[i]) {
			return false
		}
	}
	return true
}

// javaRuntimeError renders a Java runtime exception the way Throwable.toString
// does; the parser wraps these into "Illegal cron expression format (...)".
type javaRuntimeError struct {
	class string
	msg   string
}

func (e *javaRuntimeError) Error() string {
	if e.msg == "" {
		return e.class
	}
	return e.class + ": " + e.msg
}

func errNoSuchElement() error {
	return &javaRuntimeError{class: "java.util.NoSuchElementException"}
}

func errNumberFormat(input string) error {
	return &javaRuntimeError{class: "java.lang.NumberFormatException", msg: "For input string: " + strconv.Quote(input)}
}

// charAt is String.charAt with its bounds failure (JDK 17 wording).
func charAt(s []uint16, i int) (uint16, error) {
	if i < 0 || i >= len(s) {
		return 0, &javaRuntimeError{class: "java.lang.StringIndexOutOfBoundsException", msg: fmt.Sprintf("index %d, length %d", i, len(s))}
	}
	return s[i], nil
}

// substring is String.substring(begin, end) with its bounds failure.
func substring(s []uint16, begin, end int) ([]uint16, error) {
	if begin < 0 || end > len(s) || begin > end {
		return nil, &javaRuntimeError{class: "java.lang.StringIndexOutOfBoundsException", msg: fmt.Sprintf("begin %d, end %d, length %d", begin, end, len(s))}
	}
	return s[begin:end], nil
}

func isASCIIDigit(c uint16) bool { return c >= '0' && c <= '9' }

// javaDigit is Character.digit(c, 10): any Unicode decimal digit counts,
// not only ASCII, because Integer.parseInt accepts them.
func javaDigit(c uint16) (int, bool) {
	r := rune(c)
	if isASCIIDigit(c) {
		return int(r - '0'), true
	}
	if !unicode.IsDigit(r) {
		return 0, false
	}
	// Decimal digits come in contiguous runs starting at a zero.
	start := r
	for start > 0 && unicode.IsDigit(start-1) {
		start--
	}
	return int(r-start) % 10, true
}

// parseJavaInt is Integer.parseInt(s) (radix 10): optional sign, at least one
// digit, 32-bit range.
func parseJavaInt(s []uint16) (int, error) {
	fail := errNumberFormat(string16(s))
	if len(s) == 0 {
		return 0, fail
	}
	i, neg := 0, false
	if s[0] < '0' {
		switch s[0] {
		case '-':
			neg = true
		case '+':
		default:
			return 0, fail
		}
		if len(s) == 1 {
			return 0, fail
		}
		i = 1
	}
	var n int64
	for ; i < len(s); i++ {
		d, ok := javaDigit(s[i])
		if !ok {
			return 0, fail
		}
		n = n*10 + int64(d)
		if n > 1<<31 {
			return 0, fail
		}
	}
	if neg {
		n = -n
	}
	if n > 1<<31-1 || n < -(1<<31) {
		return 0, fail
	}
	return int(n), nil
}
