package api

import (
	"bytes"
	"encoding/json"
	"strconv"
	"unicode/utf8"
)

// gsonJSON encodes a request body byte-for-byte as the Java admin's Gson
// does (recording admin_client_probe). A TriggerParam, the body of every
// /run, goes through its own encoder (TriggerParam.appendGson); the other
// bodies through gsonReflect.
func gsonJSON(v any) ([]byte, error) {
	if p, ok := v.(TriggerParam); ok {
		return p.appendGson(nil), nil
	}
	return gsonReflect(v)
}

// gsonReflect encodes any value as Gson does. Member order and null
// omission come from the struct definitions; encoding/json already escapes
// <, >, &, U+2028 and U+2029 like Gson's HTML-safe writer, and the two
// characters it leaves alone, = and ', are escaped here. They can only
// occur inside string literals of encoding/json output, so a byte replace
// is exact.
func gsonReflect(v any) ([]byte, error) {
	b, err := json.Marshal(v)
	if err != nil {
		return nil, err
	}
	if bytes.IndexByte(b, '=') >= 0 {
		b = bytes.ReplaceAll(b, []byte("="), []byte(`\u003d`))
	}
	if bytes.IndexByte(b, '\'') >= 0 {
		b = bytes.ReplaceAll(b, []byte("'"), []byte(`\u0027`))
	}
	return b, nil
}

// appendGson appends the /run body: the bytes gsonReflect produces for p
// (FuzzTriggerParamEncoding holds the two to each other), without
// reflection and without allocating beyond dst's growth — thousands of
// /run bodies a second were one of the larger allocations of a trigger.
func (p TriggerParam) appendGson(dst []byte) []byte {
	dst = append(dst, `{"jobId":`...)
	dst = strconv.AppendInt(dst, int64(p.JobID), 10)
	dst = appendGsonMember(dst, `,"executorHandler":`, p.ExecutorHandler)
	dst = appendGsonMember(dst, `,"executorParams":`, p.ExecutorParams)
	dst = appendGsonMember(dst, `,"executorBlockStrategy":`, p.ExecutorBlockStrategy)
	dst = append(dst, `,"executorTimeout":`...)
	dst = strconv.AppendInt(dst, int64(p.ExecutorTimeout), 10)
	dst = append(dst, `,"logId":`...)
	dst = strconv.AppendInt(dst, p.LogID, 10)
	dst = append(dst, `,"logDateTime":`...)
	dst = strconv.AppendInt(dst, p.LogDateTime, 10)
	dst = append(dst, `,"glueType":`...)
	dst = appendGsonString(dst, p.GlueType)
	dst = appendGsonMember(dst, `,"glueSource":`, p.GlueSource)
	dst = append(dst, `,"glueUpdatetime":`...)
	dst = strconv.AppendInt(dst, p.GlueUpdatetime, 10)
	dst = append(dst, `,"broadcastIndex":`...)
	dst = strconv.AppendInt(dst, int64(p.BroadcastIndex), 10)
	dst = append(dst, `,"broadcastTotal":`...)
	dst = strconv.AppendInt(dst, int64(p.BroadcastTotal), 10)
	return append(dst, '}')
}

// appendGsonMember appends a nullable string member; Gson leaves out a null.
func appendGsonMember(dst []byte, key string, v *string) []byte {
	if v == nil {
		return dst
	}
	return appendGsonString(append(dst, key...), *v)
}

// gsonSafe marks the ASCII bytes a Gson HTML-safe writer copies as they
// are: printable ASCII and DEL, but for " and \ (escaped with a
// backslash) and <, >, &, = and ' (escaped as \u00XX).
var gsonSafe = func() (t [utf8.RuneSelf]bool) {
	for b := ' '; b < utf8.RuneSelf; b++ {
		t[b] = true
	}
	for _, b := range `"\<>&='` {
		t[b] = false
	}
	return t
}()

const lowerHex = "0123456789abcdef"

// appendGsonString appends s as a JSON string the way encoding/json's
// HTML-safe encoder does, with = and ' escaped too (gsonReflect): control
// characters as \b \f \n \r \t or \u00XX, invalid UTF-8 as \ufffd,
// U+2028 and U+2029 as escapes, everything else as is.
func appendGsonString(dst []byte, s string) []byte {
	dst = append(dst, '"')
	start := 0
	for i := 0; i < len(s); {
		b := s[i]
		if b < utf8.RuneSelf {
			if gsonSafe[b] {
				i++
				continue
			}
			dst = append(dst, s[start:i]...)
			switch b {
			case '\\', '"':
				dst = append(dst, '\\', b)
			case '\b':
				dst = append(dst, '\\', 'b')
			case '\f':
				dst = append(dst, '\\', 'f')
			case '\n':
				dst = append(dst, '\\', 'n')
			case '\r':
				dst = append(dst, '\\', 'r')
			case '\t':
				dst = append(dst, '\\', 't')
			default:
				dst = append(dst, '\\', 'u', '0', '0', lowerHex[b>>4], lowerHex[b&0xF])
			}
			i++
			start = i
			continue
		}
		c, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case c == utf8.RuneError && size == 1:
			dst = append(dst, s[start:i]...)
			dst = append(dst, `\ufffd`...)
		case c == '\u2028' || c == '\u2029':
			dst = append(dst, s[start:i]...)
			dst = append(dst, '\\', 'u', '2', '0', '2', lowerHex[c&0xF])
		default:
			i += size
			continue
		}
		i += size
		start = i
	}
	dst = append(dst, s[start:]...)
	return append(dst, '"')
}
