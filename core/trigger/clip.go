package trigger

import (
	"unicode/utf8"

	"github.com/xxl-admin-go/xxl-admin-go/compat/schema"
)

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

// clipParam fits an executor_param to the log column of the database's
// generation: varchar(512) on 2.x, text on 3.x (widened in 3.4.0, schema
// §3.x), where the whole value is kept up to a MySQL TEXT's bytes.
func (f *Flow) clipParam(s *string) *string {
	if f.store.Generation() != schema.Gen3 {
		return clipPtr(s, 512)
	}
	if s == nil || len(*s) <= textColumnBytes {
		return s
	}
	v := clipBytes(*s, textColumnBytes)
	return &v
}
