package alarm

import (
	"html"
	"regexp"
	"strings"
)

// htmlText turns the admin's HTML fragments (trigger_msg, handle_msg, alarm
// content) into plain text for chat robots.
type htmlText struct {
	br  *regexp.Regexp
	tag *regexp.Regexp
}

func newHTMLText() htmlText {
	return htmlText{
		br: regexp.MustCompile(`(?i)<br\s*/?>`),
		// A tag must start with a letter: trigger_msg contains arrows such as
		// ">>>>>>>>>>>触发调度<<<<<<<<<<<" that are text, not markup.
		tag: regexp.MustCompile(`</?[a-zA-Z][^<>]*>`),
	}
}

// plain removes tags, turns <br> into line breaks and drops the blank and
// padding the markup used for layout, so chat messages stay compact.
func (h htmlText) plain(s string) string {
	s = h.br.ReplaceAllString(s, "\n")
	s = h.tag.ReplaceAllString(s, "")
	s = html.UnescapeString(s)
	lines := strings.Split(s, "\n")
	kept := lines[:0]
	for _, l := range lines {
		if l = strings.TrimSpace(l); l != "" {
			kept = append(kept, l)
		}
	}
	return strings.Join(kept, "\n")
}

func (h htmlText) plainPtr(s *string) *string {
	if s == nil {
		return nil
	}
	p := h.plain(*s)
	return &p
}
