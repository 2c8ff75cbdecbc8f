package alarm

import (
	"crypto/tls"
	"errors"
	"io"
	"log"
	"net"
	"strings"
	"sync"
	"testing"

	"github.com/emersion/go-sasl"
	"github.com/emersion/go-smtp"
)

const (
	smtpUser = "alarm@example.test"
	smtpPass = "s3cret"
)

// received is one message as the test SMTP server saw it.
type received struct {
	from  string
	rcpts []string
	data  []byte
	tls   bool // the session was encrypted (implicit TLS or STARTTLS)
}

// smtpServer is a real SMTP server on 127.0.0.1 (go-smtp) requiring
// AUTH PLAIN, optionally with STARTTLS or implicit TLS.
type smtpServer struct {
	host string
	port int

	mu       sync.Mutex
	msgs     []received
	sessions int
}

type smtpServerOpts struct {
	startTLS *tls.Config // advertise STARTTLS with this config
	implicit *tls.Config // TLS from the first byte
	listener net.Listener
}

func startSMTP(t *testing.T, o smtpServerOpts) *smtpServer {
	t.Helper()
	l := o.listener
	if l == nil {
		var err error
		if l, err = net.Listen("tcp", "127.0.0.1:0"); err != nil {
			t.Fatal(err)
		}
	}
	if o.implicit != nil {
		l = tls.NewListener(l, o.implicit)
	}
	rec := &smtpServer{host: "127.0.0.1", port: l.Addr().(*net.TCPAddr).Port}
	s := smtp.NewServer(smtp.BackendFunc(func(c *smtp.Conn) (smtp.Session, error) {
		rec.mu.Lock()
		rec.sessions++
		rec.mu.Unlock()
		return &smtpSession{rec: rec, conn: c}, nil
	}))
	s.Domain = "localhost"
	s.AllowInsecureAuth = true
	s.TLSConfig = o.startTLS
	s.ErrorLog = log.New(io.Discard, "", 0)
	done := make(chan struct{})
	go func() {
		defer close(done)
		_ = s.Serve(l)
	}()
	t.Cleanup(func() {
		_ = s.Close()
		// Serve may not have registered l yet, so Close alone can miss it.
		_ = l.Close()
		<-done
	})
	return rec
}

func (s *smtpServer) messages() []received {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]received(nil), s.msgs...)
}

func (s *smtpServer) sessionCount() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.sessions
}

type smtpSession struct {
	rec    *smtpServer
	conn   *smtp.Conn
	authed bool
	cur    received
}

func (s *smtpSession) AuthMechanisms() []string { return []string{sasl.Plain} }

func (s *smtpSession) Auth(string) (sasl.Server, error) {
	return sasl.NewPlainServer(func(_, user, pass string) error {
		if user != smtpUser || pass != smtpPass {
			return errors.New("invalid credentials")
		}
		s.authed = true
		return nil
	}), nil
}

func (s *smtpSession) Mail(from string, _ *smtp.MailOptions) error {
	if !s.authed {
		return smtp.ErrAuthRequired
	}
	_, encrypted := s.conn.TLSConnectionState()
	s.cur = received{from: from, tls: encrypted}
	return nil
}

// Rcpt refuses addresses starting with "reject", to test partial failures.
func (s *smtpSession) Rcpt(to string, _ *smtp.RcptOptions) error {
	if strings.HasPrefix(to, "reject") {
		return &smtp.SMTPError{Code: 550, EnhancedCode: smtp.EnhancedCode{5, 1, 1}, Message: "no such user"}
	}
	s.cur.rcpts = append(s.cur.rcpts, to)
	return nil
}

func (s *smtpSession) Data(r io.Reader) error {
	b, err := io.ReadAll(r)
	if err != nil {
		return err
	}
	s.cur.data = b
	s.rec.mu.Lock()
	s.rec.msgs = append(s.rec.msgs, s.cur)
	s.rec.mu.Unlock()
	return nil
}

func (s *smtpSession) Reset()        { s.cur = received{} }
func (s *smtpSession) Logout() error { return nil }
