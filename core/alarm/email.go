package alarm

import (
	"context"
	"crypto/tls"
	"errors"
	"fmt"
	"time"

	mail "github.com/wneessen/go-mail"

	"github.com/xxl-admin-go/xxl-admin-go/compat/config"
)

// defaultMailTimeout bounds connect and each SMTP command when
// mail.smtp.connectiontimeout / mail.smtp.timeout are not set. JavaMail
// waits forever (config.md §4 step 6); the fail monitor must not.
const defaultMailTimeout = 10 * time.Second

// email is the Java admin's e-mail alarm (config.md §4).
type email struct {
	cfg   config.Mail
	tls   *tls.Config
	texts Texts
	body  mailBody
}

func newEmail(cfg config.Mail, tlsCfg *tls.Config, texts Texts) *email {
	return &email{cfg: cfg, tls: tlsCfg, texts: texts, body: newMailBody()}
}

func (e *email) Name() string { return EmailChannel }

// Send mails one message per recipient over one SMTP session. A rejected
// recipient does not stop the others; any failure fails the alarm.
func (e *email) Send(ctx context.Context, ev Event) error {
	to := splitAlarmEmail(ev.Job.AlarmEmail).mail
	if len(to) == 0 {
		return nil // blank alarm_email (or only URLs): nothing to mail is success
	}
	html, err := e.body.render(e.texts, ev)
	if err != nil {
		return err
	}
	msgs := make([]*mail.Msg, 0, len(to))
	var errs []error
	for _, rcpt := range to {
		m, err := e.message(rcpt, html)
		if err != nil {
			errs = append(errs, err)
			continue
		}
		msgs = append(msgs, m)
	}
	if len(msgs) > 0 {
		if err := e.deliver(ctx, msgs); err != nil {
			errs = append(errs, err)
		}
	}
	return errors.Join(errs...)
}

// message builds one recipient's mail (config.md §4 step 3).
func (e *email) message(rcpt, html string) (*mail.Msg, error) {
	m := mail.NewMsg()
	if err := m.FromFormat(e.texts.Text("admin_name_full"), e.cfg.From); err != nil {
		return nil, fmt.Errorf("mail from %q: %w", e.cfg.From, err)
	}
	if err := m.To(rcpt); err != nil {
		return nil, fmt.Errorf("mail recipient %q: %w", rcpt, err)
	}
	m.Subject(e.texts.Text("jobconf_monitor"))
	m.SetDate()
	m.SetMessageID()
	m.SetBodyString(mail.TypeTextHTML, html)
	return m, nil
}

func (e *email) deliver(ctx context.Context, msgs []*mail.Msg) error {
	client, err := mail.NewClient(e.cfg.Host, e.clientOptions()...)
	if err != nil {
		return fmt.Errorf("smtp client for %s: %w", e.address(), err)
	}
	// go-mail bounds the dial by the smaller of ctx and its own timeout, which
	// afterwards bounds each command; ConnTimeout therefore goes into ctx.
	dialCtx, cancel := context.WithTimeout(ctx, orDefault(e.cfg.ConnTimeout, defaultMailTimeout))
	defer cancel()
	if err := client.DialAndSendWithContext(dialCtx, msgs...); err != nil {
		return fmt.Errorf("smtp %s: %w", e.address(), err)
	}
	return nil
}

// clientOptions maps the spring.mail.* keys (config.md §2.3) to go-mail.
func (e *email) clientOptions() []mail.Option {
	opts := []mail.Option{
		mail.WithPort(e.cfg.Port),
		mail.WithTimeout(orDefault(e.cfg.Timeout, defaultMailTimeout)),
		mail.WithTLSConfig(e.tlsConfig()),
	}
	switch {
	case e.cfg.ImplicitTLS:
		opts = append(opts, mail.WithSSL())
	case e.cfg.StartTLSRequired:
		// JavaMail honours starttls.required even without starttls.enable.
		opts = append(opts, mail.WithTLSPolicy(mail.TLSMandatory))
	case e.cfg.StartTLSEnable:
		opts = append(opts, mail.WithTLSPolicy(mail.TLSOpportunistic))
	default:
		opts = append(opts, mail.WithTLSPolicy(mail.NoTLS))
	}
	if e.cfg.Auth {
		opts = append(opts,
			mail.WithUsername(e.cfg.Username),
			mail.WithPassword(e.cfg.Password),
			mail.WithOpportunisticSMTPAuth(e.authMechanisms()...))
	}
	return opts
}

// authMechanisms prefers PLAIN, then LOGIN. When the configuration does not
// demand encryption, JavaMail authenticates over a plain connection too, so
// the "no encryption" variants keep such deployments working; when TLS is
// demanded, go-mail's checks refuse to send the password in clear.
func (e *email) authMechanisms() []mail.SMTPAuthType {
	if e.cfg.ImplicitTLS || e.cfg.StartTLSRequired {
		return []mail.SMTPAuthType{mail.SMTPAuthPlain, mail.SMTPAuthLogin}
	}
	return []mail.SMTPAuthType{mail.SMTPAuthPlainNoEnc, mail.SMTPAuthLoginNoEnc}
}

func (e *email) tlsConfig() *tls.Config {
	var c *tls.Config
	if e.tls != nil {
		c = e.tls.Clone()
	} else {
		c = &tls.Config{MinVersion: tls.VersionTLS12}
	}
	if c.ServerName == "" {
		c.ServerName = e.cfg.Host
	}
	return c
}

func (e *email) address() string { return fmt.Sprintf("%s:%d", e.cfg.Host, e.cfg.Port) }

func orDefault(d, def time.Duration) time.Duration {
	if d <= 0 {
		return def
	}
	return d
}
