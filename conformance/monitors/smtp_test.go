package monitors

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
	"testing"

	"github.com/emersion/go-smtp"
)

// mailMsg is one message as the SMTP server received it, decoded.
type mailMsg struct {
	From    string
	To      []string
	Subject string // MIME words decoded
	Body    string // the HTML part, transfer encoding removed
}

// logID is the failed log the mail alarms about (config.md §4 step 5).
func (m mailMsg) logID() int64 {
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

// smtpRecorder is a real SMTP server (go-smtp) on 127.0.0.1 without AUTH or
// TLS that records every message. It can be stopped and started again on
// the same port to simulate an outage of the mail server.
type smtpRecorder struct {
	t    testing.TB
	port int
	msgs *feed[mailMsg]

	mu      sync.Mutex
	srv     *smtp.Server
	ln      net.Listener
	serving chan struct{}
	hold    *mailHold // armed by holdNext
}

// mailHold stops the next message in DATA, before the server answers, until
// released: the admin is then in the middle of sending that alarm.
type mailHold struct {
	held    chan int64 // receives the held message's log id
	release chan struct{}
	once    sync.Once
}

func (h *mailHold) Release() { h.once.Do(func() { close(h.release) }) }

// holdNext arms a hold for the next message; it is released at the latest
// when the test ends.
func (r *smtpRecorder) holdNext() *mailHold {
	h := &mailHold{held: make(chan int64, 1), release: make(chan struct{})}
	r.mu.Lock()
	r.hold = h
	r.mu.Unlock()
	r.t.Cleanup(h.Release)
	return h
}

func (r *smtpRecorder) takeHold() *mailHold {
	r.mu.Lock()
	defer r.mu.Unlock()
	h := r.hold
	r.hold = nil
	return h
}

// startSMTP listens on a free port and serves until the test ends.
func startSMTP(t testing.TB) *smtpRecorder {
	t.Helper()
	r := &smtpRecorder{t: t, msgs: newFeed[mailMsg]()}
	r.listen("127.0.0.1:0")
	t.Cleanup(r.stop)
	return r
}

// args are the admin's spring.mail.* settings for this server (config.md §2.3).
func (r *smtpRecorder) args() []string {
	return []string{
		"--spring.mail.host=127.0.0.1",
		"--spring.mail.port=" + strconv.Itoa(r.port),
		"--spring.mail.properties.mail.smtp.auth=false",
		"--spring.mail.properties.mail.smtp.starttls.enable=false",
		"--spring.mail.properties.mail.smtp.starttls.required=false",
		"--spring.mail.properties.mail.smtp.socketFactory.class=",
		"--spring.mail.from=alarm@test",
	}
}

func (r *smtpRecorder) listen(addr string) {
	r.t.Helper()
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		r.t.Fatalf("smtp listen %s: %v", addr, err)
	}
	r.port = ln.Addr().(*net.TCPAddr).Port
	srv := smtp.NewServer(smtp.BackendFunc(func(*smtp.Conn) (smtp.Session, error) {
		return &smtpSession{rec: r}, nil
	}))
	srv.Domain = "localhost"
	srv.ErrorLog = log.New(io.Discard, "", 0)
	serving := make(chan struct{})
	go func() {
		defer close(serving)
		_ = srv.Serve(ln)
	}()
	r.mu.Lock()
	r.srv, r.ln, r.serving = srv, ln, serving
	r.mu.Unlock()
}

// stop closes the listener and every session; connecting then fails with
// "connection refused". Safe to call twice.
func (r *smtpRecorder) stop() {
	r.mu.Lock()
	srv, ln, serving := r.srv, r.ln, r.serving
	r.srv, r.ln, r.serving = nil, nil, nil
	r.mu.Unlock()
	if srv == nil {
		return
	}
	_ = srv.Close()
	_ = ln.Close() // Serve may not have registered ln yet
	<-serving
}

// restart serves again on the same port.
func (r *smtpRecorder) restart() {
	r.t.Helper()
	r.listen("127.0.0.1:" + strconv.Itoa(r.port))
}

// byLogID counts the mails per alarmed log id.
func byLogID(msgs []mailMsg) map[int64]int {
	n := map[int64]int{}
	for _, m := range msgs {
		n[m.logID()]++
	}
	return n
}

type smtpSession struct {
	rec  *smtpRecorder
	from string
	to   []string
}

func (s *smtpSession) Mail(from string, _ *smtp.MailOptions) error {
	s.from = from
	return nil
}

func (s *smtpSession) Rcpt(to string, _ *smtp.RcptOptions) error {
	s.to = append(s.to, to)
	return nil
}

func (s *smtpSession) Data(r io.Reader) error {
	raw, err := io.ReadAll(r)
	if err != nil {
		return err
	}
	m, err := decodeMail(raw)
	if err != nil {
		return &smtp.SMTPError{Code: 554, Message: err.Error()}
	}
	m.From, m.To = s.from, append([]string(nil), s.to...)
	if h := s.rec.takeHold(); h != nil {
		h.held <- m.logID()
		<-h.release
	}
	s.rec.msgs.add(m)
	return nil
}

func (s *smtpSession) Reset()        { s.from, s.to = "", nil }
func (s *smtpSession) Logout() error { return nil }

// decodeMail extracts subject and HTML body from a raw RFC 5322 message,
// single-part or multipart.
func decodeMail(raw []byte) (mailMsg, error) {
	msg, err := mail.ReadMessage(bytes.NewReader(raw))
	if err != nil {
		return mailMsg{}, fmt.Errorf("parse mail: %w", err)
	}
	subject, err := new(mime.WordDecoder).DecodeHeader(msg.Header.Get("Subject"))
	if err != nil {
		return mailMsg{}, fmt.Errorf("decode subject: %w", err)
	}
	body, err := decodePart(msg.Header.Get("Content-Type"), msg.Header.Get("Content-Transfer-Encoding"), msg.Body)
	if err != nil {
		return mailMsg{}, err
	}
	return mailMsg{Subject: subject, Body: body}, nil
}

func decodePart(contentType, encoding string, r io.Reader) (string, error) {
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
		r = base64.NewDecoder(base64.StdEncoding, r) // ignores line breaks
	}
	b, err := io.ReadAll(r)
	if err != nil {
		return "", fmt.Errorf("decode %s body: %w", encoding, err)
	}
	return string(b), nil
}
