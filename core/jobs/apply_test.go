package jobs

import (
	"context"
	"errors"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/xxl-admin-go/xxl-admin-go/compat/schema"
	"github.com/xxl-admin-go/xxl-admin-go/internal/testsupport/storetest"
	"github.com/xxl-admin-go/xxl-admin-go/internal/testsupport/testfactory"
)

func spec(group int, key string) Spec {
	j := formJob(group)
	j.JobDesc = "nightly report"
	return Spec{Job: j, Key: key}
}

func countJobs(t *testing.T, s *schema.Store, group int) int {
	t.Helper()
	n, err := s.JobCount(context.Background(), schema.JobFilter{JobGroup: group})
	if err != nil {
		t.Fatal(err)
	}
	return n
}

// TestApplyCreateOnly is the idempotent create: the second apply of the
// same spec finds the first one's job; a spec with other values for the
// same identity is a conflict naming the fields.
func TestApplyCreateOnly(t *testing.T) {
	storetest.ForEach(t, func(t *testing.T, s *schema.Store) {
		ctx := context.Background()
		svc := newService(s, "en", t0)
		g := testfactory.ManualGroup(t, s, "http://127.0.0.1:19991/")
		for _, key := range []string{"", "reports/nightly"} {
			sp := spec(g.ID, key)
			first, err := svc.Apply(ctx, sp, CreateOnly, nil)
			if err != nil || first.Outcome != Created {
				t.Fatalf("key %q: first apply %+v %v", key, first, err)
			}
			again, err := svc.Apply(ctx, sp, CreateOnly, nil)
			if err != nil || again.Outcome != Unchanged || again.ID != first.ID {
				t.Fatalf("key %q: second apply %+v %v", key, again, err)
			}
			sp.Job.Author = schema.Ptr("someone else")
			_, err = svc.Apply(ctx, sp, CreateOnly, nil)
			var mm *MismatchError
			if !errors.As(err, &mm) || !errors.Is(err, ErrConflict) || mm.ID != first.ID || !slices.Equal(mm.Fields, []string{"author"}) {
				t.Errorf("key %q: changed author: %v", key, err)
			}
		}
		if n := countJobs(t, s, g.ID); n != 2 {
			t.Errorf("%d jobs, want 2 (one without key, one with)", n)
		}
		j, ok, _ := svc.FindJob(ctx, Identity{Key: "reports/nightly"})
		if !ok || j.JobDesc != "nightly report [key:reports/nightly]" {
			t.Errorf("keyed job stored as %q", j.JobDesc)
		}
	})
}

