package workflow

import (
	"context"
	"errors"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/rs/zerolog"

	"github.com/xxl-admin-go/xxl-admin-go/compat/schema"
	"github.com/xxl-admin-go/xxl-admin-go/core/clock"
	"github.com/xxl-admin-go/xxl-admin-go/internal/testsupport/storetest"
	"github.com/xxl-admin-go/xxl-admin-go/internal/testsupport/testfactory"
)

// TestSave: a workflow is checked against the jobs as stored — a deleted
// job, a job of another group and a cycle are refused, all named — and an
// enabled schedule gets its next fire time; an update keeps the add time.
func TestSave(t *testing.T) {
	t.Parallel()
	storetest.ForEach(t, func(t *testing.T, s *schema.Store) {
		r := newRig(t, s, 1)
		ctx := context.Background()
		a, b, gone := r.job(0), r.job(0), r.job(0)
		foreign := testfactory.Job(t, s, testfactory.JobOpts{Group: 1, Handler: "h"}).ID
		if _, err := s.JobDelete(ctx, gone); err != nil {
			t.Fatal(err)
		}
		t0 := time.Date(2026, 11, 28, 10, 0, 0, 0, time.UTC)
		bad := Workflow{JobGroup: r.group.ID, Name: "bad", Graph: Graph{
			Nodes: []Node{{ID: 1, JobID: a}, {ID: 2, JobID: b}, {ID: 3, JobID: gone}, {ID: 4, JobID: foreign}},
			Edges: []Edge{{1, 2}, {2, 1}}}}
		_, err := Save(ctx, s, bad, t0, time.UTC)
		for _, want := range []string{"cycle", "does not exist", "belongs to executor group 1"} {
			if !errors.Is(err, ErrInvalid) || !strings.Contains(err.Error(), want) {
				t.Errorf("Save = %v, want ErrInvalid naming %q", err, want)
			}
		}
		w := Workflow{JobGroup: r.group.ID, Name: "etl", Enabled: true, Graph: Graph{Nodes: []Node{{ID: 1, JobID: a}}},
			Schedule: Schedule{Type: "CRON", Conf: "0 30 2 * * ?", TimeZone: "Asia/Shanghai"}}
		id, err := Save(ctx, s, w, t0, time.UTC)
		if err != nil {
			t.Fatal(err)
		}
		row, _ := s.WorkflowLoad(ctx, id)
		if want := time.Date(2026, 11, 29, 2, 30, 0, 0, mustZone(t, "Asia/Shanghai")); row.TriggerNextTime != want.UnixMilli() {
			t.Errorf("next fire %v, want %v", time.UnixMilli(row.TriggerNextTime), want)
		}
		w.ID, w.Enabled = id, false
		if _, err := Save(ctx, s, w, t0.Add(time.Hour), time.UTC); err != nil {
			t.Fatal(err)
		}
		if row, _ := s.WorkflowLoad(ctx, id); !row.AddTime.Equal(t0) || !row.UpdateTime.Equal(t0.Add(time.Hour)) || row.TriggerNextTime != 0 {
			t.Errorf("after the update: %+v", row)
		}
	})
}

func mustZone(t *testing.T, name string) *time.Location {
	l, err := time.LoadLocation(name)
	if err != nil {
		t.Fatal(err)
	}
	return l
}

