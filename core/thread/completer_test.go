package thread

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/rs/zerolog"

	"github.com/xxl-admin-go/xxl-admin-go/compat/api"
	"github.com/xxl-admin-go/xxl-admin-go/compat/i18n"
	"github.com/xxl-admin-go/xxl-admin-go/compat/schema"
	"github.com/xxl-admin-go/xxl-admin-go/core/trigger"
	"github.com/xxl-admin-go/xxl-admin-go/internal/testsupport/storetest"
	"github.com/xxl-admin-go/xxl-admin-go/internal/testsupport/testfactory"
)

type childRecorder struct {
	mu  sync.Mutex
	ids []int
}

// Submit records a child trigger; it must be a PARENT trigger with the
// job's own retry count (scheduler.md §7).
func (c *childRecorder) Submit(req trigger.Request) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	if req.Type != trigger.TypeParent || req.FailRetryCount != -1 {
		return fmt.Errorf("child trigger %+v: want type PARENT and retry count -1", req)
	}
	c.ids = append(c.ids, req.JobID)
	return nil
}

func (c *childRecorder) fired() []int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return append([]int(nil), c.ids...)
}

// newRunningLog inserts a log row as the trigger flow leaves it after a
// successful /run: trigger_code 200, handle_code 0.
func newRunningLog(t *testing.T, s *schema.Store, jobID int, handleMsg *string) int64 {
	t.Helper()
	return testfactory.Log(t, s, testfactory.LogOpts{Job: jobID, TriggerCode: 200, TriggerMsg: schema.Ptr("ok"),
		HandleMsg: handleMsg}).ID
}

func loadLog(t *testing.T, s *schema.Store, id int64) schema.JobLog {
	t.Helper()
	l, err := s.LogLoad(context.Background(), id)
	if err != nil {
		t.Fatal(err)
	}
	return l
}

// TestCallbackMergeAndGuard: executor-protocol.md §2.5 steps 1-4 — unknown
// ids skipped, message merged with <br>, handle_code > 0 rows ignored.
func TestCallbackMergeAndGuard(t *testing.T) {
	storetest.ForEach(t, func(t *testing.T, s *schema.Store) {
		ctx := context.Background()
		now := time.Date(2024, 5, 6, 7, 8, 9, 0, time.Local)
		rec := &childRecorder{}
		c := NewCompleter(CompleterConfig{Store: s, Texts: i18n.Load("en"), Trigger: rec, Now: func() time.Time { return now }, Log: zerolog.Nop()})
		plain := newRunningLog(t, s, 1, nil)
		withOld := newRunningLog(t, s, 1, schema.Ptr("old"))
		nullMsg := newRunningLog(t, s, 1, nil)
		err := c.Callback(ctx, []api.HandleCallbackParam{
			{LogID: 999999, HandleCode: 200},
			{LogID: plain, HandleCode: 500, HandleMsg: schema.Ptr("boom")},
			{LogID: withOld, HandleCode: 502, HandleMsg: schema.Ptr("job execute timeout ")},
			{LogID: nullMsg, HandleCode: 200},
		})
		if err != nil {
			t.Fatal(err)
		}
		cases := []struct {
			id   int64
			code int
			msg  string
		}{{plain, 500, "boom"}, {withOld, 502, "old<br>job execute timeout "}, {nullMsg, 200, ""}}
		for _, tc := range cases {
			l := loadLog(t, s, tc.id)
			if l.HandleCode != tc.code || l.HandleMsg == nil || *l.HandleMsg != tc.msg {
				t.Errorf("log %d: code %d msg %v, want %d %q", tc.id, l.HandleCode, l.HandleMsg, tc.code, tc.msg)
			}
			if l.HandleTime == nil || !l.HandleTime.Equal(now) {
				t.Errorf("log %d: handle_time %v", tc.id, l.HandleTime)
			}
		}
		// A repeated callback changes nothing (handle_code > 0 guard).
		if err := c.Callback(ctx, []api.HandleCallbackParam{{LogID: plain, HandleCode: 200, HandleMsg: schema.Ptr("again")}}); err != nil {
			t.Fatal(err)
		}
		if l := loadLog(t, s, plain); l.HandleCode != 500 || *l.HandleMsg != "boom" {
			t.Errorf("repeat callback changed the row: %d %q", l.HandleCode, *l.HandleMsg)
		}
		if len(rec.fired()) != 0 {
			t.Errorf("children fired: %v", rec.fired())
		}
		// The same log twice in one POST: the first result wins, as two POSTs would.
		twice := newRunningLog(t, s, 1, nil)
		if err := c.Callback(ctx, []api.HandleCallbackParam{
			{LogID: twice, HandleCode: 500, HandleMsg: schema.Ptr("first")},
			{LogID: twice, HandleCode: 200, HandleMsg: schema.Ptr("second")},
		}); err != nil {
			t.Fatal(err)
		}
		if l := loadLog(t, s, twice); l.HandleCode != 500 || *l.HandleMsg != "first" {
			t.Errorf("duplicate in one POST: %d %q", l.HandleCode, *l.HandleMsg)
		}
	})
}

