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
// answered with ReturnT JSON (console.md), or on a 3.4.2 console
// (Login342) the 3.4.2 endpoints answered with its Response envelope (the
// 3.4.2 recordings' README). Both admins serve the same endpoints.
type Console struct {
	base   string // admin URL with the context path
	client *http.Client
	gen3   bool // the 3.4.2 endpoints and envelope
}

// Login signs in to a 2.4.2 console (/login) and keeps the session cookie.
func Login(base, user, password string) (*Console, error) {
	return login(base, false, "/login", url.Values{"userName": {user}, "password": {password}})
}

// Login342 signs in to a 3.4.2 console (/auth/doLogin; the cookie
// xxl_job_login_token) and keeps the session cookie.
func Login342(base, user, password string) (*Console, error) {
	return login(base, true, "/auth/doLogin", url.Values{"userName": {user}, "password": {password}, "ifRemember": {"off"}})
}

func login(base string, gen3 bool, path string, form url.Values) (*Console, error) {
	jar, err := cookiejar.New(nil)
	if err != nil {
		return nil, err
	}
	c := &Console{base: base, client: &http.Client{Jar: jar}, gen3: gen3}
	if _, err := c.post(path, form); err != nil {
		return nil, err
	}
	return c, nil
}

// path is a 2.4.2 endpoint's path on this console: 3.4.2 renamed add and
// save to insert, remove to delete.
func (c *Console) path(p242, p342 string) string {
	if c.gen3 {
		return p342
	}
	return p242
}

// ids is the job id as the endpoint takes it: 3.4.2's start, stop and
// delete take ids[] with exactly one id.
func (c *Console) ids(id int) url.Values {
	if c.gen3 {
		return url.Values{"ids[]": {fmt.Sprint(id)}}
	}
	return url.Values{"id": {fmt.Sprint(id)}}
}

// Job is what the "add job" form sends.
type Job struct {
	Group                       int
	Desc, ScheduleType, Conf    string
	Handler, Param, Route       string
	Misfire, Block, ChildJobIDs string
	Timeout, FailRetry          int
}

// SaveGroup creates a manual executor group (/jobgroup/save; 3.4.2:
// /jobgroup/insert).
func (c *Console) SaveGroup(appName, title, addresses string) error {
	_, err := c.post(c.path("/jobgroup/save", "/jobgroup/insert"), url.Values{"appname": {appName}, "title": {title},
		"addressType": {"1"}, "addressList": {addresses}})
	return err
}

// AddJob creates a job (/jobinfo/add; 3.4.2: /jobinfo/insert) and returns
// its id.
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
	if j.ScheduleType == "FIX_RATE" {
		form.Set("schedule_conf_FIX_RATE", j.Conf)
	}
	content, err := c.post(c.path("/jobinfo/add", "/jobinfo/insert"), form)
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
	_, err := c.post("/jobinfo/start", c.ids(id))
	return err
}

// AddUser creates a console user (/user/add; 3.4.2: /user/insert) with
// role 0 or 1 and the groups it may see (permission, "" for none).
func (c *Console) AddUser(name, password string, role int, permission string) error {
	form := url.Values{"username": {name}, "password": {password}, "role": {fmt.Sprint(role)}}
	if permission != "" {
		form["permission"] = strings.Split(permission, ",")
	}
	_, err := c.post(c.path("/user/add", "/user/insert"), form)
	return err
}

// LogIDs lists the ids of a job's log rows as the log page shows them
// (/joblog/pageList, every status and time, one page of up to 1,000).
func (c *Console) LogIDs(group, job int) ([]int64, error) {
	form := url.Values{"jobGroup": {fmt.Sprint(group)}, "jobId": {fmt.Sprint(job)}, "logStatus": {"-1"}, "filterTime": {""}}
	var rows []struct {
		ID int64 `json:"id"`
	}
	if c.gen3 {
		form.Set("offset", "0")
		form.Set("pagesize", "1000")
		content, err := c.post("/joblog/pageList", form)
		if err != nil {
			return nil, err
		}
		var page struct {
			Data json.RawMessage `json:"data"`
		}
		if err := json.Unmarshal([]byte(content), &page); err != nil {
			return nil, fmt.Errorf("joblog/pageList: %q: %w", content, err)
		}
		if err := json.Unmarshal(page.Data, &rows); err != nil {
			return nil, fmt.Errorf("joblog/pageList: %q: %w", content, err)
		}
	} else {
		// 2.4.2 answers DataTables' map, not a ReturnT.
		form.Set("start", "0")
		form.Set("length", "1000")
		body, _, err := c.send("/joblog/pageList", form)
		if err != nil {
			return nil, err
		}
		var page struct {
			Data json.RawMessage `json:"data"`
		}
		if err := json.Unmarshal(body, &page); err != nil {
			return nil, fmt.Errorf("joblog/pageList: %q: %w", body, err)
		}
		if err := json.Unmarshal(page.Data, &rows); err != nil {
			return nil, fmt.Errorf("joblog/pageList: %q: %w", body, err)
		}
	}
	out := make([]int64, len(rows))
	for i, r := range rows {
		out[i] = r.ID
	}
	return out, nil
}

// send posts a form and returns the answer's body and status.
func (c *Console) send(path string, form url.Values) ([]byte, int, error) {
	resp, err := c.client.Post(c.base+path, "application/x-www-form-urlencoded; charset=UTF-8", strings.NewReader(form.Encode()))
	if err != nil {
		return nil, 0, fmt.Errorf("POST %s: %w", path, err)
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	if err != nil {
		return nil, 0, fmt.Errorf("POST %s: %w", path, err)
	}
	return body, resp.StatusCode, nil
}

// post sends a form and returns the ReturnT content (3.4.2: the
// Response's data) as text; a code other than 200 is an error.
func (c *Console) post(path string, form url.Values) (string, error) {
	body, status, err := c.send(path, form)
	if err != nil {
		return "", err
	}
	var ret struct {
		Code    int             `json:"code"`
		Msg     *string         `json:"msg"`
		Content json.RawMessage `json:"content"`
		Data    json.RawMessage `json:"data"`
	}
	if err := json.Unmarshal(body, &ret); err != nil {
		return "", fmt.Errorf("POST %s: %d %q is no ReturnT: %w", path, status, body, err)
	}
	if ret.Code != 200 {
		return "", fmt.Errorf("POST %s: %s", path, body)
	}
	content := ret.Content
	if c.gen3 {
		content = ret.Data
	}
	var s string
	if json.Unmarshal(content, &s) == nil {
		return s, nil
	}
	return string(content), nil
}
