package alarm

import (
	"testing"

	"github.com/xxl-admin-go/xxl-admin-go/compat/i18n"
)

// TestEmailMessages342: the 3.4.2 admin's EmailJobAlarm is 2.4.2's (same
// template, subject key and sender key); what changes on a 3.x database
// is its bundle's admin_name_full, the sender's display name, which now
// carries a full-width bar.
func TestEmailMessages342(t *testing.T) {
	for _, tt := range []struct{ lang, fromName, subject string }{
		{"en", "Distributed Task Scheduling Platform｜XXL-JOB", "Task Scheduling Center monitor alarm"},
		{"zh_CN", "分布式任务调度平台｜XXL-JOB", "任务调度中心监控报警"},
	} {
		t.Run(tt.lang, func(t *testing.T) {
			srv := startSMTP(t, smtpServerOpts{})
			e := newEmail(mailConfig(srv.port), nil, i18n.LoadFor(3, tt.lang))
			if err := e.Send(t.Context(), failedEvent(strp("a@x.test"))); err != nil {
				t.Fatalf("Send: %v", err)
			}
			msgs := srv.messages()
			if len(msgs) != 1 {
				t.Fatalf("%d messages, want 1", len(msgs))
			}
			p := parseMail(t, msgs[0].data)
			if p.fromName != tt.fromName || p.fromAddr != mailFrom || p.subject != tt.subject {
				t.Errorf("From %q <%s>, Subject %q; want %q <%s>, %q", p.fromName, p.fromAddr, p.subject, tt.fromName, mailFrom, tt.subject)
			}
		})
	}
}
