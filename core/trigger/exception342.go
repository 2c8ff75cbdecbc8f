package trigger

import "strings"

// javaRuntimeException prefixes an exception's message as Throwable's
// toString() does for the 3.4.2 client's errors.
const javaRuntimeException = "java.lang.RuntimeException: "

// The executor client (compat/api) words a call that got no usable answer
// as the 2.4.2 admin's client did (executor-protocol.md §3.1).
const (
	remotingErrorOpen = "xxl-job remoting error("
	remotingErrorURL  = "), for url : "
	statusFailOpen    = "xxl-job remoting fail, StatusCode("
	statusFailURL     = ") invalid. for url : "
)

// exception342 rewrites such a failure text into the message of the
// exception the 3.4.2 admin's HTTP client (xxl-tool 2.5.0 HttpRequest /
// HttpResponse) throws for the same failure:
//
//	xxl-job remoting error(D), for url : U           → Http Request Error (D). for url : U
//	xxl-job remoting fail, StatusCode(N) invalid. for url : U → Http Request fail, statusCode(N) for url : U
//
// The detail is worded as the JDK words the same socket error (javaDetail).
// ok is false for any other text (an executor's own answer, or an answer
// the client could not decode, which 3.4.2 reports as a Gson exception we
// do not imitate).
func exception342(msg string) (string, bool) {
	if rest, ok := strings.CutPrefix(msg, remotingErrorOpen); ok {
		if i := strings.LastIndex(rest, remotingErrorURL); i >= 0 {
			return "Http Request Error (" + javaDetail(rest[:i]) + "). for url : " + rest[i+len(remotingErrorURL):], true
		}
	}
	if rest, ok := strings.CutPrefix(msg, statusFailOpen); ok {
		if code, url, ok := strings.Cut(rest, statusFailURL); ok {
			return "Http Request fail, statusCode(" + code + ") for url : " + url, true
		}
	}
	return "", false
}

// javaSocketErrors are the JDK's messages for the socket errors Go reports
// at the end of a dial or read error ("dial tcp h:p: connect: connection
// refused"): what HttpURLConnection's exception says for the same failure.
var javaSocketErrors = map[string]string{
	"connection refused":       "Connection refused",
	"connection reset by peer": "Connection reset",
	"no route to host":         "No route to host",
	"network is unreachable":   "Network is unreachable",
}

// javaDetail is the JDK's wording of a transport failure the client
// reports in Go's words; other details (the client's own timeout texts,
// already Java's) pass unchanged.
func javaDetail(d string) string {
	i := strings.LastIndex(d, ": ")
	if i < 0 {
		return d
	}
	if j, ok := javaSocketErrors[d[i+2:]]; ok {
		return j
	}
	return d
}
