package i18n

import (
	"math"
	"strconv"
	"strings"
)

// maxFractionDigits is java.text.NumberFormat.getInstance()'s default.
const maxFractionDigits = 3

// groupDigits inserts a comma every three integer digits ("-1234" →
// "-1,234"), the grouping of Java's default NumberFormat in the en and zh
// locales the admin runs with.
func groupDigits(s string) string {
	sign := ""
	if strings.HasPrefix(s, "-") {
		sign, s = "-", s[1:]
	}
	if len(s) <= 3 {
		return sign + s
	}
	var b strings.Builder
	b.Grow(len(sign) + len(s) + len(s)/3)
	b.WriteString(sign)
	head := len(s) % 3
	if head == 0 {
		head = 3
	}
	b.WriteString(s[:head])
	for i := head; i < len(s); i += 3 {
		b.WriteByte(',')
		b.WriteString(s[i : i+3])
	}
	return b.String()
}

// formatJavaDouble formats f as DecimalFormat's default pattern does: grouped
// integer part, at most three fraction digits rounded half-even on the exact
// binary value, no trailing zeros, and the sign kept on (rounded) negative zero.
func formatJavaDouble(f float64) string {
	switch {
	case math.IsNaN(f):
		return "NaN"
	case math.IsInf(f, 1):
		return "∞"
	case math.IsInf(f, -1):
		return "-∞"
	}
	sign := ""
	if math.Signbit(f) {
		sign, f = "-", -f
	}
	// Shortest digits first, as Java starts from Double.toString's digits, so
	// large values print as 1,000,… rather than their exact binary expansion.
	s := strconv.FormatFloat(f, 'f', -1, 64)
	if dot := strings.IndexByte(s, '.'); dot >= 0 && len(s)-dot-1 > maxFractionDigits {
		s = strconv.FormatFloat(f, 'f', maxFractionDigits, 64)
		s = strings.TrimRight(s, "0")
		s = strings.TrimSuffix(s, ".")
	}
	intPart, frac, hasFrac := strings.Cut(s, ".")
	out := sign + groupDigits(intPart)
	if hasFrac {
		out += "." + frac
	}
	return out
}
