package alarm

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/xxl-admin-go/xxl-admin-go/compat/config"
	"github.com/xxl-admin-go/xxl-admin-go/compat/i18n"
)

// hook is an httptest robot that records each request and answers status/reply.
type hook struct {
	srv   *httptest.Server
	calls chan hookCall
}

type hookCall struct {
	query       url.Values
	contentType string
	body        []byte
}

func startHook(t *testing.T, status int, reply string) *hook {
	t.Helper()
	h := &hook{calls: make(chan hookCall, 16)}
	h.srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		h.calls <- hookCall{query: r.URL.Query(), contentType: r.Header.Get("Content-Type"), body: b}
		w.WriteHeader(status)
		_, _ = io.WriteString(w, reply)
	}))
	t.Cleanup(h.srv.Close)
	return h
}

func (h *hook) next(t *testing.T) hookCall {
	t.Helper()
	select {
	case c := <-h.calls:
		return c
	default:
		t.Fatal("webhook was not called")
		return hookCall{}
	}
}

func webhookFor(t *testing.T, format, secret string, urls ...string) *webhook {
	t.Helper()
	return newWebhook(config.Alarm{WebhookURLs: urls, WebhookFormat: format, WebhookSecret: secret, Timeout: 2 * time.Second}, i18n.Load("en"))
}

// wantSummaryLines is the plain alarm text every robot format carries.
var wantSummaryLines = []string{
	"Task Scheduling Center monitor alarm",
	"Demo <exec>",
	"1,234",
	`Nightly <b>"report"</b> & co`,
	"Trigger Fail",
	"Alarm Job LogId=77",
	"Job trigger type：Cron trigger",
	">>>>>>>>>>>Trigger Job<<<<<<<<<<<",
	"HandleCode=handler boom",
}

func containsAll(t *testing.T, text string, wants []string) {
	t.Helper()
	for _, w := range wants {
		if !strings.Contains(text, w) {
			t.Errorf("text lacks %q:\n%s", w, text)
		}
	}
	if strings.Contains(text, "<br>") || strings.Contains(text, "<span") {
		t.Errorf("markup left in text:\n%s", text)
	}
}

// TestWebhookGeneric decodes the documented generic JSON (docs/configuration.md, "Webhooks").
func TestWebhookGeneric(t *testing.T) {
	h := startHook(t, http.StatusNoContent, "")
	w := webhookFor(t, "auto", "", h.srv.URL+"/alarm")
	ev := failedEvent(nil)
	trigger := time.Date(2024, 5, 6, 7, 8, 9, 0, time.UTC)
	ev.Log.TriggerTime = &trigger
	if err := w.Send(t.Context(), ev); err != nil {
		t.Fatal(err)
	}
	c := h.next(t)
	if !strings.HasPrefix(c.contentType, "application/json") {
		t.Errorf("Content-Type %q", c.contentType)
	}
	var got struct {
		Title       string  `json:"title"`
		JobID       int     `json:"job_id"`
		JobDesc     string  `json:"job_desc"`
		Group       *string `json:"group"`
		LogID       int64   `json:"log_id"`
		TriggerCode int     `json:"trigger_code"`
		TriggerMsg  string  `json:"trigger_msg"`
		HandleCode  int     `json:"handle_code"`
		HandleMsg   string  `json:"handle_msg"`
		Time        string  `json:"time"`
		TriggerTime string  `json:"trigger_time"`
	}
	if err := json.Unmarshal(c.body, &got); err != nil {
		t.Fatalf("%v: %s", err, c.body)
	}
	if got.Title != "Task Scheduling Center monitor alarm" || got.JobID != 1234 || got.JobDesc != ev.Job.JobDesc ||
		got.Group == nil || *got.Group != "Demo <exec>" || got.LogID != 77 || got.TriggerCode != 500 || got.HandleCode != 502 ||
		got.HandleMsg != "handler boom" || got.TriggerTime != "2024-05-06T07:08:09Z" {
		t.Errorf("payload %+v", got)
	}
	if want := "Job trigger type：Cron trigger\n>>>>>>>>>>>Trigger Job<<<<<<<<<<<\ncode：500"; got.TriggerMsg != want {
		t.Errorf("trigger_msg %q, want %q", got.TriggerMsg, want)
	}
	if ts, err := time.Parse(time.RFC3339, got.Time); err != nil || time.Since(ts) > time.Minute {
		t.Errorf("time %q: %v", got.Time, err)
	}

	// A deleted group is JSON null.
	ev.Group = nil
	if err := w.Send(t.Context(), ev); err != nil {
		t.Fatal(err)
	}
	var raw map[string]json.RawMessage
	if err := json.Unmarshal(h.next(t).body, &raw); err != nil || string(raw["group"]) != "null" {
		t.Fatalf("group = %s (%v)", raw["group"], err)
	}
}