// TestCallbackChildJobs: the exact child-trigger text (executor-protocol.md
// §2.5, texts of scheduler.md §12) and the children queued.
func TestCallbackChildJobs(t *testing.T) {
	cases := []struct {
		lang, children string
		want           string
		fired          []int
	}{
		{"en", "3,abc", `<br><br><span style="color:#00c0ef;" > >>>>>>>>>>>Trigger child job<<<<<<<<<<< </span><br>` +
			`1/2 [Job ID=3], Trigger success, Trigger msg: null <br>` +
			`2/2 [Job ID=abc], Trigger Fail, Trigger msg: Job ID is illegal <br>`, []int{3}},
		{"zh_CN", "2, 4,0,", `<br><br><span style="color:#00c0ef;" > >>>>>>>>>>>触发子任务<<<<<<<<<<< </span><br>` +
			`1/3 [任务ID=2], 触发成功, 触发备注: null <br>` +
			`2/3 [任务ID= 4], 触发失败, 触发备注: 任务ID格式错误 <br>` +
			`3/3 [任务ID=0], 触发失败, 触发备注: 任务ID格式错误 <br>`, []int{2}},
	}
	for _, tc := range cases {
		t.Run(tc.lang, func(t *testing.T) {
			s := storetest.SQLite(t)
			ctx := context.Background()
			job, err := s.JobLoad(ctx, 1)
			if err != nil {
				t.Fatal(err)
			}
			job.ChildJobID = &tc.children
			if _, err := s.JobUpdate(ctx, job); err != nil {
				t.Fatal(err)
			}
			rec := &childRecorder{}
			c := NewCompleter(CompleterConfig{Store: s, Texts: i18n.Load(tc.lang), Trigger: rec, Now: time.Now, Log: zerolog.Nop()})
			id := newRunningLog(t, s, 1, nil)
			if err := c.Callback(ctx, []api.HandleCallbackParam{{LogID: id, HandleCode: 200, HandleMsg: schema.Ptr("done")}}); err != nil {
				t.Fatal(err)
			}
			l := loadLog(t, s, id)
			if want := "done" + tc.want; *l.HandleMsg != want {
				t.Errorf("handle_msg\n got %q\nwant %q", *l.HandleMsg, want)
			}
			if got := rec.fired(); len(got) != len(tc.fired) || (len(got) > 0 && got[0] != tc.fired[0]) {
				t.Errorf("fired %v, want %v", got, tc.fired)
			}
		})
	}
}

// TestCallbackCap: handle_msg is capped at 15000 UTF-16 units (config.md §3),
// without splitting a surrogate pair.
func TestCallbackCap(t *testing.T) {
	s := storetest.SQLite(t)
	c := NewCompleter(CompleterConfig{Store: s, Texts: i18n.Load("en"), Trigger: &childRecorder{}, Now: time.Now, Log: zerolog.Nop()})
	id := newRunningLog(t, s, 1, nil)
	long := strings.Repeat("a", 14999) + "🎉" + strings.Repeat("b", 100)
	if err := c.Callback(context.Background(), []api.HandleCallbackParam{{LogID: id, HandleCode: 500, HandleMsg: &long}}); err != nil {
		t.Fatal(err)
	}
	if got := *loadLog(t, s, id).HandleMsg; got != strings.Repeat("a", 14999) {
		t.Fatalf("len %d, tail %q", len(got), got[len(got)-5:])
	}
	if got := truncateUTF16("中文🎉x", 4); got != "中文🎉" {
		t.Fatalf("got %q", got)
	}
}

// TestCallbackRace: two deliveries of one callback racing (the executor
// re-sends after a timeout) finish the log once and fire children once.
func TestCallbackRace(t *testing.T) {
	storetest.ForEach(t, func(t *testing.T, s *schema.Store) {
		ctx := context.Background()
		job, _ := s.JobLoad(ctx, 1)
		job.ChildJobID = schema.Ptr("7")
		if _, err := s.JobUpdate(ctx, job); err != nil {
			t.Fatal(err)
		}
		rec := &childRecorder{}
		c := NewCompleter(CompleterConfig{Store: s, Texts: i18n.Load("en"), Trigger: rec, Now: time.Now, Log: zerolog.Nop()})
		const logs = 20
		ids := make([]int64, logs)
		for i := range ids {
			ids[i] = newRunningLog(t, s, 1, nil)
		}
		var wg sync.WaitGroup
		for r := 0; r < 4; r++ {
			wg.Add(1)
			go func() {
				defer wg.Done()
				for _, id := range ids {
					if err := c.Callback(ctx, []api.HandleCallbackParam{{LogID: id, HandleCode: 200, HandleMsg: schema.Ptr("ok")}}); err != nil {
						t.Error(err)
					}
				}
			}()
		}
		wg.Wait()
		if got := len(rec.fired()); got != logs {
			t.Fatalf("children fired %d times, want %d", got, logs)
		}
		for _, id := range ids {
			if l := loadLog(t, s, id); !strings.HasPrefix(*l.HandleMsg, "ok<br><br><span") || strings.Count(*l.HandleMsg, "Trigger child job") != 1 {
				t.Fatalf("log %d msg %q", id, *l.HandleMsg)
			}
		}
	})
}
