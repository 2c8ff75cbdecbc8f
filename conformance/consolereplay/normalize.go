package consolereplay

import (
	"net/url"
	"regexp"
	"strings"
	"time"
)

// RecordedAdminIP is how the recordings show the admin's own address in
// trigger messages ("Trigger machine address：192.0.2.2<br>").
const RecordedAdminIP = "192.0.2.2"

// adminIPRe finds the admin's address in a trigger message: the only IPv4
// address between a full-width colon and a line break (executor addresses
// there are URLs).
var adminIPRe = regexp.MustCompile(`：\d{1,3}(?:\.\d{1,3}){3}<br>`)

// normalizer turns observed values into the recorded environment's: our
// fake executor's address into the recorded one, the admin's IP into the
// recorded one.
type normalizer struct {
	executor string // our fake executor's "http://127.0.0.1:PORT/"
	// admin is the admin under test ("http://127.0.0.1:PORT"),
	// recordedAdmin the recorded admin's origin: 3.4.2 redirects to
	// absolute URLs.
	admin, recordedAdmin string
}

// location turns an observed Location header into the recorded
// environment's: the admin's own origin becomes the recorded one.
func (n normalizer) location(v string) string {
	if n.admin == "" || n.recordedAdmin == "" {
		return v
	}
	if rest, ok := strings.CutPrefix(v, n.admin); ok {
		return n.recordedAdmin + rest
	}
	return v
}

// origin is the scheme and authority of an absolute URL ("" if none).
func origin(u string) string {
	p, err := url.Parse(u)
	if err != nil || p.Scheme == "" || p.Host == "" {
		return ""
	}
	return p.Scheme + "://" + p.Host
}

func (n normalizer) apply(s string) string {
	if n.executor != "" {
		s = strings.ReplaceAll(s, hostPort(n.executor), hostPort(RecordedExecutorAddress))
	}
	return adminIPRe.ReplaceAllString(s, "："+RecordedAdminIP+"<br>")
}

// request turns a recorded request body or query into ours: the recorded
// executor address (plain or form-encoded) becomes our fake executor's.
func (n normalizer) request(s string) string {
	if n.executor == "" {
		return s
	}
	from, to := hostPort(RecordedExecutorAddress), hostPort(n.executor)
	s = strings.ReplaceAll(s, from, to)
	return strings.ReplaceAll(s, url.QueryEscape(from), url.QueryEscape(to))
}

func hostPort(address string) string {
	u, err := url.Parse(address)
	if err != nil {
		return address
	}
	return u.Host
}

// datedFields are the request parameters holding dates the recorder took
// from its clock (README: /chartInfo startDate/endDate and /joblog/pageList
// filterTime). They are moved by the distance between the recording's
// fixture time and the replay's, so that they select the same rows.
var datedFields = map[string]map[string]bool{
	"/chartInfo":       {"startDate": true, "endDate": true},
	"/joblog/pageList": {"filterTime": true},
}

var requestDateRe = regexp.MustCompile(`\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}`)

// shiftDates moves every "yyyy-MM-dd HH:mm:ss" inside v by shift, in the
// admin's zone; values that are not such dates stay as they are.
func shiftDates(v string, shift time.Duration, loc *time.Location) string {
	return requestDateRe.ReplaceAllStringFunc(v, func(s string) string {
		t, err := time.ParseInLocation(dbTimeLayout, s, loc)
		if err != nil {
			return s
		}
		return t.Add(shift).In(loc).Format(dbTimeLayout)
	})
}

// RecordAdminIP replaces the admin's own address in a trigger message by
// RecordedAdminIP: it depends on the recording machine's interfaces (the
// one edit the recorders make to what they received).
func RecordAdminIP(s string) string {
	return adminIPRe.ReplaceAllString(s, "："+RecordedAdminIP+"<br>")
}
