package monitors

import (
	"testing"
	"time"

	"github.com/xxl-admin-go/xxl-admin-go/conformance/mailbox"
)

// startSMTP runs a mail server (conformance/mailbox) until the test ends.
func startSMTP(t testing.TB) *mailbox.Server {
	t.Helper()
	mail, err := mailbox.Start()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(mail.Close)
	return mail
}

// restartSMTP serves again on the same port after Stop.
func restartSMTP(t testing.TB, mail *mailbox.Server) {
	t.Helper()
	if err := mail.Restart(); err != nil {
		t.Fatal(err)
	}
}

// waitMails blocks until cond holds for the mails received, failing the
// test at the deadline.
func waitMails(t testing.TB, mail *mailbox.Server, timeout time.Duration, what string, cond func([]mailbox.Message) bool) []mailbox.Message {
	t.Helper()
	msgs, err := mail.Wait(timeout, cond)
	if err != nil {
		t.Fatalf("waiting for %s: %v", what, err)
	}
	return msgs
}
