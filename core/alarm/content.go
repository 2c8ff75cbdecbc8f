package alarm

import (
	"html"
	"strconv"
	"strings"

	"github.com/xxl-admin-go/xxl-admin-go/compat/i18n"
)

// javaSuccessCode is ReturnT.SUCCESS_CODE.
const javaSuccessCode = 200

// alarmContent is the alarm content fragment of config.md §4 step 5. The
// trigger and handle messages are the admin's own HTML and are embedded as
// they are; a null message prints "null", as Java string concatenation does.
func alarmContent(ev Event) string {
	var b strings.Builder
	if r := ev.Run; r != nil {
		// Ours (no Java admin has workflows). Names are user text: escaped.
		b.WriteString("Alarm Workflow RunId=")
		b.WriteString(strconv.FormatInt(r.RunID, 10))
		b.WriteString("<br>Workflow=")
		b.WriteString(html.EscapeString(r.Workflow))
		b.WriteString("<br>FailedNodes=")
		b.WriteString(html.EscapeString(strings.Join(r.Failed, ", ")))
		if ev.Log.ID == 0 {
			return b.String()
		}
		b.WriteString("<br>")
	}
	l := ev.Log
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
