package alarm

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"time"

	"github.com/xxl-admin-go/xxl-admin-go/compat/config"
)

// defaultWebhookTimeout applies when xxl.job.alarm.timeout is not positive.
const defaultWebhookTimeout = 5 * time.Second

// replyLimit caps how much of a webhook's reply is read and quoted.
const replyLimit = 64 << 10

// webhook posts each alarm to the configured URLs and to the URLs found in
// the job's alarm_email. It is not part of Java 2.4.2 (config.md §4, last line).
type webhook struct {
	targets []target // from xxl.job.alarm.webhook.url
	timeout time.Duration
	client  *http.Client
	texts   Texts
	html    htmlText
	now     func() time.Time
}

// target is one URL with its format and signing secret.
type target struct {
	url    string
	format string
	secret string
}

func newWebhook(cfg config.Alarm, texts Texts) *webhook {
	w := &webhook{
		timeout: orDefault(cfg.Timeout, defaultWebhookTimeout),
		// Alarms are rare: keep-alive would only leave idle connections
		// (and their goroutines) behind.
		client: &http.Client{Transport: &http.Transport{
			Proxy:             http.ProxyFromEnvironment,
			DisableKeepAlives: true,
		}},
		texts: texts,
		html:  newHTMLText(),
		now:   time.Now,
	}
	for _, u := range cfg.WebhookURLs {
		w.targets = append(w.targets, newTarget(u, cfg.WebhookFormat, cfg.WebhookSecret))
	}
	return w
}

// newTarget resolves the format ("auto" or empty → by host) and the secret:
// a "#secret=…" fragment on the URL overrides the configured one, so a job's
// alarm_email can name a signed robot of its own.
func newTarget(rawURL, format, secret string) target {
	t := target{url: rawURL, format: format, secret: secret}
	if i := strings.IndexByte(rawURL, '#'); i >= 0 {
		t.url = rawURL[:i]
		if s, ok := strings.CutPrefix(rawURL[i+1:], "secret="); ok {
			if dec, err := url.QueryUnescape(s); err == nil {
				s = dec
			}
			t.secret = s
		}
	}
	if t.format == "" || t.format == formatAuto {
		t.format = inferFormat(t.url)
	}
	return t
}

func (w *webhook) Name() string { return WebhookChannel }

// Send posts to every target concurrently; any failure fails the alarm.
func (w *webhook) Send(ctx context.Context, ev Event) error {
	targets := append([]target(nil), w.targets...)
	for _, u := range splitAlarmEmail(ev.Job.AlarmEmail).urls {
		// alarm_email URLs always infer their format; the configured
		// secret belongs to the configured robots only.
		targets = append(targets, newTarget(u, formatAuto, ""))
	}
	targets = uniqueTargets(targets)
	if len(targets) == 0 {
		return nil
	}
	errs := make([]error, len(targets))
	var wg sync.WaitGroup
	for i, t := range targets {
		wg.Go(func() { errs[i] = w.post(ctx, t, ev) })
	}
	wg.Wait()
	return errors.Join(errs...)
}

func uniqueTargets(ts []target) []target {
	seen := map[string]bool{}
	out := ts[:0]
	for _, t := range ts {
		if !seen[t.url] {
			seen[t.url] = true
			out = append(out, t)
		}
	}
	return out
}

func (w *webhook) post(ctx context.Context, t target, ev Event) error {
	now := w.now()
	body, err := w.payload(t.format, ev, t.secret, now)
	if err != nil {
		return err
	}
	dest := t.url
	if t.format == formatDingTalk && t.secret != "" {
		if dest, err = signDingTalk(dest, t.secret, now); err != nil {
			return fmt.Errorf("webhook %s: sign: %w", redact(t.url), err)
		}
	}
	ctx, cancel := context.WithTimeout(ctx, w.timeout)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, dest, bytes.NewReader(body))
	if err != nil {
		return fmt.Errorf("webhook %s: %w", redact(t.url), err)
	}
	req.Header.Set("Content-Type", "application/json; charset=utf-8")
	resp, err := w.client.Do(req)
	if err != nil {
		// The *url.Error would quote the full URL, access token included.
		var ue *url.Error
		if errors.As(err, &ue) {
			err = ue.Err
		}
		return fmt.Errorf("webhook %s (%s): %w", redact(t.url), t.format, err)
	}
	defer resp.Body.Close()
	reply, err := io.ReadAll(io.LimitReader(resp.Body, replyLimit))
	if err != nil {
		return fmt.Errorf("webhook %s (%s): read reply: %w", redact(t.url), t.format, err)
	}
	if err := checkReply(t.format, resp.StatusCode, reply); err != nil {
		return fmt.Errorf("webhook %s (%s): %w", redact(t.url), t.format, err)
	}
	return nil
}

// checkReply accepts HTTP 2xx and, for the robot formats, a JSON errcode
// (DingTalk, WeCom) or code / StatusCode (Feishu) of 0 when present: robots
// answer 200 with a non-zero code for bad tokens, signatures or payloads.
func checkReply(format string, status int, reply []byte) error {
	if status < 200 || status > 299 {
		return fmt.Errorf("HTTP %d: %s", status, snippet(reply))
	}
	if format == formatGeneric {
		return nil
	}
	var fields map[string]json.RawMessage
	if json.Unmarshal(reply, &fields) != nil {
		return nil
	}
	for _, key := range []string{"errcode", "code", "StatusCode"} {
		raw, ok := fields[key]
		if !ok {
			continue
		}
		var code json.Number
		if err := json.Unmarshal(raw, &code); err != nil || code.String() != "0" {
			return fmt.Errorf("%s=%s: %s", key, raw, snippet(reply))
		}
	}
	return nil
}

func snippet(b []byte) string {
	const max = 256
	s := strings.TrimSpace(string(b))
	if len(s) > max {
		s = strings.ToValidUTF8(s[:max], "") + "…"
	}
	return s
}

// redact drops query and fragment: robot URLs carry their access token there.
func redact(rawURL string) string {
	u, err := url.Parse(rawURL)
	if err != nil {
		return "(invalid url)"
	}
	u.RawQuery, u.Fragment, u.User = "", "", nil
	return u.String()
}
