package javaadmin

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/cookiejar"
	"net/url"
	"strings"
)

// Console drives an admin's web console the way its pages do: form posts
// answered with ReturnT JSON (console.md). Both admins serve the same
// endpoints.
type Console struct {
	base   string // admin URL with the context path
	client *http.Client
}

// Login signs in and keeps the session cookie.
func Login(base, user, password string) (*Console, error) {
	jar, err := cookiejar.New(nil)
	if err != nil {
		return nil, err
	}
	c := &Console{base: base, client: &http.Client{Jar: jar}}
	if _, err := c.post("/login", url.Values{"userName": {user}, "password": {password}}); err != nil {
		return nil, err
	}
	return c, nil
}

// Job is what the "add job" form sends.
type Job struct {
	Group                       int
	Desc, ScheduleType, Conf    string
	Handler, Param, Route       string
	Misfire, Block, ChildJobIDs string
	Timeout, FailRetry          int
}

// SaveGroup creates a manual executor group (/jobgroup/save).
func (c *Console) SaveGroup(appName, title, addresses string) error {
	_, err := c.post("/jobgroup/save", url.Values{"appname": {appName}, "title": {title},
		"addressType": {"1"}, "addressList": {addresses}})
	return err
}

// AddJob creates a job (/jobinfo/add) and returns its id.
func (c *Console) AddJob(j Job) (int, error) {
	form := url.Values{
		"jobGroup": {fmt.Sprint(j.Group)}, "jobDesc": {j.Desc}, "author": {"dropin"}, "alarmEmail": {""},
		"scheduleType": {j.ScheduleType}, "scheduleConf": {j.Conf}, "cronGen_display": {""},
		"schedule_conf_CRON": {""}, "schedule_conf_FIX_RATE": {""}, "schedule_conf_FIX_DELAY": {""},
		"glueType": {"BEAN"}, "executorHandler": {j.Handler}, "executorParam": {j.Param},
		"executorRouteStrategy": {j.Route}, "childJobId": {j.ChildJobIDs}, "misfireStrategy": {j.Misfire},
		"executorBlockStrategy": {j.Block}, "executorTimeout": {fmt.Sprint(j.Timeout)},
		"executorFailRetryCount": {fmt.Sprint(j.FailRetry)}, "glueRemark": {"GLUE代码初始化"}, "glueSource": {""},
	}
	content, err := c.post("/jobinfo/add", form)
	if err != nil {
		return 0, err
	}
	var id int
	if _, err := fmt.Sscan(content, &id); err != nil {
		return 0, fmt.Errorf("jobinfo/add: content %q is no id", content)
	}
	return id, nil
}

// Trigger runs a job once (/jobinfo/trigger), as the console's "run once"
// does: with param as the executor parameter and the group's addresses.
func (c *Console) Trigger(id int, param string) error {
	_, err := c.post("/jobinfo/trigger", url.Values{"id": {fmt.Sprint(id)}, "executorParam": {param}, "addressList": {""}})
	return err
}

// Start switches a job on (/jobinfo/start).
func (c *Console) Start(id int) error {
	_, err := c.post("/jobinfo/start", url.Values{"id": {fmt.Sprint(id)}})
	return err
}

// post sends a form and returns the ReturnT content as text; a code other
// than 200 is an error.
func (c *Console) post(path string, form url.Values) (string, error) {
	resp, err := c.client.Post(c.base+path, "application/x-www-form-urlencoded; charset=UTF-8", strings.NewReader(form.Encode()))
	if err != nil {
		return "", fmt.Errorf("POST %s: %w", path, err)
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	if err != nil {
		return "", fmt.Errorf("POST %s: %w", path, err)
	}
	var ret struct {
		Code    int             `json:"code"`
		Msg     *string         `json:"msg"`
		Content json.RawMessage `json:"content"`
	}
	if err := json.Unmarshal(body, &ret); err != nil {
		return "", fmt.Errorf("POST %s: %d %q is no ReturnT: %w", path, resp.StatusCode, body, err)
	}
	if ret.Code != 200 {
		return "", fmt.Errorf("POST %s: %s", path, body)
	}
	var s string
	if json.Unmarshal(ret.Content, &s) == nil {
		return s, nil
	}
	return string(ret.Content), nil
}
