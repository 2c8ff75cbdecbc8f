package app_test

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/cookiejar"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/xxl-admin-go/xxl-admin-go/app"
)

// strictJSON checks that line is one JSON object whose objects have no
// repeated key (encoding/json would silently keep the last one).
func strictJSON(line []byte) error {
	dec := json.NewDecoder(bytes.NewReader(line))
	var walk func() error
	walk = func() error {
		tok, err := dec.Token()
		if err != nil {
			return err
		}
		switch tok {
		case json.Delim('{'):
			seen := map[string]bool{}
			for dec.More() {
				k, err := dec.Token()
				if err != nil {
					return err
				}
				key := k.(string)
				if seen[key] {
					return fmt.Errorf("key %q twice", key)
				}
				seen[key] = true
				if err := walk(); err != nil {
					return err
				}
			}
			_, err = dec.Token()
			return err
		case json.Delim('['):
			for dec.More() {
				if err := walk(); err != nil {
					return err
				}
			}
			_, err = dec.Token()
			return err
		}
		return nil
	}
	if err := walk(); err != nil {
		return err
	}
	if _, err := dec.Token(); !errors.Is(err, io.EOF) {
		return fmt.Errorf("more than one value")
	}
	return nil
}

func TestStrictJSONChecker(t *testing.T) {
	for line, ok := range map[string]bool{
		`{"a":1,"b":{"a":2}}`:     true,
		`{"a":1,"a":2}`:           false,
		`{"a":[{"b":1,"b":2}]}`:   false,
		`{"a":1} {"b":2}`:         false,
		`{"level":"info","x":"y"`: false,
	} {
		if err := strictJSON([]byte(line)); (err == nil) != ok {
			t.Errorf("%s: %v", line, err)
		}
	}
}

// Issue 9 #12 (component twice): every log line of a representative run —
// start, executor registration, manual triggers to a live and to a dead
// executor, callbacks (one failing, one unknown), the fail monitor, a
// wrong token, shutdown — is one strict JSON object with unique keys.
func TestLogLinesAreStrictJSON(t *testing.T) {
	executor := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_, _ = io.WriteString(w, `{"code":200}`)
	}))
	t.Cleanup(executor.Close)
	dead := httptest.NewServer(http.NotFoundHandler())
	deadURL := dead.URL + "/"
	dead.Close()

	webhook := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		http.Error(w, "down", http.StatusInternalServerError)
	}))
	t.Cleanup(webhook.Close)
	a := startAdmin(t, app.Options{Tuning: app.Tuning{FailInterval: 50 * time.Millisecond, RegistryInterval: 50 * time.Millisecond}},
		"--xxl.job.accessToken=s3cret-token", "--xxl.job.alarm.webhook.url="+webhook.URL, "--xxl.job.alarm.email.enabled=false")
	api := a.base + "/xxl-job-admin/api/"
	reg := `{"registryGroup":"EXECUTOR","registryKey":"xxl-job-executor-sample","registryValue":"` + executor.URL + `/"}`
	if got := post(t, api+"registry", "s3cret-token", reg); got != success {
		t.Fatalf("registry %s", got)
	}
	post(t, api+"registry", "wrong", reg)

	jar, _ := cookiejar.New(nil)
	console := &http.Client{Jar: jar}
	form := func(path string, v url.Values) string {
		resp, err := console.PostForm(a.base+"/xxl-job-admin"+path, v)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		return string(b)
	}
	if got := form("/login", url.Values{"userName": {"admin"}, "password": {"123456"}}); !strings.Contains(got, `"code":200`) {
		t.Fatalf("login %s", got)
	}
	// One at a time, so the live executor's trigger gets log 1.
	for i, addr := range []string{executor.URL + "/", deadURL} {
		if got := form("/jobinfo/trigger", url.Values{"id": {"1"}, "executorParam": {"x"}, "addressList": {addr}}); !strings.Contains(got, `"code":200`) {
			t.Fatalf("trigger %s", got)
		}
		for deadline := time.Now().Add(10 * time.Second); strings.Count(a.logs.String(), `"message":"trigger finished"`) <= i; time.Sleep(5 * time.Millisecond) {
			if time.Now().After(deadline) {
				t.Fatalf("trigger %d never finished:\n%s", i+1, a.logs.String())
			}
		}
	}
	// The first trigger's log is 1: its run fails in the executor; an
	// unknown log's callback is skipped.
	if got := post(t, api+"callback", "s3cret-token",
		`[{"logId":1,"logDateTim":0,"handleCode":500,"handleMsg":"boom"},{"logId":99999,"logDateTim":0,"handleCode":200}]`); got != success {
		t.Fatalf("callback %s", got)
	}
	// Wait for the fail monitor to alarm both failed logs (the webhook
	// fails, which is logged).
	for deadline := time.Now().Add(10 * time.Second); strings.Count(a.logs.String(), "job fail alarm send error") < 2; time.Sleep(10 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("the fail monitor never alarmed:\n%s", a.logs.String())
		}
	}
	if err := a.stop(); err != nil {
		t.Fatal(err)
	}
	lines := bytes.Split(bytes.TrimSpace([]byte(a.logs.String())), []byte("\n"))
	components := map[string]bool{}
	for i, line := range lines {
		if err := strictJSON(line); err != nil {
			t.Errorf("line %d: %v: %s", i+1, err, line)
		}
		var l struct {
			Component string `json:"component"`
		}
		_ = json.Unmarshal(line, &l)
		components[l.Component] = true
	}
	for _, c := range []string{"registrar", "trigger", "completer", "alarm"} {
		if !components[c] {
			t.Errorf("no line from %s in the run; components seen %v", c, components)
		}
	}
	t.Logf("%d lines checked", len(lines))
}
