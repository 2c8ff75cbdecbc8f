package alarm

import (
	"testing"

	"github.com/xxl-admin-go/xxl-admin-go/internal/testsupport/smtptest"
)

// The test SMTP server is internal/testsupport/smtptest (core/workflow's
// run alarms are tested against it too); these names keep the tests
// short.
const (
	smtpUser = smtptest.User
	smtpPass = smtptest.Pass
)

type smtpServerOpts = smtptest.Opts

// received is one message as the test SMTP server saw it.
type received struct {
	from  string
	rcpts []string
	data  []byte
	tls   bool
}

type smtpServer struct {
	srv  *smtptest.Server
	port int
}

func startSMTP(t *testing.T, o smtpServerOpts) *smtpServer {
	t.Helper()
	s := smtptest.Start(t, o)
	return &smtpServer{srv: s, port: s.Port}
}

func (s *smtpServer) messages() []received {
	var out []received
	for _, m := range s.srv.Messages() {
		out = append(out, received{from: m.From, rcpts: m.Rcpts, data: m.Data, tls: m.TLS})
	}
	return out
}

func (s *smtpServer) sessionCount() int { return s.srv.SessionCount() }
