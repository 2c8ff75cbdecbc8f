package i18n

import (
	"fmt"
	"reflect"
	"strconv"
	"strings"
)

// FormatPattern renders pattern with the rules of java.text.MessageFormat.format
// for plain {n} elements, which is all the bundles use:
//   - a doubled apostrophe prints one apostrophe; a single one starts or ends
//     quoted text, so '{0}' prints {0} and "don't" prints "dont", as in Java;
//   - {n} with n beyond args prints "{n}";
//   - nil prints "null", strings print as is, integers and floats print like
//     Java's default NumberFormat (grouping commas, at most 3 fraction digits,
//     half-even), other values through their String/Error method or fmt.
//
// Where Java would throw IllegalArgumentException (unmatched brace, bad
// argument number) and for format types such as {0,number} or {0,date}, which
// this port does not need, the pattern is returned unformatted rather than
// failing the caller.
func FormatPattern(pattern string, args ...any) string {
	if !strings.ContainsAny(pattern, "'{") {
		return pattern
	}
	var b strings.Builder
	b.Grow(len(pattern) + 8*len(args))
	inQuote := false
	for i := 0; i < len(pattern); {
		// Copy the literal run up to the next character that matters here.
		specials := "'{"
		if inQuote {
			specials = "'"
		}
		j := strings.IndexAny(pattern[i:], specials)
		if j < 0 {
			b.WriteString(pattern[i:])
			break
		}
		b.WriteString(pattern[i : i+j])
		i += j
		if pattern[i] == '{' {
			n, end, ok := parseArgumentIndex(pattern, i+1)
			if !ok {
				return pattern
			}
			writeArgument(&b, n, args)
			i = end + 1
			continue
		}
		// A doubled quote is literal inside and outside quoted text.
		if i+1 < len(pattern) && pattern[i+1] == '\'' {
			b.WriteByte('\'')
			i += 2
			continue
		}
		inQuote = !inQuote
		i++
	}
	return b.String()
}

// parseArgumentIndex reads the n of "{n}" starting after the brace and returns
// it with the position of the closing brace. Like Integer.parseInt it accepts
// an optional sign; negative numbers are rejected, as Java does.
func parseArgumentIndex(pattern string, start int) (n, end int, ok bool) {
	j := strings.IndexByte(pattern[start:], '}')
	if j < 0 {
		return 0, 0, false
	}
	seg := pattern[start : start+j]
	if strings.ContainsAny(seg, ",{'") {
		return 0, 0, false
	}
	n, err := strconv.Atoi(seg)
	if err != nil || n < 0 {
		return 0, 0, false
	}
	return n, start + j, true
}

func writeArgument(b *strings.Builder, n int, args []any) {
	if n >= len(args) {
		b.WriteByte('{')
		b.WriteString(strconv.Itoa(n))
		b.WriteByte('}')
		return
	}
	b.WriteString(formatArgument(args[n]))
}

// formatArgument mirrors MessageFormat's default handling of an argument
// without a format type: null, Number, String, otherwise toString().
func formatArgument(v any) string {
	switch x := v.(type) {
	case nil:
		return "null"
	case string:
		return x
	case int:
		return groupDigits(strconv.FormatInt(int64(x), 10))
	case int64:
		return groupDigits(strconv.FormatInt(x, 10))
	case int32:
		return groupDigits(strconv.FormatInt(int64(x), 10))
	case float64:
		return formatJavaDouble(x)
	case float32:
		return formatJavaDouble(float64(x))
	case fmt.Stringer:
		return x.String()
	case error:
		return x.Error()
	}
	rv := reflect.ValueOf(v)
	switch rv.Kind() {
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return groupDigits(strconv.FormatInt(rv.Int(), 10))
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		return groupDigits(strconv.FormatUint(rv.Uint(), 10))
	case reflect.Float32, reflect.Float64:
		return formatJavaDouble(rv.Float())
	case reflect.Pointer, reflect.Interface, reflect.Map, reflect.Slice, reflect.Func, reflect.Chan:
		if rv.IsNil() {
			return "null" // a typed nil is still Java's null
		}
	}
	return fmt.Sprint(v)
}
