package jobs

import "regexp"

// xssPatterns are the 3.4.2 admin's XssUtil patterns (its group, GLUE
// remark and address checks): script elements, script URL schemes, the
// common event-handler attributes, eval/expression/url calls, and iframe,
// object and embed tags. Matching ignores case; \s is Java's whitespace
// class, which has \x0B where RE2's has not. RE2's case folding also folds
// the few non-ASCII letters that fold to ASCII ones (ſ, K), which Java's
// ASCII-only CASE_INSENSITIVE does not: such text is refused here, never
// let through.
var xssPatterns = func() []*regexp.Regexp {
	const ws = `[ \t\n\x0B\f\r]*`
	srcs := []string{
		`(?is)<(no)?script[^>]*>.*?</(no)?script>`,
		`(?i)javascript:`,
		`(?i)vbscript:`,
		`(?i)on(load|error|click|mouseover|focus|blur|submit|change|input)` + ws + `=`,
		`(?i)eval` + ws + `\(`,
		`(?i)expression` + ws + `\(`,
		`(?i)url` + ws + `\(`,
		`(?i)<iframe[^>]*>`,
		`(?i)<object[^>]*>`,
		`(?i)<embed[^>]*>`,
	}
	out := make([]*regexp.Regexp, len(srcs))
	for i, s := range srcs {
		out[i] = regexp.MustCompile(s)
	}
	return out
}()

// hasXSS is XssUtil.hasXss: some pattern is found in v.
func hasXSS(v string) bool {
	for _, p := range xssPatterns {
		if p.MatchString(v) {
			return true
		}
	}
	return false
}
