package trigger

import (
	"strconv"
	"strings"
)

// registryList splits a group's address_list as Java's
// XxlJobGroup.getRegistryList does (scheduler.md §5 step 5): nil for a
// null or blank list; otherwise String.split(","), which keeps leading and
// inner empty items but drops trailing ones, so ",," yields an empty,
// non-nil list (printed "[]").
func registryList(addressList *string) []string {
	if addressList == nil || javaTrim(*addressList) == "" {
		return nil
	}
	return javaSplit(*addressList, ",")
}

// javaSplit is String.split with a literal separator: trailing empty
// strings are removed.
func javaSplit(s, sep string) []string {
	parts := strings.Split(s, sep)
	n := len(parts)
	for n > 0 && parts[n-1] == "" {
		n--
	}
	return parts[:n]
}

// javaTrim is String.trim: it strips every char <= U+0020 at both ends.
func javaTrim(s string) string {
	return strings.TrimFunc(s, func(r rune) bool { return r <= ' ' })
}

// listText prints a registry list like Java's List.toString() (scheduler.md
// §6): "[a, b]", "[]" for an empty list, "null" for none.
func listText(list []string) string {
	if list == nil {
		return "null"
	}
	return escapeText("[" + strings.Join(list, ", ") + "]")
}

// shard is a broadcast position.
type shard struct{ index, total int }

// parseSharding accepts "index/total" where both halves parse as a Java int
// (optional sign, decimal digits, 32-bit range); anything else is ignored
// (scheduler.md §5 step 6). Like String.split, trailing empty parts do not
// count, so "1/2/" is accepted as 1/2.
func parseSharding(s string) (shard, bool) {
	if s == "" {
		return shard{}, false
	}
	parts := javaSplit(s, "/")
	if len(parts) != 2 {
		return shard{}, false
	}
	i, err1 := parseJavaInt(parts[0])
	t, err2 := parseJavaInt(parts[1])
	if err1 != nil || err2 != nil {
		return shard{}, false
	}
	return shard{index: i, total: t}, true
}

// parseJavaInt is Integer.valueOf for ASCII digits: an optional '+' or '-'
// sign, no spaces, 32-bit range. (Java also accepts non-ASCII Unicode
// digits; no caller stores those.)
func parseJavaInt(s string) (int, error) {
	v, err := strconv.ParseInt(s, 10, 32)
	return int(v), err
}
