package openapi

import (
	"net/http"
	"time"

	"github.com/xxl-admin-go/xxl-admin-go/compat/schema"
	"github.com/xxl-admin-go/xxl-admin-go/core/jobs"
)

// logJSON is a log row (one trigger and its result) as the API writes it,
// with its status spelt out.
type logJSON struct {
	ID                     int64   `json:"id"`
	JobGroup               int     `json:"jobGroup"`
	JobID                  int     `json:"jobId"`
	Status                 string  `json:"status"`
	ExecutorAddress        string  `json:"executorAddress"`
	ExecutorHandler        string  `json:"executorHandler"`
	ExecutorParam          string  `json:"executorParam"`
	ExecutorShardingParam  string  `json:"executorShardingParam"`
	ExecutorFailRetryCount int     `json:"executorFailRetryCount"`
	TriggerTime            *string `json:"triggerTime"`
	TriggerCode            int     `json:"triggerCode"`
	TriggerMsg             string  `json:"triggerMsg"`
	HandleTime             *string `json:"handleTime"`
	HandleCode             int     `json:"handleCode"`
	HandleMsg              string  `json:"handleMsg"`
	AlarmStatus            int     `json:"alarmStatus"`
}

// logStatus names a row's state as the console's status filter reads the
// codes (schema.md §4.3): triggering until the trigger is answered.
func logStatus(l schema.JobLog) string {
	switch {
	case l.HandleCode == 200:
		return "success"
	case l.TriggerCode != 0 && l.TriggerCode != 200, l.HandleCode != 0:
		return "failed"
	case l.TriggerCode == 200:
		return "running"
	}
	return "triggering"
}

func (a *API) logRow(l schema.JobLog) logJSON {
	return logJSON{ID: l.ID, JobGroup: l.JobGroup, JobID: l.JobID, Status: logStatus(l),
		ExecutorAddress: deref(l.ExecutorAddress), ExecutorHandler: deref(l.ExecutorHandler),
		ExecutorParam: deref(l.ExecutorParam), ExecutorShardingParam: deref(l.ExecutorShardingParam),
		ExecutorFailRetryCount: l.ExecutorFailRetryCount, TriggerTime: a.rfc3339(l.TriggerTime), TriggerCode: l.TriggerCode,
		TriggerMsg: deref(l.TriggerMsg), HandleTime: a.rfc3339(l.HandleTime), HandleCode: l.HandleCode,
		HandleMsg: deref(l.HandleMsg), AlarmStatus: l.AlarmStatus}
}

// statusFilters are the console's logStatus values by name.
var statusFilters = map[string]int{"": -1, "success": 1, "failed": 2, "running": 3}

// listLogs lists logs of the groups the user may use, newest trigger
// first, with the console's filters.
func (a *API) listLogs(c *call) error {
	w, err := c.window()
	if err != nil {
		return err
	}
	q := c.r.URL.Query()
	f := schema.LogFilter{JobGroups: c.access.GroupIDs()}
	if f.JobGroup, err = c.queryInt("jobGroup", 0); err != nil {
		return err
	}
	if f.JobID, err = c.queryInt("jobId", 0); err != nil {
		return err
	}
	status, known := statusFilters[q.Get("status")]
	if !known {
		return invalid("status: use success, failed or running")
	}
	f.LogStatus = status
	for _, p := range []struct {
		name string
		dst  **time.Time
	}{{"from", &f.From}, {"to", &f.To}} {
		if v := q.Get(p.name); v != "" {
			t, err := time.Parse(time.RFC3339, v)
			if err != nil {
				return invalid("%s: %q is not an RFC 3339 time", p.name, v)
			}
			*p.dst = &t
		}
	}
	if f.JobGroup > 0 {
		if err := c.mayUse(f.JobGroup); err != nil {
			return err
		}
	}
	list, total, err := a.cfg.Store.LogPage(c.ctx, w.Offset, w.Limit, f, a.cfg.ListBounds)
	if err != nil {
		return err
	}
	out := make([]logJSON, 0, len(list))
	for _, l := range list {
		out = append(out, a.logRow(l))
	}
	w.setTotal(total)
	writeData(c.w, http.StatusOK, out, &w)
	return nil
}

func (a *API) logID(c *call) (int64, error) {
	id, err := c.pathID()
	return int64(id), err
}

func (a *API) getLog(c *call) error {
	id, err := a.logID(c)
	if err != nil {
		return err
	}
	l, err := a.cfg.Logs.Load(c.ctx, id, c.access.MayUse())
	if err != nil {
		return err
	}
	writeData(c.w, http.StatusOK, a.logRow(l), nil)
	return nil
}

// logText is a page of an execution's output.
type logText struct {
	FromLine int    `json:"fromLine"`
	ToLine   int    `json:"toLine"`
	Content  string `json:"content"`
	End      bool   `json:"end"` // nothing more will come
}

// getLogText reads the execution's output from its executor, from line
// fromLine (default 1) on; the text is raw, not HTML-escaped.
func (a *API) getLogText(c *call) error {
	id, err := a.logID(c)
	if err != nil {
		return err
	}
	from, err := c.queryInt("fromLine", 1)
	if err != nil {
		return err
	}
	if from < 1 {
		return invalid("fromLine: lines count from 1")
	}
	res, err := a.cfg.Logs.Cat(c.ctx, id, from, c.access.MayUse())
	if err != nil {
		return err
	}
	if !res.OK() || res.Content == nil {
		return &jobs.ExecutorError{Msg: res.Msg}
	}
	writeData(c.w, http.StatusOK, logText{FromLine: res.Content.FromLineNum, ToLine: res.Content.ToLineNum,
		Content: res.Content.LogContent, End: res.Content.End}, nil)
	return nil
}

// killed is the answer to a kill.
type killed struct {
	Message string `json:"message"` // the executor's
}

// killLog asks the executor to kill the log's job and records the kill.
func (a *API) killLog(c *call) error {
	id, err := a.logID(c)
	if err != nil {
		return err
	}
	msg, err := a.cfg.Logs.Kill(c.ctx, id, c.access.MayUse(), c.access.User)
	if err != nil {
		return err
	}
	writeData(c.w, http.StatusOK, killed{Message: deref(msg)}, nil)
	return nil
}
