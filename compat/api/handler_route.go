package api

import (
	"net/url"
	"strings"
)

// apiURI extracts {uri} from a request path relative to the context path,
// matching like the Spring MVC mapping /api/{uri} (§2.1): one segment,
// with trailingSlash one trailing slash tolerated (/api/registry/ is
// "registry": Spring 5, the 2.4.2 admin; Spring 6 under 3.4.2 no longer
// matches it, its 404 page answers), ";..." path parameters dropped before
// matching (Spring's removeSemicolonContent), the segment percent-decoded
// after that. ok is false when the mapping would not match at all.
func apiURI(u *url.URL, trailingSlash bool) (uri string, ok bool) {
	p := strings.TrimPrefix(u.EscapedPath(), "/")
	rest, ok := strings.CutPrefix(p, "api/")
	if !ok {
		return "", false
	}
	segments := strings.Split(rest, "/")
	for i, s := range segments {
		segments[i], _, _ = strings.Cut(s, ";")
	}
	if n := len(segments); trailingSlash && n == 2 && segments[1] == "" {
		segments = segments[:1]
	}
	if len(segments) != 1 || segments[0] == "" {
		return "", false
	}
	uri, err := url.PathUnescape(segments[0])
	if err != nil || strings.Contains(uri, "/") {
		// Tomcat refuses an encoded slash before Spring sees the request.
		return "", false
	}
	return uri, true
}
