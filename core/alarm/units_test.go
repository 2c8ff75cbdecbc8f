package alarm

import (
	"slices"
	"testing"

	"github.com/rs/zerolog"
)

func newNopLogger() zerolog.Logger { return zerolog.Nop() }

// TestSplitAlarmEmail: config.md §4 step 2 (split on ",", not trimmed,
// duplicates removed) plus URL routing to webhooks.
func TestSplitAlarmEmail(t *testing.T) {
	tests := []struct {
		in         *string
		mail, urls []string
	}{
		{nil, nil, nil},
		{strp("  "), nil, nil},
		{strp("a@x,b@x,a@x"), []string{"a@x", "b@x"}, nil},
		{strp("a@x, a@x,,"), []string{"a@x", " a@x"}, nil},
		{strp("a@x, https://oapi.dingtalk.com/robot/send?access_token=t,HTTP://h/x"), []string{"a@x"}, []string{"https://oapi.dingtalk.com/robot/send?access_token=t", "HTTP://h/x"}},
	}
	for _, tt := range tests {
		got := splitAlarmEmail(tt.in)
		if !slices.Equal(got.mail, tt.mail) || !slices.Equal(got.urls, tt.urls) {
			t.Errorf("split(%v) = %q %q, want %q %q", tt.in, got.mail, got.urls, tt.mail, tt.urls)
		}
	}
}

func TestNewTarget(t *testing.T) {
	tests := []struct {
		url, format, secret string
		want                target
	}{
		{"https://oapi.dingtalk.com/robot/send?access_token=a", "auto", "", target{"https://oapi.dingtalk.com/robot/send?access_token=a", formatDingTalk, ""}},
		{"https://open.feishu.cn/open-apis/bot/v2/hook/x", "", "s", target{"https://open.feishu.cn/open-apis/bot/v2/hook/x", formatFeishu, "s"}},
		{"https://open.larksuite.com/open-apis/bot/v2/hook/x", "auto", "", target{"https://open.larksuite.com/open-apis/bot/v2/hook/x", formatFeishu, ""}},
		{"https://QYAPI.weixin.qq.com/cgi-bin/webhook/send?key=k", "auto", "", target{"https://QYAPI.weixin.qq.com/cgi-bin/webhook/send?key=k", formatWeCom, ""}},
		{"https://hooks.example.com/x", "auto", "", target{"https://hooks.example.com/x", formatGeneric, ""}},
		{"https://hooks.example.com/x", "dingtalk", "", target{"https://hooks.example.com/x", formatDingTalk, ""}},
		{"https://oapi.dingtalk.com/robot/send?access_token=a#secret=SEC%2Bx", "auto", "global", target{"https://oapi.dingtalk.com/robot/send?access_token=a", formatDingTalk, "SEC+x"}},
	}
	for _, tt := range tests {
		if got := newTarget(tt.url, tt.format, tt.secret); got != tt.want {
			t.Errorf("newTarget(%q, %q) = %+v, want %+v", tt.url, tt.format, got, tt.want)
		}
	}
}

func TestCheckReply(t *testing.T) {
	tests := []struct {
		format string
		status int
		reply  string
		ok     bool
	}{
		{formatGeneric, 200, `{"errcode":5}`, true}, // generic receivers own their body
		{formatGeneric, 204, ``, true},
		{formatGeneric, 302, ``, false},
		{formatDingTalk, 200, `{"errcode":0,"errmsg":"ok"}`, true},
		{formatDingTalk, 200, `{"errcode":300001,"errmsg":"token is not exist"}`, false},
		{formatDingTalk, 200, `not json`, true},
		{formatFeishu, 200, `{"StatusCode":0,"code":0}`, true},
		{formatFeishu, 200, `{"code":9499,"msg":"Bad Request"}`, false},
		{formatFeishu, 200, `{"code":"x"}`, false},
		{formatWeCom, 200, `{"errcode":0}`, true},
		{formatWeCom, 503, `{"errcode":0}`, false},
	}
	for _, tt := range tests {
		if err := checkReply(tt.format, tt.status, []byte(tt.reply)); (err == nil) != tt.ok {
			t.Errorf("checkReply(%s, %d, %s) = %v, want ok %v", tt.format, tt.status, tt.reply, err, tt.ok)
		}
	}
}

func TestHTMLText(t *testing.T) {
	h := newHTMLText()
	tests := []struct{ in, want string }{
		{"a<br>b<BR/>c<br />d", "a\nb\nc\nd"},
		{`<span style="color:#00c0ef;" > >>>>触发调度<<<< </span><br>x`, ">>>>触发调度<<<<\nx"},
		{" a <br><br>\n b ", "a\nb"},
		{"1 &lt; 2 &amp;&amp; a<b", "1 < 2 && a<b"},
	}
	for _, tt := range tests {
		if got := h.plain(tt.in); got != tt.want {
			t.Errorf("plain(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

func TestJobIDText(t *testing.T) {
	for id, want := range map[int]string{7: "7", 999: "999", 1234: "1,234", 1234567: "1,234,567"} {
		if got := jobIDText(id); got != want {
			t.Errorf("jobIDText(%d) = %q, want %q", id, got, want)
		}
	}
}
