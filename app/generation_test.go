package app_test

import (
	"context"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/xxl-admin-go/xxl-admin-go/compat/schema"
	"github.com/xxl-admin-go/xxl-admin-go/internal/testsupport/admintest"
	"github.com/xxl-admin-go/xxl-admin-go/internal/testsupport/storetest"
)

// TestTriggerMsgFollowsGeneration: the same trigger of the seed job (whose
// group has no executor) is written as the 2.4.2 admin writes it on a 2.x
// database and as the 3.4.2 admin (JobTrigger.java 3.4.2 lines 216–235)
// on a 3.x one, in the configured language.
func TestTriggerMsgFollowsGeneration(t *testing.T) {
	const token = "0123456789abcdef-token"
	for _, tc := range []struct {
		schema, path, lang, tail string
	}{
		{"2.4", "/xxl-job-admin", "zh_CN", "</span><br>调度失败：执行器地址为空<br><br>"},
		{"3.4", "", "zh_CN", "</span><br><br>执行器地址：address route fail, 调度失败：执行器地址为空<br>JobHandler：demoJobHandler<br>任务参数：<br>调度备注：error, Address Router Fail."},
		{"3.4", "", "en", "</span><br><br>Executor Address：address route fail, Trigger Fail：registry address is empty<br>JobHandler：demoJobHandler<br>Param：<br>Trigger Msg：error, Address Router Fail."},
	} {
		t.Run(tc.schema+"/"+tc.lang, func(t *testing.T) {
			url := storetest.SQLiteURL(t, "")
			base := admintest.Start(t, "--spring.datasource.url="+url, "--xxl.job.schema="+tc.schema,
				"--xxl.job.i18n="+tc.lang, "--xxl.job.openapi.token="+token)
			req, _ := http.NewRequest(http.MethodPost, base+tc.path+"/openapi/v1/jobs/1/trigger", strings.NewReader(`{}`))
			req.Header.Set("Authorization", "Bearer "+token)
			req.Header.Set("Content-Type", "application/json")
			resp, err := http.DefaultClient.Do(req)
			if err != nil {
				t.Fatal(err)
			}
			_ = resp.Body.Close()
			if resp.StatusCode != http.StatusAccepted {
				t.Fatalf("trigger: HTTP %d", resp.StatusCode)
			}
			s := storetest.Open(t, url, "", "")
			if want := map[string]schema.Generation{"2.4": schema.Gen2, "3.4": schema.Gen3}[tc.schema]; s.Generation() != want {
				t.Fatalf("database generation %s, want %s", s.Generation(), want)
			}
			msg := waitTriggerMsg(t, s, 1)
			if !strings.HasSuffix(msg, tc.tail) {
				t.Errorf("trigger_msg\n got: %s\nwant the tail: %s", msg, tc.tail)
			}
		})
	}
}

// waitTriggerMsg returns the trigger_msg of the job's first finished log
// row once the pools wrote it.
func waitTriggerMsg(t *testing.T, s *schema.Store, jobID int) string {
	t.Helper()
	ctx := context.Background()
	tick := time.NewTicker(20 * time.Millisecond)
	defer tick.Stop()
	deadline := time.After(20 * time.Second)
	for {
		logs, _, err := s.LogPageList(ctx, 0, 10, schema.LogFilter{JobID: jobID})
		if err != nil {
			t.Fatal(err)
		}
		for _, l := range logs {
			if l.TriggerCode != 0 && l.TriggerMsg != nil {
				return *l.TriggerMsg
			}
		}
		select {
		case <-tick.C:
		case <-deadline:
			t.Fatal("no finished log row within 20 s")
		}
	}
}
