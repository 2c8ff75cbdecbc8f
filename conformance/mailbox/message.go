package mailbox

import (
	"bytes"
	"encoding/base64"
	"fmt"
	"io"
	"mime"
	"mime/multipart"
	"mime/quotedprintable"
	"net/mail"
	"strconv"
	"strings"
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
// "Alarm Job LogId=<id>" into the content (config.md §4 step 5). 0 when
// absent.
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

// ByLogID counts the alarm mails per log id.
func ByLogID(msgs []Message) map[int64]int {
	n := map[int64]int{}
	for _, m := range msgs {
		n[m.LogID()]++
	}
	return n
}

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
		r = base64.NewDecoder(base64.StdEncoding, r) // ignores line breaks
	}
	b, err := io.ReadAll(r)
	if err != nil {
		return "", fmt.Errorf("decode %s body: %w", encoding, err)
	}
	return string(b), nil
}
