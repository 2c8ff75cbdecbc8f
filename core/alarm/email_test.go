package alarm

import (
	"bytes"
	"context"
	"crypto/tls"
	"encoding/base64"
	"io"
	"mime"
	"mime/multipart"
	"mime/quotedprintable"
	"net"
	"net/mail"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/xxl-admin-go/xxl-admin-go/compat/config"
	"github.com/xxl-admin-go/xxl-admin-go/compat/i18n"
)

const mailFrom = "xxl-job@example.test"

func mailConfig(port int) config.Mail {
	return config.Mail{
		Host: "127.0.0.1", Port: port,
		Username: smtpUser, Password: smtpPass, From: mailFrom, Auth: true,
		ConnTimeout: 3 * time.Second, Timeout: 3 * time.Second,
	}
}

// parsedMail is a received message decoded as a mail client would.
type parsedMail struct {
	fromName, fromAddr, to, subject, contentType, html string
}

func parseMail(t *testing.T, data []byte) parsedMail {
	t.Helper()
	m, err := mail.ReadMessage(bytes.NewReader(data))
	if err != nil {
		t.Fatalf("parse message: %v\n%s", err, data)
	}
	var p parsedMail
	from, err := mail.ParseAddress(m.Header.Get("From"))
	if err != nil {
		t.Fatalf("From %q: %v", m.Header.Get("From"), err)
	}
	p.fromName, p.fromAddr = from.Name, from.Address
	p.to = m.Header.Get("To")
	if p.subject, err = new(mime.WordDecoder).DecodeHeader(m.Header.Get("Subject")); err != nil {
		t.Fatal(err)
	}
	p.contentType, p.html = htmlPart(t, m.Header.Get("Content-Type"), m.Header.Get("Content-Transfer-Encoding"), m.Body)
	return p
}

// htmlPart finds the text/html part, whether the message is multipart or not.
func htmlPart(t *testing.T, ctype, cte string, body io.Reader) (string, string) {
	t.Helper()
	mt, params, err := mime.ParseMediaType(ctype)
	if err != nil {
		t.Fatalf("Content-Type %q: %v", ctype, err)
	}
	if strings.HasPrefix(mt, "multipart/") {
		r := multipart.NewReader(body, params["boundary"])
		for {
			part, err := r.NextRawPart()
			if err != nil {
				t.Fatalf("no text/html part: %v", err)
			}
			if ct, html := htmlPart(t, part.Header.Get("Content-Type"), part.Header.Get("Content-Transfer-Encoding"), part); ct == "text/html" {
				return ct, html
			}
		}
	}
	switch strings.ToLower(cte) {
	case "quoted-printable":
		body = quotedprintable.NewReader(body)
	case "base64":
		body = base64.NewDecoder(base64.StdEncoding, body)
	}
	b, err := io.ReadAll(body)
	if err != nil {
		t.Fatal(err)
	}
	return mt, string(b)
}

// TestEmailMessages checks the envelope and body of config.md §4 steps 2–5.
func TestEmailMessages(t *testing.T) {
	tests := []struct {
		lang, fromName, subject, alarmType, heading string
	}{
		{"en", "Distributed Task Scheduling Platform XXL-JOB", "Task Scheduling Center monitor alarm", "Trigger Fail", "monitor alarm details："},
		{"zh_CN", "分布式任务调度平台XXL-JOB", "任务调度中心监控报警", "调度失败", "监控告警明细："},
	}
	for _, tt := range tests {
		t.Run(tt.lang, func(t *testing.T) {
			srv := startSMTP(t, smtpServerOpts{})
			texts := i18n.Load(tt.lang)
			e := newEmail(mailConfig(srv.port), nil, texts)
			// Duplicates and empty items are dropped; items are not trimmed,
			// so " b@x.test" is an address of its own (net/mail trims it).
			ev := failedEvent(strp("a@x.test,b@x.test,a@x.test,,c@x.test"))
			if err := e.Send(t.Context(), ev); err != nil {
				t.Fatalf("Send: %v", err)
			}
			msgs := srv.messages()
			var rcpts []string
			for _, m := range msgs {
				if len(m.rcpts) != 1 {
					t.Fatalf("message to %v, want one recipient per message", m.rcpts)
				}
				rcpts = append(rcpts, m.rcpts[0])
				if m.from != mailFrom {
					t.Errorf("MAIL FROM %q, want %q", m.from, mailFrom)
				}
				p := parseMail(t, m.data)
				if p.fromName != tt.fromName || p.fromAddr != mailFrom {
					t.Errorf("From = %q <%s>, want %q <%s>", p.fromName, p.fromAddr, tt.fromName, mailFrom)
				}
				if p.subject != tt.subject {
					t.Errorf("Subject = %q, want %q", p.subject, tt.subject)
				}
				if p.contentType != "text/html" {
					t.Errorf("content type %q", p.contentType)
				}
				if !strings.Contains(p.to, m.rcpts[0]) {
					t.Errorf("To %q, RCPT %q", p.to, m.rcpts[0])
				}
				for _, want := range []string{
					tt.heading,
					"<td>Demo &lt;exec&gt;</td>", // group title, escaped
					"<td>1,234</td>",             // MessageFormat grouping
					"<td>Nightly &lt;b&gt;&#34;report&#34;&lt;/b&gt; &amp; co</td>", // job desc, escaped
					"<td>" + tt.alarmType + "</td>",
					"<td>Alarm Job LogId=77<br>TriggerMsg=<br>" + *ev.Log.TriggerMsg + "<br>HandleCode=handler <i>boom</i></td>",
					`background-color:#ff8c00`,
					`<td width="40%">` + texts.Text("jobconf_monitor_alarm_content") + `</td>`,
				} {
					if !strings.Contains(p.html, want) {
						t.Errorf("body lacks %q:\n%s", want, p.html)
					}
				}
			}
			slices.Sort(rcpts)
			if want := []string{"a@x.test", "b@x.test", "c@x.test"}; !slices.Equal(rcpts, want) {
				t.Fatalf("recipients %v, want %v", rcpts, want)
			}
		})
	}
}

