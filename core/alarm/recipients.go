package alarm

import "strings"

// recipients is a job's alarm_email split into mail addresses and webhook URLs.
type recipients struct {
	mail []string
	urls []string
}

// splitAlarmEmail splits alarm_email as Java does (config.md §4 step 2: on
// ",", duplicates removed, items not trimmed), skipping empty items; items
// that are http(s) URLs are taken out for the webhook channel, which lets a
// job name its own robot without a config change. Order is first-seen (Java's
// HashSet order is unspecified).
func splitAlarmEmail(alarmEmail *string) recipients {
	var r recipients
	if alarmEmail == nil || strings.TrimSpace(*alarmEmail) == "" {
		return r
	}
	seen := map[string]bool{}
	for _, item := range strings.Split(*alarmEmail, ",") {
		if item == "" || seen[item] {
			continue
		}
		seen[item] = true
		// A URL is recognised even with surrounding blanks ("a@b, https://…"),
		// which would otherwise be mailed to an address that cannot exist.
		if u := strings.TrimSpace(item); isWebURL(u) {
			r.urls = append(r.urls, u)
			continue
		}
		r.mail = append(r.mail, item)
	}
	return r
}

func isWebURL(s string) bool {
	l := strings.ToLower(s)
	return strings.HasPrefix(l, "http://") || strings.HasPrefix(l, "https://")
}
