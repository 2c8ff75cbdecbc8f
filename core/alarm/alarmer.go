package alarm

import (
	"context"
	"crypto/tls"
	"errors"
	"fmt"
	"sync"

	"github.com/rs/zerolog"

	"github.com/xxl-admin-go/xxl-admin-go/compat/config"
	"github.com/xxl-admin-go/xxl-admin-go/compat/schema"
)

// Event is one failed log row to alarm about, with its job and group, or
// one failed workflow run (Run set).
type Event struct {
	Job   schema.JobInfo
	Group *schema.Group // nil when the group no longer exists (rendered "null", as Java)
	Log   schema.JobLog
	// Run, when set, makes the event a failed workflow run's: Job then
	// carries the workflow's id and name and the recipients (the alarm
	// e-mails of the failed nodes' jobs), Log the first failed node's log.
	Run *RunFailure
}

// RunFailure is what a failed workflow run's alarm says besides its
// first failed node's log.
type RunFailure struct {
	WorkflowID int
	Workflow   string // the workflow's name
	RunID      int64
	// Failed names each failed node: `2 "load" (job 12, log 345)`.
	Failed []string
}

// Channel is one way of delivering an alarm.
type Channel interface {
	Name() string
	// Send delivers the alarm; it returns nil when it succeeded or when it
	// does not apply to this job (e.g. e-mail with a blank alarm_email — Java
	// counts that as success, config.md §4 step 1).
	Send(ctx context.Context, ev Event) error
}

// Texts is the i18n bundle the alarm texts come from; *i18n.Bundle fits.
type Texts interface {
	Text(key string) string
	Format(key string, args ...any) string
}

// Config selects and configures the channels.
type Config struct {
	Mail  config.Mail
	Alarm config.Alarm
	// MailTLS, when set, is the TLS configuration for SMTP (implicit TLS and
	// STARTTLS), e.g. to trust a private CA; ServerName defaults to the
	// mail host. Nil means the system roots.
	MailTLS *tls.Config
	// Observe, when set, sees every channel's result of every alarm
	// (metrics).
	Observe func(channel string, ok bool)
	Texts   Texts // the configured i18n bundle (subject, table labels)
	Log     zerolog.Logger
	// Extra channels run after e-mail and webhooks (tests, future channels).
	Extra []Channel
}

// Alarmer runs every registered channel for each event.
type Alarmer struct {
	channels []Channel
	log      zerolog.Logger
	observe  func(channel string, ok bool)
}

// Channel names, as logged and listed by Channels.
const (
	EmailChannel   = "email"
	WebhookChannel = "webhook"
)

// New builds the channel registry from cfg: e-mail unless
// xxl.job.alarm.email.enabled is false, webhooks always (they apply only when
// URLs are configured or found in a job's alarm_email), then extra.
func New(cfg Config) *Alarmer {
	a := &Alarmer{log: cfg.Log.With().Str("component", "alarm").Logger(), observe: cfg.Observe}
	if cfg.Alarm.EmailEnabled {
		a.channels = append(a.channels, newEmail(cfg.Mail, cfg.MailTLS, cfg.Texts))
	}
	a.channels = append(a.channels, newWebhook(cfg.Alarm, cfg.Texts))
	for _, c := range cfg.Extra {
		if c != nil {
			a.channels = append(a.channels, c)
		}
	}
	return a
}

// Channels lists the registered channel names in registration order.
func (a *Alarmer) Channels() []string {
	names := make([]string, len(a.channels))
	for i, c := range a.channels {
		names[i] = c.Name()
	}
	return names
}

// Alarm runs every channel concurrently and reports whether all of them
// succeeded (config.md §4: the overall result is true only if every sender
// succeeds; an exception — here a panic — counts as a failure). Failures are
// logged; Alarm itself never panics.
func (a *Alarmer) Alarm(ctx context.Context, ev Event) bool {
	errs := make([]error, len(a.channels))
	var wg sync.WaitGroup
	for i, c := range a.channels {
		wg.Go(func() { errs[i] = sendSafely(ctx, c, ev) })
	}
	wg.Wait()
	ok := true
	for i, err := range errs {
		if a.observe != nil {
			a.observe(a.channels[i].Name(), err == nil)
		}
		if err == nil {
			continue
		}
		ok = false
		a.log.Error().Err(err).
			Str("channel", a.channels[i].Name()).
			Int("job_id", ev.Job.ID).
			Int64("log_id", ev.Log.ID).
			Msg("job fail alarm send error")
	}
	return ok
}

// errPanic marks a channel that panicked instead of returning.
var errPanic = errors.New("alarm channel panicked")

func sendSafely(ctx context.Context, c Channel, ev Event) (err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("%w: %v", errPanic, r)
		}
	}()
	return c.Send(ctx, ev)
}