// TestApplyOverwrite updates what differs — fields, GLUE source (a new
// version), running state — through the console's update, GLUE save and
// start, and reports the fields.
func TestApplyOverwrite(t *testing.T) {
	storetest.ForEach(t, func(t *testing.T, s *schema.Store) {
		ctx := context.Background()
		svc := newService(s, "en", t0)
		g := testfactory.ManualGroup(t, s, "http://127.0.0.1:19991/")
		sp := spec(g.ID, "k1")
		sp.Job.GlueType, sp.Job.ExecutorHandler, sp.Job.GlueSource = "GLUE_SHELL", schema.Ptr(""), schema.Ptr("echo 1\r\n")
		created, err := svc.Apply(ctx, sp, Overwrite, nil)
		if err != nil || created.Outcome != Created {
			t.Fatalf("create: %+v %v", created, err)
		}
		if got, _ := svc.Apply(ctx, sp, Overwrite, nil); got.Outcome != Unchanged {
			t.Errorf("same spec (\\r stripped on both sides): %+v", got)
		}
		sp.Job.ScheduleConf, sp.Job.GlueSource, sp.Job.GlueRemark = schema.Ptr("0 0 3 * * ?"), schema.Ptr("echo 2\n"), schema.Ptr("from the pipeline")
		sp.Running = schema.Ptr(true)
		got, err := svc.Apply(ctx, sp, Overwrite, nil)
		if err != nil || got.Outcome != Updated || got.ID != created.ID ||
			!slices.Equal(got.Changed, []string{"scheduleConf", "glueSource", "running"}) {
			t.Fatalf("update: %+v %v", got, err)
		}
		j, _ := s.JobLoad(ctx, got.ID)
		want := time.Date(2026, 11, 24, 3, 0, 0, 0, time.UTC).UnixMilli()
		if *j.ScheduleConf != "0 0 3 * * ?" || *j.GlueSource != "echo 2\n" || *j.GlueRemark != "from the pipeline" ||
			j.TriggerStatus != 1 || j.TriggerNextTime != want {
			t.Errorf("stored %q %q %q status %d next %d", *j.ScheduleConf, *j.GlueSource, *j.GlueRemark, j.TriggerStatus, j.TriggerNextTime)
		}
		versions, _ := s.GlueFindByJob(ctx, got.ID)
		if len(versions) != 1 || *versions[0].GlueSource != "echo 2\n" {
			t.Errorf("glue versions %+v", versions)
		}
		sp.Running = schema.Ptr(false)
		if got, _ := svc.Apply(ctx, sp, Overwrite, nil); !slices.Equal(got.Changed, []string{"running"}) {
			t.Errorf("stop: %+v", got)
		}
		if j, _ := s.JobLoad(ctx, got.ID); j.TriggerStatus != 0 || j.TriggerNextTime != 0 {
			t.Errorf("stopped: %d %d", j.TriggerStatus, j.TriggerNextTime)
		}

		// Keep leaves a differing job alone and says what differs.
		sp.Job.Author = schema.Ptr("other")
		kept, err := svc.Apply(ctx, sp, Keep, nil)
		if err != nil || kept.Outcome != Kept || !slices.Equal(kept.Changed, []string{"author"}) {
			t.Errorf("keep: %+v %v", kept, err)
		}
		if j, _ := s.JobLoad(ctx, got.ID); *j.Author != "rec" {
			t.Errorf("keep wrote author %q", *j.Author)
		}

		// The key follows the job into another group and a new description.
		other := testfactory.ManualGroup(t, s, "http://127.0.0.1:19992/")
		sp.Job.JobGroup, sp.Job.JobDesc = other.ID, "renamed"
		if got, err := svc.Apply(ctx, sp, Overwrite, nil); err != nil || got.ID != created.ID {
			t.Fatalf("move: %+v %v", got, err)
		}
		if j, _ := s.JobLoad(ctx, created.ID); j.JobGroup != other.ID || j.JobDesc != "renamed [key:k1]" {
			t.Errorf("moved job: group %d desc %q", j.JobGroup, j.JobDesc)
		}
		// Matched without key, a keyed job keeps its key.
		sp.Key, sp.Job.Author = "", schema.Ptr("third")
		if got, err := svc.Apply(ctx, sp, Overwrite, nil); err != nil || got.ID != created.ID {
			t.Fatalf("by description: %+v %v", got, err)
		}
		if j, _ := s.JobLoad(ctx, created.ID); j.JobDesc != "renamed [key:k1]" || *j.Author != "third" {
			t.Errorf("key lost: %q %q", j.JobDesc, *j.Author)
		}
	})
}

// TestApplyRefusals: the console's messages, a GLUE type change, keys,
// permissions — and nothing written by a refused apply.
func TestApplyRefusals(t *testing.T) {
	storetest.ForEach(t, func(t *testing.T, s *schema.Store) {
		ctx := context.Background()
		svc := newService(s, "en", t0)
		g := testfactory.ManualGroup(t, s, "http://127.0.0.1:19991/")
		if _, err := svc.Apply(ctx, spec(g.ID, "k"), CreateOnly, nil); err != nil {
			t.Fatal(err)
		}
		none := func(int) bool { return false }
		cases := []struct {
			name string
			edit func(sp *Spec)
			mode Mode
			may  MayUseGroup
			want string // refusal text; "" for ErrPermission
		}{
			{"invalid cron", func(sp *Spec) { sp.Key = "new"; sp.Job.ScheduleConf = schema.Ptr("x") }, CreateOnly, nil, "Cronillegal"},
			{"invalid cron on update", func(sp *Spec) { sp.Job.ScheduleConf = schema.Ptr("x") }, Overwrite, nil, "Cronillegal"},
			{"bad key", func(sp *Spec) { sp.Key = "a b" }, CreateOnly, nil,
				`key "a b": use 1–64 letters, digits and . _ - / : @, starting with a letter or digit`},
			{"marker in desc", func(sp *Spec) { sp.Job.JobDesc = "x [key:y]" }, CreateOnly, nil,
				"Job descriptionillegal: it must not end with a [key:…] marker (give the key as key)"},
			{"glue type change", func(sp *Spec) { sp.Job.GlueType = "GLUE_PYTHON" }, Overwrite, nil,
				"GLUE Typeillegal: BEAN cannot become GLUE_PYTHON (remove the job and create it again)"},
			{"start a NONE job", func(sp *Spec) {
				sp.Key, sp.Job.ScheduleType, sp.Job.ScheduleConf, sp.Running = "none", "NONE", schema.Ptr(""), schema.Ptr(true)
			}, CreateOnly, nil, "The current schedule type disables startup"},
			{"foreign group", func(sp *Spec) {}, Overwrite, none, ""},
			{"foreign new group", func(sp *Spec) { sp.Key = "new" }, CreateOnly, none, ""},
		}
		for _, c := range cases {
			sp := spec(g.ID, "k")
			c.edit(&sp)
			_, err := svc.Apply(ctx, sp, c.mode, c.may)
			if c.want == "" {
				if !errors.Is(err, ErrPermission) {
					t.Errorf("%s: %v, want ErrPermission", c.name, err)
				}
				continue
			}
			if got := refusal(t, err); got != c.want {
				t.Errorf("%s: %q, want %q", c.name, got, c.want)
			}
		}
		if n := countJobs(t, s, g.ID); n != 1 {
			t.Errorf("refused applies left %d jobs, want 1", n)
		}
	})
}

