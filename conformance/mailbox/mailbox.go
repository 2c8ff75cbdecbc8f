// Package mailbox is a real SMTP server (go-smtp) on 127.0.0.1, without
// AUTH or TLS, that keeps every message it receives, decoded: the alarm
// mails of admins under test (config.md §4), Java's and ours alike. It can
// stop and serve again on the same port, to play a mail server outage, and
// hold a message in DATA, to catch an admin in the middle of a send.
package mailbox

import (
	"fmt"
	"io"
	"log"
	"net"
	"strconv"
	"sync"
	"time"

	"github.com/emersion/go-smtp"
)

// Server records messages until Close.
type Server struct {
	port int

	mu      sync.Mutex
	srv     *smtp.Server
	ln      net.Listener
	serving chan struct{}
	msgs    []Message
	changed chan struct{} // closed and replaced by every message
	hold    *Hold         // armed by HoldNext
	holds   []*Hold       // every hold, released by Close
}

// Start listens on a free loopback port.
func Start() (*Server, error) {
	s := &Server{changed: make(chan struct{})}
	if err := s.listen("127.0.0.1:0"); err != nil {
		return nil, err
	}
	return s, nil
}

func (s *Server) listen(addr string) error {
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return fmt.Errorf("smtp listen %s: %w", addr, err)
	}
	srv := smtp.NewServer(smtp.BackendFunc(func(c *smtp.Conn) (smtp.Session, error) {
		return &session{srv: s, conn: c}, nil
	}))
	srv.Domain = "localhost"
	srv.ErrorLog = log.New(io.Discard, "", 0)
	serving := make(chan struct{})
	go func() {
		defer close(serving)
		_ = srv.Serve(ln)
	}()
	s.mu.Lock()
	s.port = ln.Addr().(*net.TCPAddr).Port
	s.srv, s.ln, s.serving = srv, ln, serving
	s.mu.Unlock()
	return nil
}

// Args are the spring.mail.* settings pointing an admin (either) at the
// server (config.md §2.3): plain SMTP, no authentication. The socket
// factory is the plain one: an empty value would make JavaMail look for a
// class named "".
func (s *Server) Args() []string {
	s.mu.Lock()
	port := s.port
	s.mu.Unlock()
	return []string{
		"--spring.mail.host=127.0.0.1",
		"--spring.mail.port=" + strconv.Itoa(port),
		"--spring.mail.properties.mail.smtp.auth=false",
		"--spring.mail.properties.mail.smtp.starttls.enable=false",
		"--spring.mail.properties.mail.smtp.starttls.required=false",
		"--spring.mail.properties.mail.smtp.socketFactory.class=javax.net.SocketFactory",
		"--spring.mail.from=alarm@test",
	}
}

// Messages returns a copy of what arrived so far.
func (s *Server) Messages() []Message {
	msgs, _ := s.snapshot()
	return msgs
}

// snapshot returns a copy of the messages and the channel the next one
// closes.
func (s *Server) snapshot() ([]Message, <-chan struct{}) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]Message(nil), s.msgs...), s.changed
}

// Wait blocks until cond holds for the messages received so far and
// returns them; after timeout it gives up with how many there were.
func (s *Server) Wait(timeout time.Duration, cond func([]Message) bool) ([]Message, error) {
	timer := time.NewTimer(timeout)
	defer timer.Stop()
	for {
		msgs, changed := s.snapshot()
		if cond(msgs) {
			return msgs, nil
		}
		select {
		case <-changed:
		case <-timer.C:
			return msgs, fmt.Errorf("timed out after %v (have %d messages)", timeout, len(msgs))
		}
	}
}

func (s *Server) add(m Message) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.msgs = append(s.msgs, m)
	close(s.changed)
	s.changed = make(chan struct{})
}

// Stop closes the listener and every session; connecting then fails with
// "connection refused". Safe to call twice.
func (s *Server) Stop() {
	s.mu.Lock()
	srv, ln, serving := s.srv, s.ln, s.serving
	s.srv, s.ln, s.serving = nil, nil, nil
	s.mu.Unlock()
	if srv == nil {
		return
	}
	_ = srv.Close()
	_ = ln.Close() // Serve may not have registered ln yet
	<-serving
}

// Restart serves again on the port of Start, after Stop.
func (s *Server) Restart() error {
	s.mu.Lock()
	port := s.port
	s.mu.Unlock()
	return s.listen("127.0.0.1:" + strconv.Itoa(port))
}

// Close releases every hold and stops the server.
func (s *Server) Close() {
	s.mu.Lock()
	holds := s.holds
	s.mu.Unlock()
	for _, h := range holds {
		h.Release()
	}
	s.Stop()
}

type session struct {
	srv  *Server
	conn *smtp.Conn
	from string
	to   []string
}

func (s *session) Mail(from string, _ *smtp.MailOptions) error {
	s.from = from
	return nil
}

func (s *session) Rcpt(to string, _ *smtp.RcptOptions) error {
	s.to = append(s.to, to)
	return nil
}

func (s *session) Data(r io.Reader) error {
	raw, err := io.ReadAll(r)
	if err != nil {
		return err
	}
	m, err := decode(raw)
	if err != nil {
		return &smtp.SMTPError{Code: 554, Message: err.Error()}
	}
	m.Helo, m.From, m.To = s.conn.Hostname(), s.from, append([]string(nil), s.to...)
	s.srv.holdIfArmed(m)
	s.srv.add(m)
	return nil
}

func (s *session) Reset()        { s.from, s.to = "", nil }
func (s *session) Logout() error { return nil }