// TestWebhookDingTalk checks the markdown robot body and the "加签" query.
func TestWebhookDingTalk(t *testing.T) {
	const secret = "SECdingtalk"
	h := startHook(t, http.StatusOK, `{"errcode":0,"errmsg":"ok"}`)
	w := webhookFor(t, "dingtalk", secret, h.srv.URL+"/robot/send?access_token=tok")
	if err := w.Send(t.Context(), failedEvent(nil)); err != nil {
		t.Fatal(err)
	}
	c := h.next(t)
	var got struct {
		MsgType  string `json:"msgtype"`
		Markdown struct {
			Title string `json:"title"`
			Text  string `json:"text"`
		} `json:"markdown"`
	}
	if err := json.Unmarshal(c.body, &got); err != nil {
		t.Fatal(err)
	}
	if got.MsgType != "markdown" || got.Markdown.Title != "Task Scheduling Center monitor alarm" {
		t.Errorf("payload %+v", got)
	}
	containsAll(t, got.Markdown.Text, wantSummaryLines)

	// Verify independently: sign = base64(HMAC-SHA256(secret, ts+"\n"+secret)).
	ts := c.query.Get("timestamp")
	ms, err := strconv.ParseInt(ts, 10, 64)
	if err != nil || time.Since(time.UnixMilli(ms)).Abs() > time.Minute {
		t.Fatalf("timestamp %q", ts)
	}
	mac := hmac.New(sha256.New, []byte(secret))
	mac.Write([]byte(ts + "\n" + secret))
	if want := base64.StdEncoding.EncodeToString(mac.Sum(nil)); c.query.Get("sign") != want {
		t.Errorf("sign %q, want %q", c.query.Get("sign"), want)
	}
	if c.query.Get("access_token") != "tok" {
		t.Errorf("access_token lost: %v", c.query)
	}
}

// TestWebhookFeishu checks the text body and the body signature.
func TestWebhookFeishu(t *testing.T) {
	const secret = "feishu-secret"
	h := startHook(t, http.StatusOK, `{"code":0,"msg":"success","data":{}}`)
	w := webhookFor(t, "feishu", secret, h.srv.URL+"/open-apis/bot/v2/hook/x")
	if err := w.Send(t.Context(), failedEvent(nil)); err != nil {
		t.Fatal(err)
	}
	var got struct {
		Timestamp string `json:"timestamp"`
		Sign      string `json:"sign"`
		MsgType   string `json:"msg_type"`
		Content   struct {
			Text string `json:"text"`
		} `json:"content"`
	}
	if err := json.Unmarshal(h.next(t).body, &got); err != nil {
		t.Fatal(err)
	}
	if got.MsgType != "text" {
		t.Errorf("msg_type %q", got.MsgType)
	}
	containsAll(t, got.Content.Text, wantSummaryLines)
	// Verify independently: key = ts+"\n"+secret, empty message.
	sec, err := strconv.ParseInt(got.Timestamp, 10, 64)
	if err != nil || time.Since(time.Unix(sec, 0)).Abs() > time.Minute {
		t.Fatalf("timestamp %q", got.Timestamp)
	}
	mac := hmac.New(sha256.New, []byte(got.Timestamp+"\n"+secret))
	if want := base64.StdEncoding.EncodeToString(mac.Sum(nil)); got.Sign != want {
		t.Errorf("sign %q, want %q", got.Sign, want)
	}
}

