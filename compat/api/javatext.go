package api

import "strings"

// Java has two notions of "blank" and the admin uses both; they disagree on
// characters such as U+0000 (trimmed, not whitespace) and U+2003 (whitespace,
// not trimmed), so each check uses the one its Java counterpart uses.

// javaTrim strips what String.trim() strips: every char <= U+0020 at
// either end.
func javaTrim(s string) string {
	return strings.TrimFunc(s, func(r rune) bool { return r <= ' ' })
}

// isTrimBlank is Java's `s == null || s.trim().length() == 0`.
func isTrimBlank(s string) bool { return javaTrim(s) == "" }

// hasText is Spring's StringUtils.hasText: some char is not
// Character.isWhitespace.
func hasText(s string) bool {
	return strings.IndexFunc(s, func(r rune) bool { return !javaIsWhitespace(r) }) >= 0
}

// javaIsWhitespace is Character.isWhitespace: the Unicode space, line and
// paragraph separators except the no-break spaces, plus the ASCII controls
// \t \n \v \f \r and U+001C..U+001F.
func javaIsWhitespace(r rune) bool {
	switch {
	case r >= '\t' && r <= '\r', r >= 0x1C && r <= 0x1F, r == ' ':
		return true
	case r == 0xA0, r == 0x2007, r == 0x202F:
		return false
	case r == 0x1680, r >= 0x2000 && r <= 0x200A, r == 0x2028, r == 0x2029, r == 0x205F, r == 0x3000:
		return true
	}
	return false
}