// TestEmailContentVariants checks which failure lines appear (config.md §4 step 5).
func TestEmailContentVariants(t *testing.T) {
	tests := []struct {
		name                    string
		triggerCode, handleCode int
		group                   bool
		want                    string
	}{
		{"trigger failed only", 500, 0, true, "<td>Alarm Job LogId=77<br>TriggerMsg=<br>tm</td>"},
		{"handle failed only", 200, 500, true, "<td>Alarm Job LogId=77<br>HandleCode=hm</td>"},
		{"handle success", 200, 200, true, "<td>Alarm Job LogId=77</td>"},
		{"group gone", 200, 0, false, "<td>null</td>"},
	}
	srv := startSMTP(t, smtpServerOpts{})
	e := newEmail(mailConfig(srv.port), nil, i18n.Load("en"))
	for i, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ev := failedEvent(strp("ops@x.test"))
			ev.Log.TriggerCode, ev.Log.TriggerMsg = tt.triggerCode, strp("tm")
			ev.Log.HandleCode, ev.Log.HandleMsg = tt.handleCode, strp("hm")
			if !tt.group {
				ev.Group = nil
			}
			if err := e.Send(t.Context(), ev); err != nil {
				t.Fatal(err)
			}
			msgs := srv.messages()
			if len(msgs) != i+1 {
				t.Fatalf("%d messages, want %d", len(msgs), i+1)
			}
			if html := parseMail(t, msgs[i].data).html; !strings.Contains(html, tt.want) {
				t.Fatalf("body lacks %q:\n%s", tt.want, html)
			}
		})
	}
}

// TestEmailTLS maps the spring.mail.properties TLS keys (config.md §2.3).
func TestEmailTLS(t *testing.T) {
	serverTLS, clientTLS := selfSigned(t)
	tests := []struct {
		name    string
		server  smtpServerOpts
		mail    func(*config.Mail)
		wantErr bool
		wantTLS bool
	}{
		{"STARTTLS required", smtpServerOpts{StartTLS: serverTLS}, func(m *config.Mail) { m.StartTLSEnable, m.StartTLSRequired = true, true }, false, true},
		{"STARTTLS opportunistic, offered", smtpServerOpts{StartTLS: serverTLS}, func(m *config.Mail) { m.StartTLSEnable = true }, false, true},
		{"STARTTLS opportunistic, not offered", smtpServerOpts{}, func(m *config.Mail) { m.StartTLSEnable = true }, false, false},
		{"STARTTLS required, not offered", smtpServerOpts{}, func(m *config.Mail) { m.StartTLSEnable, m.StartTLSRequired = true, true }, true, false},
		{"implicit TLS", smtpServerOpts{Implicit: serverTLS}, func(m *config.Mail) { m.ImplicitTLS, m.StartTLSEnable, m.StartTLSRequired = true, true, true }, false, true},
		{"no TLS, plain auth", smtpServerOpts{}, func(*config.Mail) {}, false, false},
		{"wrong password", smtpServerOpts{}, func(m *config.Mail) { m.Password = "nope" }, true, false},
		{"no auth configured", smtpServerOpts{}, func(m *config.Mail) { m.Auth = false }, true, false}, // server demands AUTH
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			srv := startSMTP(t, tt.server)
			cfg := mailConfig(srv.port)
			tt.mail(&cfg)
			err := newEmail(cfg, clientTLS, i18n.Load("en")).Send(t.Context(), failedEvent(strp("ops@x.test")))
			if (err != nil) != tt.wantErr {
				t.Fatalf("Send error = %v, want error %v", err, tt.wantErr)
			}
			if tt.wantErr {
				return
			}
			msgs := srv.messages()
			if len(msgs) != 1 || msgs[0].tls != tt.wantTLS {
				t.Fatalf("messages %d, encrypted %v; want 1, %v", len(msgs), len(msgs) > 0 && msgs[0].tls, tt.wantTLS)
			}
		})
	}
}

