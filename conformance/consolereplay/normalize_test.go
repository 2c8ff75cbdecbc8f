package consolereplay

import (
	"encoding/json"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"
)

func TestShiftDates(t *testing.T) {
	loc, err := time.LoadLocation(Zone)
	if err != nil {
		t.Fatal(err)
	}
	shift := 26*time.Hour + 30*time.Second
	tests := []struct{ in, want string }{
		{"2026-11-23 00:00:00 - 2026-11-23 23:59:59", "2026-11-24 02:00:30 - 2026-11-25 02:00:29"},
		{"2020-01-01 00:00:00", "2020-01-02 02:00:30"},
		{"yesterday", "yesterday"},
		{"2020-01-01", "2020-01-01"},
		{"", ""},
	}
	for _, tt := range tests {
		if got := shiftDates(tt.in, shift, loc); got != tt.want {
			t.Errorf("shiftDates(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

func TestNormalizer(t *testing.T) {
	n := normalizer{executor: "http://127.0.0.1:40001/"}
	if got := n.request("id=2&addressList=http%3A%2F%2F127.0.0.1%3A19991%2F%2Chttp%3A%2F%2F127.0.0.1%3A19992%2F"); got != "id=2&addressList=http%3A%2F%2F127.0.0.1%3A40001%2F%2Chttp%3A%2F%2F127.0.0.1%3A19992%2F" {
		t.Errorf("request: %s", got)
	}
	msg := "调度机器：172.17.0.3<br>执行器-地址列表：[http://127.0.0.1:40001/]<br>触发调度：<br>address：http://127.0.0.1:40001/<br>"
	want := "调度机器：192.0.2.2<br>执行器-地址列表：[http://127.0.0.1:19991/]<br>触发调度：<br>address：http://127.0.0.1:19991/<br>"
	if got := n.apply(msg); got != want {
		t.Errorf("apply:\n%s\nwant\n%s", got, want)
	}
}

func TestFakeExecutor(t *testing.T) {
	f := StartFakeExecutor()
	defer f.Close()
	post := func(path, body string) map[string]any {
		t.Helper()
		resp, err := http.Post(strings.TrimSuffix(f.Address(), "/")+path, "application/json", strings.NewReader(body))
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		raw, _ := io.ReadAll(resp.Body)
		var v map[string]any
		if err := json.Unmarshal(raw, &v); err != nil {
			t.Fatalf("%s: %v: %s", path, err, raw)
		}
		return v
	}
	content := func(v map[string]any) map[string]any { return v["content"].(map[string]any) }
	if v := post("/run", `{"jobId":2}`); v["code"] != 200.0 {
		t.Errorf("/run: %v", v)
	}
	if v := post("/kill", `{"jobId":2}`); v["msg"] != "job thread already killed." {
		t.Errorf("/kill: %v", v)
	}
	if c := content(post("/log", `{"logId":1,"fromLineNum":1}`)); c["logContent"] != "line1\nline2 <b>&'\"\n" || c["isEnd"] != true || c["toLineNum"] != 2.0 {
		t.Errorf("/log 1 from 1: %v", c)
	}
	if c := content(post("/log", `{"logId":1,"fromLineNum":3}`)); c["logContent"] != "" || c["isEnd"] != false || c["fromLineNum"] != 3.0 {
		t.Errorf("/log 1 from 3: %v", c)
	}
	if c := content(post("/log", `{"logId":3,"fromLineNum":1}`)); c["isEnd"] != false {
		t.Errorf("/log 3: %v", c)
	}
	if c := content(post("/log", `{"logId":5,"fromLineNum":1}`)); c["logContent"] != "line1\nline2\n" || c["end"] != true || c["isEnd"] != nil {
		t.Errorf("/log 5: %v", c)
	}
	calls := f.TakeCalls()
	if len(calls) != 6 || calls[0].Path != "/run" || string(calls[0].Body) != `{"jobId":2}` {
		t.Errorf("calls: %+v", calls)
	}
	if len(f.TakeCalls()) != 0 {
		t.Error("TakeCalls did not reset")
	}
}
