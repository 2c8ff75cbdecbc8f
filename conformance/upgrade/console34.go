package upgrade

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/cookiejar"
	"net/url"
	"strings"
)

// loginCookie is the cookie of a 3.x login (xxl-sso.token.key).
const loginCookie = "xxl_job_login_token"

// console34 drives a 3.x console (Response envelope, token cookie).
type console34 struct {
	base   string
	client *http.Client
}

// response is 3.4.2's Response envelope.
type response struct {
	Code int             `json:"code"`
	Msg  *string         `json:"msg"`
	Data json.RawMessage `json:"data"`
}

func (r response) msg() string {
	if r.Msg == nil {
		return ""
	}
	return *r.Msg
}

// login34 posts /auth/doLogin; the console keeps the cookie it sets.
func login34(base, user, password string) (*console34, response, error) {
	jar, err := cookiejar.New(nil)
	if err != nil {
		return nil, response{}, err
	}
	c := &console34{base: base, client: &http.Client{Jar: jar}}
	r, err := c.post("/auth/doLogin", url.Values{"userName": {user}, "password": {password}})
	return c, r, err
}

// loggedIn tells whether the login cookie was set.
func (c *console34) loggedIn() bool {
	u, _ := url.Parse(c.base)
	for _, ck := range c.client.Jar.Cookies(u) {
		if ck.Name == loginCookie && ck.Value != "" {
			return true
		}
	}
	return false
}

// trigger runs a job once (/jobinfo/trigger) with param.
func (c *console34) trigger(id int, param string) error {
	r, err := c.post("/jobinfo/trigger", url.Values{"id": {fmt.Sprint(id)}, "executorParam": {param}, "addressList": {""}})
	if err == nil && r.Code != 200 {
		err = fmt.Errorf("jobinfo/trigger: %d %s", r.Code, r.msg())
	}
	return err
}

// logTotal is the log list's total for a job (/joblog/pageList, all
// statuses, no time filter).
func (c *console34) logTotal(group, job int) (int, error) {
	r, err := c.post("/joblog/pageList", url.Values{"offset": {"0"}, "pagesize": {"1"}, "jobGroup": {fmt.Sprint(group)},
		"jobId": {fmt.Sprint(job)}, "logStatus": {"-1"}, "filterTime": {""}})
	if err != nil {
		return 0, err
	}
	var page struct {
		Total int `json:"total"`
	}
	if r.Code != 200 || json.Unmarshal(r.Data, &page) != nil {
		return 0, fmt.Errorf("joblog/pageList: %d %s %s", r.Code, r.msg(), r.Data)
	}
	return page.Total, nil
}

func (c *console34) post(path string, form url.Values) (response, error) {
	var r response
	resp, err := c.client.Post(c.base+path, "application/x-www-form-urlencoded; charset=UTF-8", strings.NewReader(form.Encode()))
	if err != nil {
		return r, fmt.Errorf("POST %s: %w", path, err)
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	if err != nil {
		return r, fmt.Errorf("POST %s: %w", path, err)
	}
	if err := json.Unmarshal(body, &r); err != nil {
		return r, fmt.Errorf("POST %s: %d %q is no Response: %w", path, resp.StatusCode, body, err)
	}
	return r, nil
}
