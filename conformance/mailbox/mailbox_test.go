package mailbox

import (
	"net/smtp"
	"strconv"
	"strings"
	"testing"
	"time"
)

func send(s *Server, logID int64) error {
	msg := "Subject: =?UTF-8?B?5Lu75Yqh?=\r\n" +
		"MIME-Version: 1.0\r\n" +
		"Content-Type: multipart/mixed; boundary=b\r\n\r\n" +
		"--b\r\nContent-Type: text/html; charset=UTF-8\r\nContent-Transfer-Encoding: quoted-printable\r\n\r\n" +
		"Alarm Job LogId=3D" + strconv.FormatInt(logID, 10) + "<br>\r\n--b--\r\n"
	return smtp.SendMail("127.0.0.1:"+strconv.Itoa(s.port), nil, "alarm@test", []string{"ops@test"}, []byte(msg))
}

// TestServer: messages are decoded and counted by log id; a stopped
// server refuses connections and serves again on the same port; a hold
// keeps a message in DATA until released.
func TestServer(t *testing.T) {
	s, err := Start()
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if err := send(s, 7); err != nil {
		t.Fatal(err)
	}
	msgs := s.Messages()
	if len(msgs) != 1 || msgs[0].Subject != "任务" || msgs[0].From != "alarm@test" ||
		strings.Join(msgs[0].To, ",") != "ops@test" || msgs[0].LogID() != 7 {
		t.Fatalf("messages %+v", msgs)
	}

	s.Stop()
	if err := send(s, 8); err == nil {
		t.Fatal("a stopped server took a message")
	}
	if err := s.Restart(); err != nil {
		t.Fatal(err)
	}

	hold := s.HoldNext()
	sent := make(chan error, 1)
	go func() { sent <- send(s, 9) }()
	if id := <-hold.Held(); id != 9 {
		t.Errorf("held log %d, want 9", id)
	}
	if n := len(s.Messages()); n != 1 {
		t.Errorf("%d messages while one is held, want 1", n)
	}
	hold.Release()
	if err := <-sent; err != nil {
		t.Fatal(err)
	}
	if _, err := s.Wait(10*time.Second, func(ms []Message) bool { return len(ms) == 2 }); err != nil {
		t.Fatal(err)
	}
	if got := ByLogID(s.Messages()); got[7] != 1 || got[9] != 1 || len(got) != 2 {
		t.Errorf("by log id %v, want 7 and 9 once", got)
	}
}
