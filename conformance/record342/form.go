package main

import (
	"fmt"
	"strings"
)

// form is a list of form fields in the order the page sends them.
type form [][2]string

// kv builds a form from name, value pairs.
func kv(pairs ...string) form {
	if len(pairs)%2 != 0 {
		panic("kv: odd number of arguments") // a scenario definition error
	}
	f := form{}
	for i := 0; i < len(pairs); i += 2 {
		f = append(f, [2]string{pairs[i], pairs[i+1]})
	}
	return f
}

// with returns a copy of f with the named fields' values replaced (or
// removed, for the value remove) and new ones appended.
func (f form) with(pairs ...string) form {
	out := append(form{}, f...)
	for i := 0; i < len(pairs); i += 2 {
		name, value := pairs[i], pairs[i+1]
		found := false
		for j := 0; j < len(out); j++ {
			if out[j][0] == name {
				found = true
				if value == remove {
					out = append(out[:j], out[j+1:]...)
					j--
				} else {
					out[j][1] = value
				}
			}
		}
		if !found && value != remove {
			out = append(out, [2]string{name, value})
		}
	}
	return out
}

// remove, as a value in form.with, drops the field.
const remove = "\x00remove"

// encode is jQuery's $.param: encodeURIComponent of names and values,
// %20 as '+'.
func (f form) encode() string {
	parts := make([]string, len(f))
	for i, p := range f {
		parts[i] = uriComponent(p[0]) + "=" + uriComponent(p[1])
	}
	return strings.Join(parts, "&")
}

// uriComponent is JavaScript's encodeURIComponent followed by jQuery's
// replacement of %20 with '+'.
func uriComponent(s string) string {
	var b strings.Builder
	for _, c := range []byte(s) {
		switch {
		case c >= 'a' && c <= 'z', c >= 'A' && c <= 'Z', c >= '0' && c <= '9',
			strings.IndexByte("-_.!~*'()", c) >= 0:
			b.WriteByte(c)
		case c == ' ':
			b.WriteByte('+')
		default:
			fmt.Fprintf(&b, "%%%02X", c)
		}
	}
	return b.String()
}