// TestApplyConcurrent: applies of one spec racing each other create one job.
func TestApplyConcurrent(t *testing.T) {
	storetest.ForEach(t, func(t *testing.T, s *schema.Store) {
		ctx := context.Background()
		svc := newService(s, "en", t0)
		g := testfactory.ManualGroup(t, s, "http://127.0.0.1:19991/")
		var wg sync.WaitGroup
		errs := make(chan error, 8)
		for range 8 {
			wg.Go(func() {
				_, err := svc.Apply(ctx, spec(g.ID, ""), CreateOnly, nil)
				errs <- err
			})
		}
		wg.Wait()
		close(errs)
		for err := range errs {
			if err != nil {
				t.Error(err)
			}
		}
		if n := countJobs(t, s, g.ID); n != 1 {
			t.Errorf("%d jobs, want 1", n)
		}
	})
}

// TestDryRun reports what a batch would do and writes nothing.
func TestDryRun(t *testing.T) {
	storetest.ForEach(t, func(t *testing.T, s *schema.Store) {
		ctx := context.Background()
		svc := newService(s, "en", t0)
		before, _ := s.JobFindAllCount(ctx)
		var res Applied
		err := svc.DryRun(ctx, func(b *Batch) error {
			id, err := b.AddGroup(schema.Group{AppName: "dry-run-app", Title: "dry"})
			if err != nil {
				return err
			}
			res, err = b.Apply(spec(id, ""), Overwrite, nil)
			return err
		})
		if err != nil || res.Outcome != Created {
			t.Fatalf("dry run: %+v %v", res, err)
		}
		if _, ok, _ := svc.FindGroup(ctx, "dry-run-app"); ok {
			t.Error("dry run stored its group")
		}
		if n, _ := s.JobFindAllCount(ctx); n != before {
			t.Errorf("%d jobs after a dry run, %d before", n, before)
		}
	})
}

// TestReplace updates a job by id: its key kept when the spec has none, a
// key of another job refused, an unknown id ErrNotFound.
func TestReplace(t *testing.T) {
	storetest.ForEach(t, func(t *testing.T, s *schema.Store) {
		ctx := context.Background()
		svc := newService(s, "en", t0)
		g := testfactory.ManualGroup(t, s, "http://127.0.0.1:19991/")
		a, _ := svc.Apply(ctx, spec(g.ID, "a"), CreateOnly, nil)
		spB := spec(g.ID, "b")
		spB.Job.JobDesc = "other"
		b, _ := svc.Apply(ctx, spB, CreateOnly, nil)

		sp := spec(g.ID, "")
		sp.Job.Author = schema.Ptr("new author")
		got, err := svc.Replace(ctx, a.ID, sp, nil)
		if err != nil || got.Outcome != Updated || !slices.Equal(got.Changed, []string{"author"}) {
			t.Fatalf("replace: %+v %v", got, err)
		}
		if j, _ := s.JobLoad(ctx, a.ID); j.JobDesc != "nightly report [key:a]" || *j.Author != "new author" {
			t.Errorf("stored %q %q", j.JobDesc, *j.Author)
		}
		sp.Key = "b"
		if _, err := svc.Replace(ctx, a.ID, sp, nil); !errors.Is(err, ErrConflict) || err.Error() != `key "b" is taken by job `+itoa(b.ID) {
			t.Errorf("taken key: %v", err)
		}
		if _, err := svc.Replace(ctx, 9999, sp, nil); !errors.Is(err, ErrNotFound) {
			t.Errorf("unknown id: %v", err)
		}
		if _, err := svc.Replace(ctx, a.ID, spec(g.ID, ""), func(int) bool { return false }); !errors.Is(err, ErrPermission) {
			t.Errorf("foreign group: %v", err)
		}
	})
}