// TestScheduler: a due fire starts one run however many admins' schedulers
// see it at once, with the fire's time as the run's; the next fire time
// moves on by the schedule; a missed fire follows its misfire strategy.
func TestScheduler(t *testing.T) {
	t.Parallel()
	storetest.ForEach(t, func(t *testing.T, s *schema.Store) {
		r := newRig(t, s, 1)
		ctx := context.Background()
		t0 := time.Now().Truncate(time.Second)
		fake := clock.NewFake(t0)
		var schedulers []*Scheduler
		for range 3 {
			e := New(Config{Store: s, Trigger: r.admins[0].door, Durable: r.admins[0].durable, Now: fake.Now, Log: zerolog.Nop()})
			schedulers = append(schedulers, NewScheduler(e, time.UTC, 0))
		}
		passAll := func() {
			var wg sync.WaitGroup
			for _, sc := range schedulers {
				wg.Go(func() {
					if err := sc.Pass(ctx); err != nil {
						t.Error(err)
					}
				})
			}
			wg.Wait()
		}
		job := r.job(0)
		w := Workflow{JobGroup: r.group.ID, Name: "every 10 s", Enabled: true, Graph: Graph{Nodes: []Node{{ID: 1, JobID: job}}},
			Schedule: Schedule{Type: "FIX_RATE", Conf: "10"}, Concurrency: Concurrency{Policy: PolicyParallel, Max: 10}}
		id, err := Save(ctx, s, w, t0, time.UTC)
		if err != nil {
			t.Fatal(err)
		}
		runsOf := func() []schema.WorkflowRun {
			runs, err := s.WorkflowRunList(ctx, id, 0, 100)
			if err != nil {
				t.Fatal(err)
			}
			return runs
		}
		passAll()
		if n := len(runsOf()); n != 0 {
			t.Fatalf("%d runs before the first fire", n)
		}
		fake.Advance(10 * time.Second)
		passAll()
		runs := runsOf()
		if len(runs) != 1 || !runs[0].ScheduleTime.Equal(t0.Add(10*time.Second)) || runs[0].TriggerType != "FIX_RATE" {
			t.Fatalf("after the first fire: %+v", runs)
		}
		if row, _ := s.WorkflowLoad(ctx, id); row.TriggerNextTime != t0.Add(20*time.Second).UnixMilli() {
			t.Fatalf("next fire %v", time.UnixMilli(row.TriggerNextTime))
		}
		r.settle(runs[0].ID)

		// Missed by a minute: DO_NOTHING starts nothing and the next fire
		// is ten seconds from now.
		fake.Advance(time.Minute)
		passAll()
		if n := len(runsOf()); n != 1 {
			t.Fatalf("a missed fire under DO_NOTHING started a run (%d runs)", n)
		}
		if row, _ := s.WorkflowLoad(ctx, id); row.TriggerNextTime != fake.Now().Add(10*time.Second).UnixMilli() {
			t.Fatalf("next fire after the miss: %v, now %v", time.UnixMilli(row.TriggerNextTime), fake.Now())
		}
		// FIRE_ONCE_NOW starts one run for it.
		w.ID, w.Schedule.Misfire = id, "FIRE_ONCE_NOW"
		if _, err := Save(ctx, s, w, fake.Now(), time.UTC); err != nil {
			t.Fatal(err)
		}
		fake.Advance(time.Minute)
		passAll()
		runs = runsOf()
		if len(runs) != 2 || runs[0].TriggerType != "MISFIRE" || !runs[0].ScheduleTime.Equal(fake.Now()) {
			t.Fatalf("after a miss under FIRE_ONCE_NOW: %+v", runs)
		}
		r.settle(runs[0].ID)
	})
}

// TestWarnings: a node's job with a schedule of its own or child jobs is
// named; a plain job is not.
func TestWarnings(t *testing.T) {
	t.Parallel()
	storetest.ForEach(t, func(t *testing.T, s *schema.Store) {
		r := newRig(t, s, 1)
		plain := r.job(0)
		cronJob := testfactory.Job(t, s, testfactory.JobOpts{Group: r.group.ID, Handler: "h", ScheduleType: "CRON", ScheduleConf: "0 0 * * * ?"}).ID
		parent := testfactory.Job(t, s, testfactory.JobOpts{Group: r.group.ID, Handler: "h", ChildJobIDs: "1"}).ID
		w := Workflow{JobGroup: r.group.ID, Name: "w", Graph: Graph{Nodes: []Node{{ID: 1, JobID: plain}, {ID: 2, JobID: cronJob}, {ID: 3, JobID: parent}}}}
		got, err := Warnings(context.Background(), s, w)
		if err != nil {
			t.Fatal(err)
		}
		if len(got) != 2 || !strings.Contains(got[0], "node 2") || !strings.Contains(got[0], "CRON") || !strings.Contains(got[1], "node 3") {
			t.Fatalf("Warnings = %q", got)
		}
	})
}