// TestEmailUntrustedCert: without the test root the certificate is refused.
func TestEmailUntrustedCert(t *testing.T) {
	serverTLS, _ := selfSigned(t)
	srv := startSMTP(t, smtpServerOpts{Implicit: serverTLS})
	cfg := mailConfig(srv.port)
	cfg.ImplicitTLS = true
	err := newEmail(cfg, &tls.Config{MinVersion: tls.VersionTLS12}, i18n.Load("en")).Send(t.Context(), failedEvent(strp("ops@x.test")))
	if err == nil || len(srv.messages()) != 0 {
		t.Fatalf("Send = %v, %d messages; want a certificate error", err, len(srv.messages()))
	}
}

// TestEmailBlankRecipients: a null/blank alarm_email is success without any
// SMTP connection (config.md §4 step 1, alarm_status 2 in scheduler.md §8).
func TestEmailBlankRecipients(t *testing.T) {
	srv := startSMTP(t, smtpServerOpts{})
	e := newEmail(mailConfig(srv.port), nil, i18n.Load("en"))
	for _, ae := range []*string{nil, strp(""), strp("   "), strp(",,")} {
		if err := e.Send(t.Context(), failedEvent(ae)); err != nil {
			t.Errorf("alarm_email %v: %v", ae, err)
		}
	}
	if n := srv.sessionCount(); n != 0 {
		t.Fatalf("%d SMTP sessions, want none", n)
	}
}

// TestAlarmSMTPDownThenUp: a closed port fails the alarm fast and logs the
// cause; once the server listens the same alarm succeeds.
func TestAlarmSMTPDownThenUp(t *testing.T) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := l.Addr().String()
	port := l.Addr().(*net.TCPAddr).Port
	_ = l.Close()

	logger, logs := newLogger()
	a := New(Config{Mail: mailConfig(port), Alarm: config.Alarm{EmailEnabled: true}, Texts: i18n.Load("en"), Log: logger})
	ev := failedEvent(strp("ops@x.test"))

	start := time.Now()
	if a.Alarm(t.Context(), ev) {
		t.Fatal("Alarm = true with the SMTP server down")
	}
	if d := time.Since(start); d > 2*time.Second {
		t.Fatalf("failure took %v", d)
	}
	for _, want := range []string{`"channel":"email"`, `"job_id":1234`, `"log_id":77`, "connection refused"} {
		if !strings.Contains(logs.String(), want) {
			t.Errorf("log lacks %s: %s", want, logs.String())
		}
	}

	l, err = net.Listen("tcp", addr)
	if err != nil {
		t.Skipf("port %s taken meanwhile: %v", addr, err)
	}
	srv := startSMTP(t, smtpServerOpts{Listener: l})
	if !a.Alarm(context.Background(), ev) {
		t.Fatalf("Alarm = false with the server up: %s", logs.String())
	}
	if len(srv.messages()) != 1 {
		t.Fatalf("%d messages", len(srv.messages()))
	}
}

// TestEmailPartialFailure: a refused recipient fails the alarm, the other
// recipients still get their message (config.md §4 step 2).
func TestEmailPartialFailure(t *testing.T) {
	srv := startSMTP(t, smtpServerOpts{})
	e := newEmail(mailConfig(srv.port), nil, i18n.Load("en"))
	err := e.Send(t.Context(), failedEvent(strp("a@x.test,reject@x.test,not an address,b@x.test")))
	if err == nil || !strings.Contains(err.Error(), "no such user") || !strings.Contains(err.Error(), "not an address") {
		t.Fatalf("Send = %v, want the refusal and the bad address", err)
	}
	var got []string
	for _, m := range srv.messages() {
		got = append(got, m.rcpts...)
	}
	slices.Sort(got)
	if want := []string{"a@x.test", "b@x.test"}; !slices.Equal(got, want) {
		t.Fatalf("delivered to %v, want %v", got, want)
	}
}
