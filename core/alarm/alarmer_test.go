package alarm

import (
	"context"
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/xxl-admin-go/xxl-admin-go/compat/config"
	"github.com/xxl-admin-go/xxl-admin-go/compat/i18n"
)

type fakeChannel struct {
	name string
	send func(context.Context, Event) error
}

func (f fakeChannel) Name() string                             { return f.name }
func (f fakeChannel) Send(ctx context.Context, ev Event) error { return f.send(ctx, ev) }

func TestChannels(t *testing.T) {
	extra := fakeChannel{name: "sms"}
	tests := []struct {
		email bool
		want  []string
	}{
		{true, []string{"email", "webhook", "sms"}},
		{false, []string{"webhook", "sms"}}, // xxl.job.alarm.email.enabled=false
	}
	for _, tt := range tests {
		a := New(Config{Alarm: config.Alarm{EmailEnabled: tt.email}, Texts: i18n.Load("en"), Log: newNopLogger(), Extra: []Channel{extra, nil}})
		if got := a.Channels(); !slices.Equal(got, tt.want) {
			t.Errorf("email %v: Channels = %v, want %v", tt.email, got, tt.want)
		}
	}
}

// TestAlarmResult: true only if every channel succeeds; a panic or error in
// one is a failure, is logged, and does not stop the others (config.md §4).
func TestAlarmResult(t *testing.T) {
	ok := fakeChannel{name: "ok", send: func(context.Context, Event) error { return nil }}
	failing := fakeChannel{name: "bad", send: func(context.Context, Event) error { return errors.New("relay refused") }}
	panicking := fakeChannel{name: "boom", send: func(context.Context, Event) error { panic("nil map") }}
	tests := []struct {
		name     string
		channels []Channel
		want     bool
		logged   []string
	}{
		{"all succeed", []Channel{ok, ok}, true, nil},
		{"one fails", []Channel{ok, failing}, false, []string{`"channel":"bad"`, "relay refused", `"job_id":1234`, `"log_id":77`}},
		{"one panics", []Channel{panicking, ok}, false, []string{`"channel":"boom"`, "panicked: nil map"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			logger, logs := newLogger()
			// Email disabled and no webhooks: only the given channels act.
			a := New(Config{Texts: i18n.Load("en"), Log: logger, Extra: tt.channels})
			if got := a.Alarm(t.Context(), failedEvent(strp("ops@x.test"))); got != tt.want {
				t.Fatalf("Alarm = %v, want %v", got, tt.want)
			}
			for _, w := range tt.logged {
				if !strings.Contains(logs.String(), w) {
					t.Errorf("log lacks %s: %s", w, logs.String())
				}
			}
		})
	}
}
