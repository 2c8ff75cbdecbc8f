package trigger

import "unicode/utf8"

// textColumnBytes is the capacity of a MySQL TEXT column (trigger_msg).
const textColumnBytes = 65535

// clipPtr shortens a value to a VARCHAR(n) column's n characters. Java
// writes the full value and the UPDATE fails under strict sql_mode after
// the executor was already called (schema.md §1); a clipped log value is
// the lesser harm.
func clipPtr(s *string, n int) *string {
	if s == nil || utf8.RuneCountInString(*s) <= n {
		return s
	}
	r := []rune(*s)
	v := string(r[:n])
	return &v
}

// clipBytes shortens s to at most n bytes on a character boundary.
func clipBytes(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n]
}
