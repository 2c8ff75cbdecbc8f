package api

import (
	"bufio"
	"bytes"
	"errors"
	"io"
	"unicode/utf8"
)

// readPlain reads the answer nearly every executor sends — HTTP/1.1 200,
// a Content-Length, no transfer coding, and all of it already received —
// straight from the connection's buffer. net/http's response reader
// allocates a Response, a header map and its strings for every answer:
// about a third of a /run's allocations, and a tenth of the admin's CPU at
// thousands of triggers a second. ok false means the answer is anything
// else, or not all there yet: nothing was consumed, and the caller reads it
// with http.ReadResponse, which then treats it exactly as before. An error
// is one http.ReadResponse would have returned at the same point (the
// first read failing, or an answer over maxBody).
func readPlain(br *bufio.Reader, maxBody int64) (answer []byte, reuse, ok bool, err error) {
	if _, err := br.Peek(1); err != nil {
		if errors.Is(err, io.EOF) {
			err = io.ErrUnexpectedEOF // as http.ReadResponse words an answer that never began
		}
		return nil, false, false, err
	}
	buf, _ := br.Peek(br.Buffered())
	end := bytes.Index(buf, []byte("\r\n\r\n"))
	if end < 0 {
		return nil, false, false, nil
	}
	length, ok := plainHead(buf[:end])
	if !ok {
		return nil, false, false, nil
	}
	if length > maxBody {
		return nil, false, false, errTooLarge(maxBody)
	}
	start := end + len("\r\n\r\n")
	if int64(len(buf)-start) < length {
		return nil, false, false, nil
	}
	body := buf[start : start+int(length)]
	answer = plainAnswer(body)
	if answer == nil {
		answer = dropLineBreaks(bytes.Clone(body))
		if !utf8.Valid(answer) {
			answer = bytes.ToValidUTF8(answer, []byte("\uFFFD"))
		}
	}
	_, _ = br.Discard(start + int(length))
	return answer, true, true, nil
}

// plainSuccessAnswers are the plain successes executors answer (2.x with
// and without msg, 3.x's full envelope), returned without a copy: nothing
// writes to an answer.
var plainSuccessAnswers = [][]byte{[]byte(successCode), []byte(successCodeMsg), []byte(successCodeMsgContent)}

// plainAnswer is the shared copy of body when it is a plain success,
// else nil.
func plainAnswer(body []byte) []byte {
	for _, a := range plainSuccessAnswers {
		if bytes.Equal(body, a) {
			return a
		}
	}
	return nil
}

// plainHead checks that head (status line and headers, without the blank
// line) is "HTTP/1.1 200" with well-formed headers that announce one
// Content-Length, no Transfer-Encoding and no Connection but keep-alive,
// and returns the length. Anything else — another status or version,
// a folded, malformed or unusual header line, a bare CR or LF — is not
// plain: net/http reads it.
func plainHead(head []byte) (length int64, ok bool) {
	line, rest, more := bytes.Cut(head, []byte("\r\n"))
	if !bytes.HasPrefix(line, []byte("HTTP/1.1 200")) || (len(line) > 12 && line[12] != ' ') || !plainValue(line) {
		return 0, false
	}
	length = -1
	for more {
		line, rest, more = bytes.Cut(rest, []byte("\r\n"))
		name, value, found := bytes.Cut(line, []byte(":"))
		if !found || len(name) == 0 || !plainName(name) || !plainValue(value) {
			return 0, false
		}
		value = bytes.Trim(value, " \t")
		switch {
		case bytes.EqualFold(name, []byte("Content-Length")):
			if length >= 0 || len(value) == 0 || len(value) > 18 {
				return 0, false
			}
			length = 0
			for _, d := range value {
				if d < '0' || d > '9' {
					return 0, false
				}
				length = length*10 + int64(d-'0')
			}
		case bytes.EqualFold(name, []byte("Transfer-Encoding")):
			return 0, false
		case bytes.EqualFold(name, []byte("Connection")):
			if !bytes.EqualFold(value, []byte("keep-alive")) {
				return 0, false
			}
		}
	}
	return length, length >= 0
}

// plainName reports whether a header name is an HTTP token.
func plainName(b []byte) bool {
	for _, c := range b {
		if c >= utf8.RuneSelf || !tokenByte[c] {
			return false
		}
	}
	return true
}

// plainValue reports whether a header value (or the status line) holds
// only visible ASCII, spaces and tabs.
func plainValue(b []byte) bool {
	for _, c := range b {
		if (c < ' ' && c != '\t') || c >= 0x7f {
			return false
		}
	}
	return true
}

// tokenByte marks the bytes of an HTTP token (RFC 9110 §5.6.2).
var tokenByte = func() (t [utf8.RuneSelf]bool) {
	for c := '0'; c <= '9'; c++ {
		t[c] = true
	}
	for c := 'a'; c <= 'z'; c++ {
		t[c], t[c-'a'+'A'] = true, true
	}
	for _, c := range "!#$%&'*+-.^_`|~" {
		t[c] = true
	}
	return t
}()
