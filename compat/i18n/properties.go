package i18n

import (
	"fmt"
	"strconv"
	"strings"
	"unicode/utf16"
)

// parseProperties reads Java .properties text with the rules of
// java.util.Properties.load(Reader): '#'/'!' comment lines, keys ended by an
// unescaped '=', ':' or whitespace, whitespace skipped after the separator,
// odd trailing backslashes joining the next line (whose leading whitespace is
// dropped), \t \n \r \f \uXXXX escapes and '\x' meaning 'x'. A later duplicate
// key wins, as in Java.
func parseProperties(text string) (map[string]string, error) {
	out := make(map[string]string)
	lines := splitNaturalLines(text)
	for i := 0; i < len(lines); i++ {
		line := trimLeadingSpace(lines[i])
		if line == "" || line[0] == '#' || line[0] == '!' {
			// Comment lines are never continued, even when they end in '\'.
			continue
		}
		first := i + 1
		var logical strings.Builder
		for {
			cont := endsWithOddBackslashes(line)
			if !cont {
				logical.WriteString(line)
				break
			}
			logical.WriteString(line[:len(line)-1])
			i++
			if i >= len(lines) {
				break
			}
			line = trimLeadingSpace(lines[i])
		}
		key, value, err := splitKeyValue(logical.String())
		if err != nil {
			return nil, fmt.Errorf("properties line %d: %w", first, err)
		}
		out[key] = value
	}
	return out, nil
}

// splitNaturalLines splits on \n, \r and \r\n, the terminators Java accepts.
func splitNaturalLines(text string) []string {
	text = strings.ReplaceAll(text, "\r\n", "\n")
	text = strings.ReplaceAll(text, "\r", "\n")
	return strings.Split(text, "\n")
}

func isPropSpace(c byte) bool { return c == ' ' || c == '\t' || c == '\f' }

func trimLeadingSpace(s string) string {
	i := 0
	for i < len(s) && isPropSpace(s[i]) {
		i++
	}
	return s[i:]
}

func endsWithOddBackslashes(s string) bool {
	n := 0
	for i := len(s) - 1; i >= 0 && s[i] == '\\'; i-- {
		n++
	}
	return n%2 == 1
}

// splitKeyValue separates one logical line into its unescaped key and value.
func splitKeyValue(line string) (string, string, error) {
	end := len(line)
	for i := 0; i < len(line); i++ {
		c := line[i]
		if c == '\\' {
			i++ // the escaped character never terminates the key
			continue
		}
		if c == '=' || c == ':' || isPropSpace(c) {
			end = i
			break
		}
	}
	rest := trimLeadingSpace(line[end:])
	if rest != "" && (rest[0] == '=' || rest[0] == ':') {
		rest = trimLeadingSpace(rest[1:])
	}
	key, err := unescapeProperty(line[:end])
	if err != nil {
		return "", "", fmt.Errorf("key: %w", err)
	}
	value, err := unescapeProperty(rest)
	if err != nil {
		return "", "", fmt.Errorf("value of %q: %w", key, err)
	}
	return key, value, nil
}

// unescapeProperty resolves backslash escapes; a malformed \uXXXX is an error,
// as it is for Java (IllegalArgumentException).
func unescapeProperty(s string) (string, error) {
	if !strings.Contains(s, `\`) {
		return s, nil
	}
	var b strings.Builder
	b.Grow(len(s))
	var units []uint16 // UTF-16 code units, so \uD83D\uDE00 pairs join up
	flush := func() {
		for _, r := range utf16.Decode(units) {
			b.WriteRune(r)
		}
		units = units[:0]
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c != '\\' || i+1 >= len(s) {
			flush()
			b.WriteByte(c)
			continue
		}
		i++
		switch s[i] {
		case 'u':
			if len(s)-(i+1) < 4 {
				return "", fmt.Errorf("malformed \\uxxxx encoding in %q", s)
			}
			v, err := strconv.ParseUint(s[i+1:i+5], 16, 16)
			if err != nil {
				return "", fmt.Errorf("malformed \\uxxxx encoding in %q", s)
			}
			units = append(units, uint16(v))
			i += 4
			continue
		case 't':
			flush()
			b.WriteByte('\t')
		case 'n':
			flush()
			b.WriteByte('\n')
		case 'r':
			flush()
			b.WriteByte('\r')
		case 'f':
			flush()
			b.WriteByte('\f')
		default:
			flush()
			b.WriteByte(s[i])
		}
	}
	flush()
	return b.String(), nil
}
