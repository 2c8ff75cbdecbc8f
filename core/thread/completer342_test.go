package thread

import (
	"context"
	"slices"
	"testing"
	"time"

	"github.com/rs/zerolog"

	"github.com/xxl-admin-go/xxl-admin-go/compat/api"
	"github.com/xxl-admin-go/xxl-admin-go/compat/i18n"
	"github.com/xxl-admin-go/xxl-admin-go/compat/schema"
	"github.com/xxl-admin-go/xxl-admin-go/internal/testsupport/storetest"
)

// TestCallbackChildJobsByRule: the same child_jobid under both rules.
// 3.4.2 (JobCompleter.java lines 58–88) skips the job itself without a
// line and takes only digits, so "+2" is an invalid id and "５" job 5,
// and a queued child's line carries Response.ofSuccess()'s "Success";
// 2.4.2 triggers the job itself and reads "+2" as job 2.
func TestCallbackChildJobsByRule(t *testing.T) {
	const head = `<br><br><span style="color:#00c0ef;" > >>>>>>>>>>>Trigger child job<<<<<<<<<<< </span><br>`
	cases := []struct {
		name  string
		rule  ChildRule
		texts *i18n.Bundle
		want  string
		fired []int
	}{
		{"3.4.2", ChildRule342, i18n.LoadFor(3, "en"), head +
			`2/4 [Job ID=+2], Trigger Fail, Trigger msg: Job ID is illegal <br>` +
			`3/4 [Job ID=3], Trigger success, Trigger msg: Success <br>` +
			`4/4 [Job ID=５], Trigger success, Trigger msg: Success <br>`, []int{3, 5}},
		{"2.4.2", ChildRule242, i18n.Load("en"), head +
			`1/4 [Job ID=1], Trigger success, Trigger msg: null <br>` +
			`2/4 [Job ID=+2], Trigger success, Trigger msg: null <br>` +
			`3/4 [Job ID=3], Trigger success, Trigger msg: null <br>` +
			`4/4 [Job ID=５], Trigger Fail, Trigger msg: Job ID is illegal <br>`, []int{1, 2, 3}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			s := storetest.SQLite(t)
			ctx := context.Background()
			job, err := s.JobLoad(ctx, 1)
			if err != nil {
				t.Fatal(err)
			}
			job.ChildJobID = schema.Ptr("1,+2,3,５")
			if _, err := s.JobUpdate(ctx, job); err != nil {
				t.Fatal(err)
			}
			rec := &childRecorder{}
			c := NewCompleter(CompleterConfig{Store: s, Texts: tc.texts, Trigger: rec, Now: time.Now, Log: zerolog.Nop(), Children: tc.rule})
			id := newRunningLog(t, s, 1, nil)
			if err := c.Callback(ctx, []api.HandleCallbackParam{{LogID: id, HandleCode: 200, HandleMsg: schema.Ptr("done")}}); err != nil {
				t.Fatal(err)
			}
			if got, want := *loadLog(t, s, id).HandleMsg, "done"+tc.want; got != want {
				t.Errorf("handle_msg\n got %q\nwant %q", got, want)
			}
			if got := rec.fired(); !slices.Equal(got, tc.fired) {
				t.Errorf("fired %v, want %v", got, tc.fired)
			}
		})
	}
}
