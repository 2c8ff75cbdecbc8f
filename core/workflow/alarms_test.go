package workflow

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"mime/quotedprintable"
	"net/mail"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/rs/zerolog"

	"github.com/xxl-admin-go/xxl-admin-go/compat/config"
	"github.com/xxl-admin-go/xxl-admin-go/compat/i18n"
	"github.com/xxl-admin-go/xxl-admin-go/compat/schema"
	"github.com/xxl-admin-go/xxl-admin-go/core/alarm"
	"github.com/xxl-admin-go/xxl-admin-go/internal/testsupport/smtptest"
	"github.com/xxl-admin-go/xxl-admin-go/internal/testsupport/storetest"
	"github.com/xxl-admin-go/xxl-admin-go/internal/testsupport/testfactory"
)

// mailBody is a received message's decoded body.
func mailBody(t *testing.T, data []byte) string {
	t.Helper()
	m, err := mail.ReadMessage(bytes.NewReader(data))
	if err != nil {
		t.Fatal(err)
	}
	var body io.Reader = m.Body
	if strings.EqualFold(m.Header.Get("Content-Transfer-Encoding"), "quoted-printable") {
		body = quotedprintable.NewReader(m.Body)
	}
	b, err := io.ReadAll(body)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// TestRunAlarm: a failed run alarms once through the real e-mail channel
// (to the failed node's job's alarm e-mail), however many admins' passes
// look at it at once; the alarm row is written with the run's end. A
// claim left by a stopped admin is sent after StuckAfter, a send it left
// half-done is closed as failed and not sent again.
func TestRunAlarm(t *testing.T) {
	storetest.ForEach(t, func(t *testing.T, s *schema.Store) {
		ctx := context.Background()
		r := newRig(t, s, 1)
		ok := r.job(0)
		bad := testfactory.Job(t, s, testfactory.JobOpts{Group: r.group.ID, Handler: "h", AlarmEmail: "ops@example.test"}).ID
		r.fail(bad)
		g := Graph{Nodes: []Node{{ID: 1, JobID: ok}, {ID: 2, JobID: bad, Label: "load <i>"}}, Edges: []Edge{{1, 2}}}
		w := Workflow{JobGroup: r.group.ID, Name: "etl <b>", Graph: g}
		row, _ := w.Row()
		wf, err := s.WorkflowAdd(ctx, row)
		if err != nil {
			t.Fatal(err)
		}
		runID, err := r.admins[0].engine.StartRun(ctx, wf, StartRequest{TriggerType: "MANUAL"})
		if err != nil {
			t.Fatal(err)
		}
		if run := r.settle(runID); RunState(run.State) != RunFailed {
			t.Fatalf("run %s", run.State)
		}

		srv := smtptest.Start(t, smtptest.Opts{})
		alarmer := alarm.New(alarm.Config{Mail: config.Mail{Host: srv.Host, Port: srv.Port, Username: smtptest.User,
			Password: smtptest.Pass, From: "xxl-job@example.test", Auth: true, ConnTimeout: 3 * time.Second, Timeout: 3 * time.Second},
			Alarm: config.Alarm{EmailEnabled: true}, Texts: i18n.Load("en"), Log: zerolog.Nop()})
		now := time.Now()
		clock := func() time.Time { return now }
		admins := []*Alarms{
			NewAlarms(AlarmsConfig{Store: s, Alarm: alarmer, Now: clock}),
			NewAlarms(AlarmsConfig{Store: s, Alarm: alarmer, Now: clock}),
		}
		var wg sync.WaitGroup
		for _, a := range admins {
			wg.Go(func() {
				if err := a.Pass(ctx); err != nil {
					t.Error(err)
				}
			})
		}
		wg.Wait()
		for _, a := range admins {
			if err := a.Pass(ctx); err != nil {
				t.Fatal(err)
			}
		}
		msgs := srv.Messages()
		if len(msgs) != 1 || len(msgs[0].Rcpts) != 1 || msgs[0].Rcpts[0] != "ops@example.test" {
			t.Fatalf("messages %+v: want one, to the failed job's alarm e-mail", msgs)
		}
		body := mailBody(t, msgs[0].Data)
		for _, want := range []string{fmt.Sprintf("Alarm Workflow RunId=%d", runID), "Workflow=etl &lt;b&gt;",
			`2 &#34;load &lt;i&gt;&#34; (job ` + fmt.Sprint(bad)} {
			if !strings.Contains(body, want) {
				t.Errorf("mail body lacks %q:\n%s", want, body)
			}
		}
		if sent, _ := s.WorkflowAlarmsIn(ctx, []int{alarmSent}, time.Time{}, 10); len(sent) != 1 || sent[0].RunID != runID {
			t.Errorf("sent alarms %+v", sent)
		}

		// Left by a stopped admin: claimed (sent later) and sending (closed).
		for _, status := range []int{alarmClaimed, alarmSending} {
			if err := s.WorkflowAlarmAdd(ctx, runID, now); err != nil {
				t.Fatal(err)
			}
			left, _ := s.WorkflowAlarmsIn(ctx, []int{alarmToSend}, time.Time{}, 10)
			if _, err := s.WorkflowAlarmMove(ctx, left[0].ID, alarmToSend, status, now.Add(-time.Hour)); err != nil {
				t.Fatal(err)
			}
		}
		if err := admins[0].Pass(ctx); err != nil {
			t.Fatal(err)
		}
		if n := len(srv.Messages()); n != 2 {
			t.Errorf("%d messages after the takeover, want 2 (the claimed one sent, the half-sent one not again)", n)
		}
		if failed, _ := s.WorkflowAlarmsIn(ctx, []int{alarmFailed}, time.Time{}, 10); len(failed) != 1 {
			t.Errorf("closed alarms %+v, want the half-sent one", failed)
		}
	})
}
