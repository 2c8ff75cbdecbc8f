package signin

import (
	"crypto/rand"
	"encoding/hex"
	"strings"
)

// markerPrefix starts the password column of a row made by sign-in. A
// password hash is lowercase hex (MD5 on 2.x, SHA-256 on 3.x, in both the
// Java admins and ours), so a value with "{" and ":" equals no hash: no
// password logs such a user in, on any admin.
const markerPrefix = "{signin:"

// Marker is a fresh password column value for a row of source: the
// prefix, the source, and random hex so that every row's value differs
// (the 2.x session cookie's MAC covers it).
func Marker(source string) string {
	b := make([]byte, 8)
	_, _ = rand.Read(b)
	return markerPrefix + source + "}" + hex.EncodeToString(b)
}

// MarkerSource is the source a password column value was made for, or ""
// when it is a real password hash (a local user).
func MarkerSource(password string) string {
	rest, ok := strings.CutPrefix(password, markerPrefix)
	if !ok {
		return ""
	}
	source, _, ok := strings.Cut(rest, "}")
	if !ok {
		return ""
	}
	return source
}
