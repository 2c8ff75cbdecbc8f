package api

import (
	"bufio"
	"bytes"
	"errors"
	"io"
	"net/http"
	"strings"
	"testing"
	"unicode/utf8"
)

// plainSeeds are answers readPlain takes and answers it leaves to
// net/http, each followed by the next answer on the connection.
var plainSeeds = []string{
	// The Java executor 2.4.2's answer on a keep-alive connection
	// (recording http_connection_handling), and benchsched's.
	"HTTP/1.1 200 OK\r\ncontent-type: text/html;charset=UTF-8\r\ncontent-length: 12\r\nconnection: keep-alive\r\n\r\n{\"code\":200}",
	"HTTP/1.1 200 OK\r\nContent-Type: application/json;charset=UTF-8\r\nContent-Length: 23\r\n\r\n{\"code\":200,\"msg\":null}HTTP/1.1 200 OK\r\n",
	"HTTP/1.1 200 OK\r\nContent-Length: 38\r\n\r\n{\"code\":200,\"msg\":null,\"content\":null}",
	"HTTP/1.1 200\r\nContent-Length:  27 \r\n\r\n{\"code\":500,\"msg\":\"a\r\nb \xff\"}",
	"HTTP/1.1 200 OK\r\nContent-Length: 0\r\n\r\n",
	// Left to net/http: closing, chunked, another status or version, two
	// lengths, none, a folded or malformed line, a bare LF, a body or a
	// head not all received.
	"HTTP/1.1 200 OK\r\nConnection: close\r\nContent-Length: 12\r\n\r\n{\"code\":200}",
	"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n5\r\n{\"cod\r\n7\r\ne\":200}\r\n0\r\n\r\n",
	"HTTP/1.1 500 Internal Server Error\r\nContent-Length: 2\r\n\r\nno",
	"HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 200 OK\r\nContent-Length: 12\r\n\r\n{\"code\":200}",
	"HTTP/1.0 200 OK\r\nContent-Length: 12\r\n\r\n{\"code\":200}",
	"HTTP/1.1 200 OK\r\nContent-Length: 12\r\nContent-Length: 12\r\n\r\n{\"code\":200}",
	"HTTP/1.1 200 OK\r\n\r\n{\"code\":200}",
	"HTTP/1.1 200 OK\r\nX-A: 1\r\n 2\r\nContent-Length: 12\r\n\r\n{\"code\":200}",
	"HTTP/1.1 200 OK\r\nBad Name: 1\r\nContent-Length: 12\r\n\r\n{\"code\":200}",
	"HTTP/1.1 200 OK\nContent-Length: 12\r\n\r\n{\"code\":200}",
	"HTTP/1.1 200 OK\r\nContent-Length: 99\r\n\r\n{\"code\":200}",
	"HTTP/1.1 200 OK\r\nContent-Length: 12\r\n",
	"HTTP/1.1 200 OK\r\nContent-Length: 1000000\r\n\r\n",
	"",
}

// readPlain either reads an answer exactly as net/http's reader followed
// by readDirect's body handling would — the same answer bytes, the same
// reuse, the same bytes consumed — or consumes nothing and leaves it to
// them; an answer over the cap fails as it did.
func FuzzReadPlain(f *testing.F) {
	for _, s := range plainSeeds {
		f.Add([]byte(s), int64(64))
	}
	f.Fuzz(func(t *testing.T, raw []byte, maxBody int64) {
		maxBody = max(maxBody, 0)
		br := bufio.NewReaderSize(bytes.NewReader(raw), 4<<10)
		answer, reuse, ok, err := readPlain(br, maxBody)
		rest, _ := io.ReadAll(br)
		consumed := len(raw) - len(rest)
		want := referenceRead(raw, maxBody)
		switch {
		case err != nil:
			if want.err == nil || err.Error() != want.err.Error() {
				t.Fatalf("readPlain failed with %v; net/http: %+v", err, want)
			}
		case !ok:
			if consumed != 0 {
				t.Fatalf("not plain, yet %d bytes consumed", consumed)
			}
		default:
			if want.err != nil || want.status != http.StatusOK || string(answer) != string(want.answer) ||
				reuse != want.reuse || consumed != want.consumed {
				t.Fatalf("readPlain: %q reuse %v consumed %d; net/http: %+v", answer, reuse, consumed, want)
			}
		}
	})
}

type referenceAnswer struct {
	status   int
	answer   []byte
	reuse    bool
	consumed int
	err      error
}

// referenceRead is readDirect's reading without readPlain: net/http's
// response reader, then a 200's body within maxBody.
func referenceRead(raw []byte, maxBody int64) referenceAnswer {
	src := bytes.NewReader(raw)
	br := bufio.NewReaderSize(src, 4<<10)
	resp, err := http.ReadResponse(br, nil)
	if err != nil {
		return referenceAnswer{err: err}
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return referenceAnswer{status: resp.StatusCode}
	}
	if resp.ContentLength > maxBody {
		return referenceAnswer{err: errTooLarge(maxBody)}
	}
	b, err := io.ReadAll(io.LimitReader(resp.Body, maxBody+1))
	if err != nil {
		return referenceAnswer{err: err}
	}
	b = dropLineBreaks(b)
	if !utf8.Valid(b) {
		b = bytes.ToValidUTF8(b, []byte("\uFFFD"))
	}
	return referenceAnswer{status: http.StatusOK, answer: b, reuse: !resp.Close, consumed: len(raw) - src.Len() - br.Buffered()}
}

// The seeds: which answers readPlain takes (the common ones), and that the
// plain successes come back as the shared bytes, not copies.
func TestReadPlain(t *testing.T) {
	for i, s := range plainSeeds {
		br := bufio.NewReader(strings.NewReader(s))
		answer, reuse, ok, err := readPlain(br, 64)
		plain := i < 5
		switch {
		case plain && (!ok || err != nil || !reuse):
			t.Errorf("seed %d: ok %v reuse %v err %v; want read", i, ok, reuse, err)
		case !plain && ok:
			t.Errorf("seed %d: read %q; want left to net/http", i, answer)
		}
	}
	br := bufio.NewReader(strings.NewReader(plainSeeds[0]))
	answer, _, _, _ := readPlain(br, 64)
	if &answer[0] != &plainSuccessAnswers[0][0] {
		t.Error("a plain success was copied")
	}
	if _, _, _, err := readPlain(bufio.NewReader(strings.NewReader("")), 64); !errors.Is(err, io.ErrUnexpectedEOF) {
		t.Errorf("empty connection: %v; want unexpected EOF as http.ReadResponse says", err)
	}
	if _, _, _, err := readPlain(bufio.NewReader(strings.NewReader(plainSeeds[1])), 10); err == nil || err.Error() != "response body larger than 10 bytes" {
		t.Errorf("over the cap: %v", err)
	}
}
