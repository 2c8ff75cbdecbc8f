package consolereplay

import (
	"html"
	"regexp"
	"strings"
)

var (
	titleRe     = regexp.MustCompile(`(?is)<title>(.*?)</title>`)
	errorTextRe = regexp.MustCompile(`(?is)<h1[^>]*>.*?</h1>\s*<p(?:\s[^>]*)?>(.*?)</p>`)
)

// pageTitle is the text of the page's <title>.
func pageTitle(body []byte) (string, bool) {
	m := titleRe.FindSubmatch(body)
	if m == nil {
		return "", false
	}
	return strings.TrimSpace(html.UnescapeString(string(m[1]))), true
}

// errorPageMessage is the message of the admin's error page
// (common.exception: the paragraph after the "System Error" heading;
// attributes on either element do not matter).
func errorPageMessage(body []byte) string {
	m := errorTextRe.FindSubmatch(body)
	if m == nil {
		return ""
	}
	return strings.TrimSpace(html.UnescapeString(string(m[1])))
}

// PageTitle is the text of a page's <title> ("" if it has none); the
// recorder stores it in place of the page.
func PageTitle(body []byte) string {
	t, _ := pageTitle(body)
	return t
}

// ErrorPageMessage is the message of the admin's error page, "" for any
// other page.
func ErrorPageMessage(body []byte) string { return errorPageMessage(body) }
