package triggermsg

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/cookiejar"
	"net/url"
	"strings"
	"testing"
)

// console signs in to the 3.4.2 console (LoginController: POST
// /auth/doLogin userName, password, ifRemember; cookie
// xxl_job_login_token) and posts its forms.
type console struct {
	base   string
	client *http.Client
}

func login(t *testing.T, base string) *console {
	t.Helper()
	jar, err := cookiejar.New(nil)
	if err != nil {
		t.Fatal(err)
	}
	c := &console{base: base, client: &http.Client{Jar: jar}}
	c.post(t, "/auth/doLogin", url.Values{"userName": {"admin"}, "password": {"123456"}, "ifRemember": {"on"}})
	u, _ := url.Parse(base)
	for _, ck := range jar.Cookies(u) {
		if ck.Name == "xxl_job_login_token" {
			return c
		}
	}
	t.Fatal("no xxl_job_login_token cookie after /auth/doLogin")
	return nil
}

// trigger is "run once" (JobInfoController.triggerJob 3.4.2: id,
// executorParam, addressList).
func (c *console) trigger(t *testing.T, id int, param string) {
	t.Helper()
	c.post(t, "/jobinfo/trigger", url.Values{"id": {fmt.Sprint(id)}, "executorParam": {param}, "addressList": {""}})
}

// post sends a form and requires 3.4.2's success envelope.
func (c *console) post(t *testing.T, path string, form url.Values) {
	t.Helper()
	resp, err := c.client.PostForm(c.base+path, form)
	if err != nil {
		t.Fatalf("POST %s: %v", path, err)
	}
	defer func() { _ = resp.Body.Close() }()
	body, _ := io.ReadAll(resp.Body)
	var r struct {
		Code int    `json:"code"`
		Msg  string `json:"msg"`
	}
	if err := json.Unmarshal(body, &r); err != nil || r.Code != 200 {
		t.Fatalf("POST %s: HTTP %d %s", path, resp.StatusCode, body)
	}
}

// callback reports a finished run to the jar's executor API
// (/api/callback, executor-protocol.md §2.5).
func callback(t *testing.T, base string, logID int64, code int, msg string) {
	t.Helper()
	body := fmt.Sprintf(`[{"logId":%d,"logDateTim":0,"handleCode":%d,"handleMsg":%q}]`, logID, code, msg)
	req, _ := http.NewRequest(http.MethodPost, base+"/api/callback", strings.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("XXL-JOB-ACCESS-TOKEN", "default_token")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = resp.Body.Close() }()
	answer, _ := io.ReadAll(resp.Body)
	if resp.StatusCode != 200 || !strings.Contains(string(answer), `"code":200`) {
		t.Fatalf("callback: HTTP %d %s", resp.StatusCode, answer)
	}
}

// executor answers /run (and the probes) with a fixed body or status.
type executor struct {
	srv *http.Server
	url string
}

func newExecutor(t *testing.T, status int, body string) *executor {
	t.Helper()
	l, err := netListen()
	if err != nil {
		t.Fatal(err)
	}
	e := &executor{url: "http://" + l.Addr().String() + "/"}
	e.srv = &http.Server{Handler: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_, _ = io.Copy(io.Discard, r.Body)
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(status)
		_, _ = io.WriteString(w, body)
	})}
	go func() { _ = e.srv.Serve(l) }()
	t.Cleanup(func() { _ = e.srv.Close() })
	return e
}
