package alarm

import (
	"fmt"
	"html/template"
	"strings"
)

// mailBody renders the HTML body of config.md §4 step 4: a heading and a
// five-column table with one data row. The markup is ours (the Java template
// has a stray </span>); user-entered values — group title and job description
// — are escaped, the alarm content is the admin's own HTML and is not.
type mailBody struct {
	tmpl *template.Template
}

type mailBodyData struct {
	Heading string
	Columns [5]string
	Group   string
	JobID   string
	JobDesc string
	Type    string
	Content template.HTML
}

const mailBodyHTML = `<h5>{{.Heading}}：</h5>
<table border="1" cellpadding="3" style="border-collapse:collapse; width:80%;">
  <thead style="font-weight:bold; color:#ffffff; background-color:#ff8c00;">
    <tr>
      <td width="20%">{{index .Columns 0}}</td>
      <td width="10%">{{index .Columns 1}}</td>
      <td width="20%">{{index .Columns 2}}</td>
      <td width="10%">{{index .Columns 3}}</td>
      <td width="40%">{{index .Columns 4}}</td>
    </tr>
  </thead>
  <tbody>
    <tr>
      <td>{{.Group}}</td>
      <td>{{.JobID}}</td>
      <td>{{.JobDesc}}</td>
      <td>{{.Type}}</td>
      <td>{{.Content}}</td>
    </tr>
  </tbody>
</table>
`

func newMailBody() mailBody {
	// The template is a constant; a parse error is a programming error that
	// every test run would catch.
	return mailBody{tmpl: template.Must(template.New("alarm").Parse(mailBodyHTML))}
}

func (m mailBody) render(texts Texts, ev Event) (string, error) {
	data := mailBodyData{
		Heading: texts.Text("jobconf_monitor_detail"),
		Columns: [5]string{
			texts.Text("jobinfo_field_jobgroup"),
			texts.Text("jobinfo_field_id"),
			texts.Text("jobinfo_field_jobdesc"),
			texts.Text("jobconf_monitor_alarm_title"),
			texts.Text("jobconf_monitor_alarm_content"),
		},
		Group:   groupTitle(ev),
		JobID:   jobIDText(ev.Job.ID),
		JobDesc: ev.Job.JobDesc,
		Type:    texts.Text("jobconf_monitor_alarm_type"),
		// Admin-generated markup, embedded as Java does (see alarmContent).
		Content: template.HTML(alarmContent(ev)),
	}
	var b strings.Builder
	if err := m.tmpl.Execute(&b, data); err != nil {
		return "", fmt.Errorf("render alarm mail body: %w", err)
	}
	return b.String(), nil
}
