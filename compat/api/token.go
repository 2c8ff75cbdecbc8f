package api

import "crypto/subtle"

// TokenHeader is the header carrying the access token, both ways (§2.2,
// §3.1). Lookups are case-insensitive; the client writes it in this case.
const TokenHeader = "XXL-JOB-ACCESS-TOKEN"

// TokenAccepted is the admin's token check (§2.2 step 3). A configured
// token that is empty or blank (String.trim() semantics) disables the
// check. Otherwise the header must be present and exactly equal — no
// trimming, case-sensitive; an absent header is a mismatch even though an
// empty one is too. The compare is constant-time in the header's content;
// only the lengths can leak.
func TokenAccepted(configured, header string, present bool) bool {
	if isTrimBlank(configured) {
		return true
	}
	if !present {
		return false
	}
	return subtle.ConstantTimeCompare([]byte(configured), []byte(header)) == 1
}
