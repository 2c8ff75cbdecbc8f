package config

import (
	"bufio"
	"fmt"
	"io"
	"strconv"
	"strings"
)

// ParseProperties reads a Java .properties document: `key=value`, `key: value`
// or `key value`, `#`/`!` comments, backslash line continuations and the
// \t \n \r \f \uXXXX escapes. Operators copy application.properties from the
// Java admin unchanged, so the format must be the Java one, not INI or YAML.
func ParseProperties(r io.Reader) (map[string]string, error) {
	out := map[string]string{}
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64*1024), 4*1024*1024)
	lineNo := 0
	var logical strings.Builder
	continuing := false
	for sc.Scan() {
		lineNo++
		line := sc.Text()
		if continuing {
			line = strings.TrimLeft(line, " \t\f")
		} else {
			trimmed := strings.TrimLeft(line, " \t\f")
			if trimmed == "" || trimmed[0] == '#' || trimmed[0] == '!' {
				continue
			}
			line = trimmed
		}
		if endsWithOddBackslashes(line) {
			logical.WriteString(line[:len(line)-1])
			continuing = true
			continue
		}
		logical.WriteString(line)
		continuing = false
		key, value, err := splitProperty(logical.String())
		logical.Reset()
		if err != nil {
			return nil, fmt.Errorf("properties line %d: %w", lineNo, err)
		}
		out[key] = value
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("read properties: %w", err)
	}
	if continuing {
		key, value, err := splitProperty(logical.String())
		if err != nil {
			return nil, fmt.Errorf("properties line %d: %w", lineNo, err)
		}
		out[key] = value
	}
	return out, nil
}

func endsWithOddBackslashes(s string) bool {
	n := 0
	for i := len(s) - 1; i >= 0 && s[i] == '\\'; i-- {
		n++
	}
	return n%2 == 1
}

// splitProperty separates key and value at the first unescaped '=', ':' or
// whitespace, then unescapes both.
func splitProperty(line string) (string, string, error) {
	i := 0
	for i < len(line) {
		c := line[i]
		if c == '\\' {
			i += 2
			continue
		}
		if c == '=' || c == ':' || c == ' ' || c == '\t' || c == '\f' {
			break
		}
		i++
	}
	if i > len(line) {
		i = len(line) // a trailing backslash escape ran past the end
	}
	rawKey := line[:i]
	rest := strings.TrimLeft(line[i:], " \t\f")
	if rest != "" && (rest[0] == '=' || rest[0] == ':') && (i == len(line) || line[i] == ' ' || line[i] == '\t' || line[i] == '\f' || line[i] == rest[0]) {
		rest = strings.TrimLeft(rest[1:], " \t\f")
	}
	key, err := unescapeProperty(rawKey)
	if err != nil {
		return "", "", err
	}
	value, err := unescapeProperty(rest)
	if err != nil {
		return "", "", fmt.Errorf("key %q: %w", key, err)
	}
	return key, value, nil
}

func unescapeProperty(s string) (string, error) {
	if !strings.Contains(s, `\`) {
		return s, nil
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c != '\\' || i+1 >= len(s) {
			b.WriteByte(c)
			continue
		}
		i++
		switch s[i] {
		case 't':
			b.WriteByte('\t')
		case 'n':
			b.WriteByte('\n')
		case 'r':
			b.WriteByte('\r')
		case 'f':
			b.WriteByte('\f')
		case 'u':
			if i+5 > len(s) {
				return "", fmt.Errorf("malformed \\u escape in %q", s)
			}
			n, err := strconv.ParseUint(s[i+1:i+5], 16, 32)
			if err != nil {
				return "", fmt.Errorf("malformed \\u escape in %q", s)
			}
			b.WriteRune(rune(n))
			i += 4
		default:
			b.WriteByte(s[i])
		}
	}
	return b.String(), nil
}
