package cron

// splitFields mirrors StringTokenizer(expr, " \t") followed by String.trim()
// on each token: only space and tab separate fields, other control
// characters stay inside a field and are then trimmed from its ends.
func splitFields(s []uint16) [][]uint16 {
	var out [][]uint16
	for i := 0; i < len(s); {
		for i < len(s) && (s[i] == ' ' || s[i] == '\t') {
			i++
		}
		start := i
		for i < len(s) && s[i] != ' ' && s[i] != '\t' {
			i++
		}
		if i > start {
			out = append(out, javaTrim(s[start:i]))
		}
	}
	return out
}

// javaTrim is String.trim: it strips every char <= U+0020.
func javaTrim(s []uint16) []uint16 {
	for len(s) > 0 && s[0] <= ' ' {
		s = s[1:]
	}
	for len(s) > 0 && s[len(s)-1] <= ' ' {
		s = s[:len(s)-1]
	}
	return s
}

// splitList mirrors StringTokenizer(field, ","): empty items vanish.
func splitList(s []uint16) [][]uint16 {
	var out [][]uint16
	start := 0
	for i := 0; i <= len(s); i++ {
		if i == len(s) || s[i] == ',' {
			if i > start {
				out = append(out, s[start:i])
			}
			start = i + 1
		}
	}
	return out
}

func contains16(s []uint16, c uint16) bool { return count16(s, c) > 0 }

func count16(s []uint16, c uint16) int {
	n := 0
	for _, x := range s {
		if x == c {
			n++
		}
	}
	return n
}

// isLastOffsetForm matches the regular expression ^L-[0-9]*[W]? over the
// whole item: such items skip the month/day name parser.
func isLastOffsetForm(s []uint16) bool {
	if len(s) < 2 || s[0] != 'L' || s[1] != '-' {
		return false
	}
	rest := s[2:]
	for len(rest) > 0 && isASCIIDigit(rest[0]) {
		rest = rest[1:]
	}
	return len(rest) == 0 || (len(rest) == 1 && rest[0] == 'W')
}