// TestWebhookWeCom checks the WeCom markdown body (no signing).
func TestWebhookWeCom(t *testing.T) {
	h := startHook(t, http.StatusOK, `{"errcode":0,"errmsg":"ok"}`)
	w := webhookFor(t, "wecom", "ignored", h.srv.URL+"/cgi-bin/webhook/send?key=k")
	if err := w.Send(t.Context(), failedEvent(nil)); err != nil {
		t.Fatal(err)
	}
	c := h.next(t)
	var got struct {
		MsgType  string `json:"msgtype"`
		Markdown struct {
			Content string `json:"content"`
		} `json:"markdown"`
	}
	if err := json.Unmarshal(c.body, &got); err != nil {
		t.Fatal(err)
	}
	if got.MsgType != "markdown" || c.query.Has("sign") {
		t.Errorf("payload %+v, query %v", got, c.query)
	}
	containsAll(t, got.Markdown.Content, wantSummaryLines)
}

// TestWebhookFailures: a robot's non-zero code, HTTP errors and timeouts
// fail the alarm with the cause in the error.
func TestWebhookFailures(t *testing.T) {
	tests := []struct {
		name, format string
		status       int
		reply, want  string
	}{
		{"dingtalk errcode", "dingtalk", 200, `{"errcode":310000,"errmsg":"sign not match"}`, "errcode=310000"},
		{"feishu code", "feishu", 200, `{"code":19021,"msg":"sign match fail"}`, "code=19021"},
		{"wecom errcode", "wecom", 200, `{"errcode":93000,"errmsg":"invalid webhook url"}`, "invalid webhook url"},
		{"http 500", "generic", 500, "boom", "HTTP 500: boom"},
		{"http 404 robot", "dingtalk", 404, "not found", "HTTP 404"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			h := startHook(t, tt.status, tt.reply)
			err := webhookFor(t, tt.format, "", h.srv.URL+"/x?access_token=secret-token").Send(t.Context(), failedEvent(nil))
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("Send = %v, want error containing %q", err, tt.want)
			}
			if strings.Contains(err.Error(), "secret-token") {
				t.Errorf("error leaks the access token: %v", err)
			}
		})
	}
}

func TestWebhookTimeout(t *testing.T) {
	release := make(chan struct{})
	srv := httptest.NewServer(http.HandlerFunc(func(_ http.ResponseWriter, r *http.Request) {
		select {
		case <-r.Context().Done():
		case <-release:
		}
	}))
	defer srv.Close()
	defer close(release)
	w := newWebhook(config.Alarm{WebhookURLs: []string{srv.URL}, WebhookFormat: "auto", Timeout: 200 * time.Millisecond}, i18n.Load("en"))
	start := time.Now()
	err := w.Send(t.Context(), failedEvent(nil))
	if err == nil || !strings.Contains(err.Error(), "deadline exceeded") {
		t.Fatalf("Send = %v, want a timeout", err)
	}
	if d := time.Since(start); d > 2*time.Second {
		t.Fatalf("timeout took %v", d)
	}
}

// TestAlarmEmailURLRouted: URLs in alarm_email go to the webhook channel,
// not to SMTP; the mail address beside it is still mailed.
func TestAlarmEmailURLRouted(t *testing.T) {
	h := startHook(t, http.StatusOK, "")
	srv := startSMTP(t, smtpServerOpts{})
	logger, logs := newLogger()
	a := New(Config{Mail: mailConfig(srv.port), Alarm: config.Alarm{EmailEnabled: true, WebhookFormat: "auto"}, Texts: i18n.Load("en"), Log: logger})
	ev := failedEvent(strp("ops@x.test, " + h.srv.URL + "/job-hook"))
	if !a.Alarm(t.Context(), ev) {
		t.Fatalf("Alarm = false: %s", logs.String())
	}
	var got map[string]any
	if err := json.Unmarshal(h.next(t).body, &got); err != nil || got["log_id"] != float64(77) {
		t.Fatalf("webhook body %v (%v)", got, err)
	}
	msgs := srv.messages()
	if len(msgs) != 1 || len(msgs[0].rcpts) != 1 || msgs[0].rcpts[0] != "ops@x.test" {
		t.Fatalf("mail %+v", msgs)
	}
}
