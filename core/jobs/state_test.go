package jobs

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/xxl-admin-go/xxl-admin-go/compat/schema"
	"github.com/xxl-admin-go/xxl-admin-go/internal/testsupport/storetest"
	"github.com/xxl-admin-go/xxl-admin-go/internal/testsupport/testfactory"
)

// TestStartStop checks the rows start and stop write (recording
// jobinfo_start_stop: start → status 1, last 0, next after now + 5 s; stop →
// all 0) and their refusals.
func TestStartStop(t *testing.T) {
	storetest.ForEach(t, func(t *testing.T, s *schema.Store) {
		ctx := context.Background()
		svc := newService(s, "en", t0)
		cronJob := testfactory.Job(t, s, testfactory.JobOpts{ScheduleType: "CRON", ScheduleConf: "0 0 3 * * ?", Last: 77})
		rate := testfactory.Job(t, s, testfactory.JobOpts{ScheduleType: "FIX_RATE", ScheduleConf: "60"})
		none := testfactory.Job(t, s, testfactory.JobOpts{ScheduleType: "NONE"})
		expired := testfactory.Job(t, s, testfactory.JobOpts{ScheduleType: "CRON", ScheduleConf: "0 0 1 1 1 ? 2020"})

		if err := svc.Start(ctx, cronJob.ID); err != nil {
			t.Fatal(err)
		}
		got, _ := s.JobLoad(ctx, cronJob.ID)
		want := time.Date(2026, 11, 24, 3, 0, 0, 0, time.UTC).UnixMilli()
		if got.TriggerStatus != 1 || got.TriggerLastTime != 0 || got.TriggerNextTime != want || !got.UpdateTime.Equal(t0) {
			t.Errorf("started cron job: status %d last %d next %d update %v", got.TriggerStatus, got.TriggerLastTime, got.TriggerNextTime, got.UpdateTime)
		}
		if err := svc.Start(ctx, rate.ID); err != nil {
			t.Fatal(err)
		}
		got, _ = s.JobLoad(ctx, rate.ID)
		if got.TriggerNextTime != t0.Add(65*time.Second).UnixMilli() {
			t.Errorf("FIX_RATE 60 next %d, want now+5s+60s", got.TriggerNextTime)
		}
		if err := svc.Stop(ctx, cronJob.ID); err != nil {
			t.Fatal(err)
		}
		got, _ = s.JobLoad(ctx, cronJob.ID)
		if got.TriggerStatus != 0 || got.TriggerLastTime != 0 || got.TriggerNextTime != 0 {
			t.Errorf("stopped: %d %d %d", got.TriggerStatus, got.TriggerLastTime, got.TriggerNextTime)
		}
		if msg := refusal(t, svc.Start(ctx, none.ID)); msg != "The current schedule type disables startup" {
			t.Errorf("NONE start: %q", msg)
		}
		if msg := refusal(t, svc.Start(ctx, expired.ID)); msg != "Schedule Typeillegal" {
			t.Errorf("expired cron start: %q", msg)
		}
		for _, op := range []func(context.Context, int) error{svc.Start, svc.Stop} {
			if err := op(ctx, 9999); !errors.Is(err, ErrNotFound) {
				t.Errorf("unknown id: %v, want ErrNotFound", err)
			}
		}
	})
}

// TestStopNotUndoneByRound is why the service exists: a schedule round
// holding the lock has read a job running and will write it back; a stop
// issued meanwhile waits for the round's commit and then wins, instead of
// being overwritten by the round's stale copy (ARCHITECTURE "one door").
func TestStopNotUndoneByRound(t *testing.T) {
	storetest.ForEach(t, func(t *testing.T, s *schema.Store) {
		ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
		defer cancel()
		svc := newService(s, "en", t0)
		j := testfactory.Job(t, s, testfactory.JobOpts{ScheduleType: "FIX_RATE", ScheduleConf: "1", Status: 1, Next: t0.UnixMilli()})
		read, release := make(chan struct{}), make(chan struct{})
		roundDone, stopDone := make(chan error, 1), make(chan error, 1)
		go func() {
			roundDone <- s.WithScheduleLock(ctx, func(tx *schema.Store) error {
				jobs, err := tx.JobScheduleQuery(ctx, t0.UnixMilli()+5000, 10)
				if err != nil {
					return err
				}
				close(read)
				<-release
				for i := range jobs {
					jobs[i].TriggerLastTime, jobs[i].TriggerNextTime = jobs[i].TriggerNextTime, jobs[i].TriggerNextTime+1000
				}
				return tx.JobScheduleUpdateBatch(ctx, jobs)
			})
		}()
		<-read
		go func() { stopDone <- svc.Stop(ctx, j.ID) }()
		storetest.WaitScheduleLockWaiter(t, s, stopDone)
		close(release)
		if err := <-roundDone; err != nil {
			t.Fatal(err)
		}
		if err := <-stopDone; err != nil {
			t.Fatal(err)
		}
		got, _ := s.JobLoad(ctx, j.ID)
		if got.TriggerStatus != 0 || got.TriggerNextTime != 0 {
			t.Fatalf("stop undone by the round: status %d next %d", got.TriggerStatus, got.TriggerNextTime)
		}
	})
}
