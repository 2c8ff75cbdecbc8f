// Package mailbox is a real SMTP server (go-smtp) on 127.0.0.1, without
// AUTH or TLS, that keeps every message it receives, decoded: the alarm
// mails of admins under test (config.md §4), Java's and ours alike.
package mailbox

import (
	"bytes"
	"encoding/base64"
	"fmt"
	"io"
	"log"
	"mime"
	"mime/multipart"
	"mime/quotedprintable"
	"net"
	"net/mail"
	"strconv"
	"strings"
	"sync"

	"github.com/emersion/go-smtp"
)

// Message is one message as the server received it.
type Message struct {
	Helo    string // the client's EHLO/HELO name
	From    string
	To      []string
	Subject string // MIME words decoded
	Body    string // every text part, transfer encoding removed
}

// LogID is the failed log an alarm mail is about: both admins write
// "Alarm Job LogId=<id>" into the content (config.md §4). 0 when absent.
func (m Message) LogID() int64 {
	_, rest, ok := strings.Cut(m.Body, "Alarm Job LogId=")
	if !ok {
		return 0
	}
	end := strings.IndexFunc(rest, func(r rune) bool { return r < '0' || r > '9' })
	if end < 0 {
		end = len(rest)
	}
	id, _ := strconv.ParseInt(rest[:end], 10, 64)
	return id
}

// Server records messages until Close.
type Server struct {
	port    int
	srv     *smtp.Server
	serving chan struct{}

	mu   sync.Mutex
	msgs []Message
}

// Start listens on a free loopback port.
func Start() (*Server, error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, fmt.Errorf("smtp listen: %w", err)
	}
	s := &Server{port: ln.Addr().(*net.TCPAddr).Port, serving: make(chan struct{})}
	s.srv = smtp.NewServer(smtp.BackendFunc(func(c *smtp.Conn) (smtp.Session, error) {
		return &session{srv: s, conn: c}, nil
	}))
	s.srv.Domain = "localhost"
	s.srv.ErrorLog = log.New(io.Discard, "", 0)
	go func() {
		defer close(s.serving)
		_ = s.srv.Serve(ln)
	}()
	return s, nil
}

// Args are the spring.mail.* settings pointing an admin (either) at the
// server: plain SMTP, no authentication. The socket factory is the plain
// one: an empty value would make JavaMail look for a class named "".
func (s *Server) Args() []string {
	return []string{
		"--spring.mail.host=127.0.0.1",
		"--spring.mail.port=" + strconv.Itoa(s.port),
		"--spring.mail.properties.mail.smtp.auth=false",
		"--spring.mail.properties.mail.smtp.starttls.enable=false",
		"--spring.mail.properties.mail.smtp.starttls.required=false",
		"--spring.mail.properties.mail.smtp.socketFactory.class=javax.net.SocketFactory",
		"--spring.mail.from=alarm@test",
	}
}

// Messages returns a copy of what arrived so far.
func (s *Server) Messages() []Message {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]Message(nil), s.msgs...)
}

// ByLogID counts the alarm mails per log id.
func (s *Server) ByLogID() map[int64]int {
	n := map[int64]int{}
	for _, m := range s.Messages() {
		n[m.LogID()]++
	}
	return n
}

// Close stops the server and its sessions.
func (s *Server) Close() {
	_ = s.srv.Close()
	<-s.serving
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
	s.srv.mu.Lock()
	s.srv.msgs = append(s.srv.msgs, m)
	s.srv.mu.Unlock()
	return nil
}

func (s *session) Reset()        { s.from, s.to = "", nil }
func (s *session) Logout() error { return nil }

// decode extracts the subject and the text of a raw RFC 5322 message,
// single-part or multipart.
func decode(raw []byte) (Message, error) {
	msg, err := mail.ReadMessage(bytes.NewReader(raw))
	if err != nil {
		return Message{}, fmt.Errorf("parse mail: %w", err)
	}
	subject, err := new(mime.WordDecoder).DecodeHeader(msg.Header.Get("Subject"))
	if err != nil {
		return Message{}, fmt.Errorf("decode subject: %w", err)
	}
	body, err := decodePart(msg.Header.Get("Content-Type"), msg.Header.Get("Content-Transfer-Encoding"), msg.Body)
	if err != nil {
		return Message{}, err
	}
	return Message{Subject: subject, Body: body}, nil
}

func decodePart(contentType, encoding string, r io.Reader) (string, error) {
	if contentType == "" {
		contentType = "text/plain"
	}
	mediaType, params, err := mime.ParseMediaType(contentType)
	if err != nil {
		return "", fmt.Errorf("content type %q: %w", contentType, err)
	}
	if strings.HasPrefix(mediaType, "multipart/") {
		mr := multipart.NewReader(r, params["boundary"])
		var out []string
		for {
			p, err := mr.NextRawPart()
			if err == io.EOF {
				return strings.Join(out, "\n"), nil
			}
			if err != nil {
				return "", fmt.Errorf("multipart: %w", err)
			}
			s, err := decodePart(p.Header.Get("Content-Type"), p.Header.Get("Content-Transfer-Encoding"), p)
			if err != nil {
				return "", err
			}
			out = append(out, s)
		}
	}
	switch strings.ToLower(strings.TrimSpace(encoding)) {
	case "quoted-printable":
		r = quotedprintable.NewReader(r)
	case "base64":
		r = base64.NewDecoder(base64.StdEncoding, r)
	}
	b, err := io.ReadAll(r)
	if err != nil {
		return "", fmt.Errorf("decode %s body: %w", encoding, err)
	}
	return string(b), nil
}
