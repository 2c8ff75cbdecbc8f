package jobs

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/rs/zerolog"

	"github.com/xxl-admin-go/xxl-admin-go/compat/api"
	"github.com/xxl-admin-go/xxl-admin-go/compat/i18n"
	"github.com/xxl-admin-go/xxl-admin-go/compat/schema"
	"github.com/xxl-admin-go/xxl-admin-go/internal/testsupport/storetest"
	"github.com/xxl-admin-go/xxl-admin-go/internal/testsupport/testfactory"
)

type fakeExecutor struct {
	log  api.ReturnT[api.LogResult]
	kill api.ReturnT[string]
}

func (f *fakeExecutor) Log(context.Context, string, api.LogParam) api.ReturnT[api.LogResult] {
	return f.log
}

func (f *fakeExecutor) Kill(context.Context, string, api.KillParam) api.ReturnT[string] {
	return f.kill
}

type storeResults struct{ s *schema.Store }

func (r storeResults) Overwrite(ctx context.Context, l schema.JobLog) error {
	return r.s.LogUpdateHandleInfo(ctx, l)
}

// TestLogsClassified checks that every refusal of cat and kill carries the
// console's message and a class the job API answers with a status: unknown
// log → ErrLogNotFound, no executor address or failed trigger →
// ErrConflict, executor refusal → *ExecutorError, foreign group →
// ErrPermission (console.md §6).
func TestLogsClassified(t *testing.T) {
	storetest.ForEach(t, func(t *testing.T, s *schema.Store) {
		ctx := context.Background()
		exec := &fakeExecutor{}
		logs := NewLogs(LogsConfig{Store: s, Executor: exec, Results: storeResults{s}, Texts: i18n.Load("en"),
			Now: func() time.Time { return t0 }, Log: zerolog.Nop()})
		g := testfactory.ManualGroup(t, s, "http://127.0.0.1:19991/")
		j := testfactory.Job(t, s, testfactory.JobOpts{Group: g.ID})
		addr := "http://127.0.0.1:19991/"
		running := testfactory.Log(t, s, testfactory.LogOpts{Group: g.ID, Job: j.ID, TriggerCode: 200, Address: &addr})
		finished := testfactory.Log(t, s, testfactory.LogOpts{Group: g.ID, Job: j.ID, TriggerCode: 200, Address: &addr, HandleCode: 200})
		failed := testfactory.Log(t, s, testfactory.LogOpts{Group: g.ID, Job: j.ID, TriggerCode: 500})

		exec.log = api.ReturnT[api.LogResult]{Code: 200, Content: &api.LogResult{FromLineNum: 5, ToLineNum: 4, LogContent: "<raw>"}}
		if res, err := logs.Cat(ctx, running.ID, 5, nil); err != nil || res.Content.End || res.Content.LogContent != "<raw>" {
			t.Errorf("running: %+v %v", res.Content, err)
		}
		if res, err := logs.Cat(ctx, finished.ID, 5, nil); err != nil || !res.Content.End {
			t.Errorf("finished without new lines: %+v %v", res.Content, err)
		}
		none := func(int) bool { return false }
		for _, c := range []struct {
			name  string
			err   error
			class error
			msg   string
		}{
			{"cat unknown", second(logs.Cat(ctx, 99999, 1, nil)), ErrLogNotFound, "Log ID is illegal"},
			{"cat without address", second(logs.Cat(ctx, failed.ID, 1, nil)), ErrConflict, "The job trigger fail, can not view the rolling log"},
			{"cat foreign", second(logs.Cat(ctx, running.ID, 1, none)), ErrPermission, ""},
			{"kill unknown", second(logs.Kill(ctx, 99999, nil, "t")), ErrLogNotFound, "Log ID is illegal"},
			{"kill failed trigger", second(logs.Kill(ctx, failed.ID, nil, "t")), ErrConflict, "Trigger Fail, can not kill job"},
			{"kill foreign", second(logs.Kill(ctx, running.ID, none, "t")), ErrPermission, ""},
		} {
			if !errors.Is(c.err, c.class) {
				t.Errorf("%s: %v, want %v", c.name, c.err, c.class)
			}
			var r *Refusal
			if c.msg != "" && (!errors.As(c.err, &r) || r.Msg != c.msg) {
				t.Errorf("%s: %v, want refusal %q", c.name, c.err, c.msg)
			}
		}
		if !errors.Is(ErrLogNotFound, ErrNotFound) {
			t.Error("ErrLogNotFound is not an ErrNotFound")
		}
		exec.kill = api.ReturnT[string]{Code: 500, Msg: schema.Ptr("busy")}
		var ee *ExecutorError
		if _, err := logs.Kill(ctx, running.ID, nil, "t"); !errors.As(err, &ee) || *ee.Msg != "busy" {
			t.Errorf("executor refusal: %v", err)
		}
		exec.kill = api.ReturnT[string]{Code: 200}
		if msg, err := logs.Kill(ctx, running.ID, nil, "t"); err != nil || msg != nil {
			t.Errorf("kill: %v %v", msg, err)
		}
		if l, _ := s.LogLoad(ctx, running.ID); l.HandleCode != 500 || *l.HandleMsg != "Manual operation, kill job:" || !l.HandleTime.Equal(t0) {
			t.Errorf("killed log: %d %q %v", l.HandleCode, *l.HandleMsg, l.HandleTime)
		}
	})
}

func second[T any](_ T, err error) error { return err }
