package alarm

import (
	"encoding/json"
	"fmt"
	"net/url"
	"strings"
	"time"
)

// Webhook formats (xxl.job.alarm.webhook.format).
const (
	formatAuto     = "auto"
	formatGeneric  = "generic"
	formatDingTalk = "dingtalk"
	formatFeishu   = "feishu"
	formatWeCom    = "wecom"
)

// inferFormat picks the robot format from the URL's host; anything else
// gets the generic JSON document.
func inferFormat(rawURL string) string {
	u, err := url.Parse(rawURL)
	if err != nil {
		return formatGeneric
	}
	switch strings.ToLower(u.Hostname()) {
	case "oapi.dingtalk.com":
		return formatDingTalk
	case "open.feishu.cn", "open.larksuite.com":
		return formatFeishu
	case "qyapi.weixin.qq.com":
		return formatWeCom
	}
	return formatGeneric
}

// genericPayload is the documented JSON of the generic format (docs/configuration.md,
// "Webhooks").
// Messages are plain text (HTML tags removed, <br> as newlines); group is
// null when the executor group no longer exists.
type genericPayload struct {
	Title       string  `json:"title"`
	JobID       int     `json:"job_id"`
	JobDesc     string  `json:"job_desc"`
	Group       *string `json:"group"`
	LogID       int64   `json:"log_id"`
	TriggerCode int     `json:"trigger_code"`
	TriggerMsg  *string `json:"trigger_msg"`
	HandleCode  int     `json:"handle_code"`
	HandleMsg   *string `json:"handle_msg"`
	Time        string  `json:"time"`                   // when the alarm was sent, RFC 3339
	TriggerTime string  `json:"trigger_time,omitempty"` // the failed trigger, RFC 3339
	// A failed workflow run's alarm: job_id and job_desc are then the
	// workflow's, log_id and its codes the first failed node's.
	WorkflowRunID int64    `json:"workflow_run_id,omitempty"`
	FailedNodes   []string `json:"failed_nodes,omitempty"`
}

type dingTalkPayload struct {
	MsgType  string `json:"msgtype"`
	Markdown struct {
		Title string `json:"title"`
		Text  string `json:"text"`
	} `json:"markdown"`
}

type feishuPayload struct {
	Timestamp string `json:"timestamp,omitempty"`
	Sign      string `json:"sign,omitempty"`
	MsgType   string `json:"msg_type"`
	Content   struct {
		Text string `json:"text"`
	} `json:"content"`
}

type weComPayload struct {
	MsgType  string `json:"msgtype"`
	Markdown struct {
		Content string `json:"content"`
	} `json:"markdown"`
}

// summary is the alarm as localized label/value lines for chat robots: the
// same facts as the mail table (config.md §4 step 4).
type summary struct {
	title   string
	rows    [][2]string
	content [2]string // label, plain-text alarm content (may span lines)
}

func (w *webhook) summarize(ev Event) summary {
	t := w.texts
	return summary{
		title: t.Text("jobconf_monitor"),
		rows: [][2]string{
			{t.Text("jobinfo_field_jobgroup"), groupTitle(ev)},
			{t.Text("jobinfo_field_id"), jobIDText(ev.Job.ID)},
			{t.Text("jobinfo_field_jobdesc"), ev.Job.JobDesc},
			{t.Text("jobconf_monitor_alarm_title"), t.Text("jobconf_monitor_alarm_type")},
		},
		content: [2]string{t.Text("jobconf_monitor_alarm_content"), w.html.plain(alarmContent(ev))},
	}
}

// markdown renders s with nl between lines: DingTalk needs a blank line for
// a line break, WeCom honours single newlines.
func (s summary) markdown(nl string) string {
	var b strings.Builder
	b.WriteString("### " + s.title + nl)
	for _, r := range s.rows {
		b.WriteString("- **" + r[0] + "**: " + r[1] + nl)
	}
	b.WriteString("**" + s.content[0] + "**:" + nl)
	b.WriteString(strings.ReplaceAll(s.content[1], "\n", nl))
	return b.String()
}

func (s summary) plain() string {
	var b strings.Builder
	b.WriteString(s.title + "\n")
	for _, r := range s.rows {
		b.WriteString(r[0] + ": " + r[1] + "\n")
	}
	b.WriteString(s.content[0] + ":\n" + s.content[1])
	return b.String()
}

// payload encodes ev in format f; secret signs Feishu bodies (DingTalk signs
// the URL instead, see signDingTalk).
func (w *webhook) payload(f string, ev Event, secret string, now time.Time) ([]byte, error) {
	var v any
	switch f {
	case formatDingTalk:
		p := dingTalkPayload{MsgType: "markdown"}
		s := w.summarize(ev)
		p.Markdown.Title = s.title
		p.Markdown.Text = s.markdown("\n\n")
		v = p
	case formatFeishu:
		p := feishuPayload{MsgType: "text"}
		p.Content.Text = w.summarize(ev).plain()
		if secret != "" {
			p.Timestamp, p.Sign = signFeishu(secret, now)
		}
		v = p
	case formatWeCom:
		p := weComPayload{MsgType: "markdown"}
		p.Markdown.Content = w.summarize(ev).markdown("\n")
		v = p
	default:
		v = w.generic(ev, now)
	}
	body, err := json.Marshal(v)
	if err != nil {
		return nil, fmt.Errorf("encode %s webhook payload: %w", f, err)
	}
	return body, nil
}

func (w *webhook) generic(ev Event, now time.Time) genericPayload {
	p := genericPayload{
		Title:       w.texts.Text("jobconf_monitor"),
		JobID:       ev.Job.ID,
		JobDesc:     ev.Job.JobDesc,
		LogID:       ev.Log.ID,
		TriggerCode: ev.Log.TriggerCode,
		TriggerMsg:  w.html.plainPtr(ev.Log.TriggerMsg),
		HandleCode:  ev.Log.HandleCode,
		HandleMsg:   w.html.plainPtr(ev.Log.HandleMsg),
		Time:        now.Format(time.RFC3339),
	}
	if ev.Group != nil {
		p.Group = &ev.Group.Title
	}
	if ev.Log.TriggerTime != nil {
		p.TriggerTime = ev.Log.TriggerTime.Format(time.RFC3339)
	}
	if ev.Run != nil {
		p.WorkflowRunID, p.FailedNodes = ev.Run.RunID, ev.Run.Failed
	}
	return p
}
