// Package smtptest is a real SMTP server on 127.0.0.1 (go-smtp) for tests
// of the alarm channels: it requires AUTH PLAIN as User / Pass, optionally
// offers STARTTLS or speaks implicit TLS, records every message and
// refuses recipients starting with "reject".
package smtptest

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

// The credentials the server accepts.
const (
	User = "alarm@example.test"
	Pass = "s3cret"
)

// Message is one message as the server saw it.
type Message struct {
	From  string
	Rcpts []string
	Data  []byte
	TLS   bool // the session was encrypted (implicit TLS or STARTTLS)
}

// Server records what it received.
type Server struct {
	Host string
	Port int

	mu       sync.Mutex
	msgs     []Message
	sessions int
}

// Opts select the server's TLS and listener.
type Opts struct {
	StartTLS *tls.Config // advertise STARTTLS with this config
	Implicit *tls.Config // TLS from the first byte
	Listener net.Listener
}

// Start serves until the test ends.
func Start(t testing.TB, o Opts) *Server {
	t.Helper()
	l := o.Listener
	if l == nil {
		var err error
		if l, err = net.Listen("tcp", "127.0.0.1:0"); err != nil {
			t.Fatal(err)
		}
	}
	if o.Implicit != nil {
		l = tls.NewListener(l, o.Implicit)
	}
	rec := &Server{Host: "127.0.0.1", Port: l.Addr().(*net.TCPAddr).Port}
	s := smtp.NewServer(smtp.BackendFunc(func(c *smtp.Conn) (smtp.Session, error) {
		rec.mu.Lock()
		rec.sessions++
		rec.mu.Unlock()
		return &session{rec: rec, conn: c}, nil
	}))
	s.Domain = "localhost"
	s.AllowInsecureAuth = true
	s.TLSConfig = o.StartTLS
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

// Messages are the messages received so far.
func (s *Server) Messages() []Message {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]Message(nil), s.msgs...)
}

// SessionCount is how many SMTP sessions were opened.
func (s *Server) SessionCount() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.sessions
}

type session struct {
	rec    *Server
	conn   *smtp.Conn
	authed bool
	cur    Message
}

func (s *session) AuthMechanisms() []string { return []string{sasl.Plain} }

func (s *session) Auth(string) (sasl.Server, error) {
	return sasl.NewPlainServer(func(_, user, pass string) error {
		if user != User || pass != Pass {
			return errors.New("invalid credentials")
		}
		s.authed = true
		return nil
	}), nil
}

func (s *session) Mail(from string, _ *smtp.MailOptions) error {
	if !s.authed {
		return smtp.ErrAuthRequired
	}
	_, encrypted := s.conn.TLSConnectionState()
	s.cur = Message{From: from, TLS: encrypted}
	return nil
}

// Rcpt refuses addresses starting with "reject", to test partial failures.
func (s *session) Rcpt(to string, _ *smtp.RcptOptions) error {
	if strings.HasPrefix(to, "reject") {
		return &smtp.SMTPError{Code: 550, EnhancedCode: smtp.EnhancedCode{5, 1, 1}, Message: "no such user"}
	}
	s.cur.Rcpts = append(s.cur.Rcpts, to)
	return nil
}

func (s *session) Data(r io.Reader) error {
	b, err := io.ReadAll(r)
	if err != nil {
		return err
	}
	s.cur.Data = b
	s.rec.mu.Lock()
	s.rec.msgs = append(s.rec.msgs, s.cur)
	s.rec.mu.Unlock()
	return nil
}

func (s *session) Reset()        { s.cur = Message{} }
func (s *session) Logout() error { return nil }
