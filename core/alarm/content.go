package alarm

import (
	"strconv"
	"strings"

	"github.com/xxl-admin-go/xxl-admin-go/compat/i18n"
	"github.com/xxl-admin-go/xxl-admin-go/compat/schema"
)

// javaSuccessCode is ReturnT.SUCCESS_CODE.
const javaSuccessCode = 200

// alarmContent is the alarm content fragment of config.md §4 step 5. The
// trigger and handle messages are the admin's own HTML and are embedded as
// they are; a null message prints "null", as Java string concatenation does.
func alarmContent(l schema.JobLog) string {
	var b strings.Builder
	b.WriteString("Alarm Job LogId=")
	b.WriteString(strconv.FormatInt(l.ID, 10))
	if l.TriggerCode != javaSuccessCode {
		b.WriteString("<br>TriggerMsg=<br>")
		b.WriteString(orNull(l.TriggerMsg))
	}
	if l.HandleCode > 0 && l.HandleCode != javaSuccessCode {
		// The label says HandleCode but Java appends the message.
		b.WriteString("<br>HandleCode=")
		b.WriteString(orNull(l.HandleMsg))
	}
	return b.String()
}

func orNull(s *string) string {
	if s == nil {
		return "null"
	}
	return *s
}

// groupTitle is the executor group's title, or "null" when the group is gone
// (config.md §4 step 4).
func groupTitle(ev Event) string {
	if ev.Group == nil {
		return "null"
	}
	return ev.Group.Title
}

// jobIDText is the job id as Java's MessageFormat prints it: 1234 → "1,234".
func jobIDText(id int) string {
	return i18n.FormatPattern("{0}", id)
}
