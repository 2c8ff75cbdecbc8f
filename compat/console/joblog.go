package console

import (
	"errors"
	"html"
	"strings"
	"time"

	"github.com/xxl-admin-go/xxl-admin-go/compat/schema"
	"github.com/xxl-admin-go/xxl-admin-go/core/jobs"
)

// JobLogController (console.md §6).

func (c *Console) joblogPage(x *exchange) error {
	jobID, err := x.form.intOr("jobId", 0)
	if err != nil {
		return err
	}
	groups, err := c.permittedGroups(x.ctx, x.user)
	if err != nil {
		return err
	}
	if len(groups) == 0 {
		return xxlJobException(c.text("jobgroup_empty"))
	}
	data := JobLogData{Groups: groupOptions(groups)}
	if jobID > 0 {
		j, err := c.store.JobLoad(x.ctx, jobID)
		if isNotFound(err) {
			return runtimeException(c.text("jobinfo_field_id") + c.text("system_unvalid"))
		}
		if err != nil {
			return err
		}
		if err := c.checkGroup(x.user, j.JobGroup); err != nil {
			return err
		}
		data.Job = &JobRef{ID: j.ID, JobGroup: j.JobGroup, JobDesc: j.JobDesc}
	}
	c.render(x, c.page(x, "joblog", data))
	return nil
}

// joblogJobsByGroup lists a group's jobs for the log page's job select.
func (c *Console) joblogJobsByGroup(x *exchange) error {
	group, err := x.form.intReq("jobGroup")
	if err != nil {
		return err
	}
	if group > 0 {
		if err := c.checkGroupTrimmed(x.user, group); err != nil {
			return err
		}
	}
	list, err := c.store.JobsByGroup(x.ctx, group)
	if err != nil {
		return err
	}
	ok(x.w, toJobsJSON(list))
	return nil
}

func (c *Console) joblogPageList(x *exchange) error {
	var p struct{ start, length, jobGroup, jobID, logStatus int }
	var err error
	if p.start, err = x.form.intOr("start", 0); err != nil {
		return err
	}
	if p.length, err = x.form.intOr("length", 10); err != nil {
		return err
	}
	for _, f := range []struct {
		name string
		dst  *int
	}{{"jobGroup", &p.jobGroup}, {"jobId", &p.jobID}, {"logStatus", &p.logStatus}} {
		if *f.dst, err = x.form.intReq(f.name); err != nil {
			return err
		}
	}
	if err := c.checkGroup(x.user, p.jobGroup); err != nil {
		return err
	}
	f := schema.LogFilter{JobGroup: p.jobGroup, JobID: p.jobID, LogStatus: p.logStatus, JobGroups: accessOf(x.user).GroupIDs()}
	f.From, f.To = c.filterTime(x.form.text("filterTime"))
	list, total, err := c.store.LogPage(x.ctx, p.start, p.length, f, c.cfg.ListBounds)
	if err != nil {
		return err
	}
	dataTableTotal(x.w, toLogsJSON(list), total)
	return nil
}

// filterTime reads "<start> - <end>" (the date-range picker's text); a side
// that does not parse is ignored, as is anything not in two parts.
func (c *Console) filterTime(s string) (from, to *time.Time) {
	parts := strings.Split(s, " - ")
	if len(parts) != 2 {
		return nil, nil
	}
	parse := func(v string) *time.Time {
		t, err := time.ParseInLocation(time.DateTime, v, c.cfg.Loc)
		if err != nil {
			return nil
		}
		return &t
	}
	return parse(parts[0]), parse(parts[1])
}

// loadLogChecked loads a log the user may read: a normal user only reads
// logs of its groups (Java checks nothing here).
func (c *Console) loadLogChecked(x *exchange, id int64) (schema.JobLog, error) {
	l, err := c.store.LogLoad(x.ctx, id)
	if err != nil {
		return l, err
	}
	return l, c.checkGroupTrimmed(x.user, l.JobGroup)
}

func (c *Console) joblogDetailPage(x *exchange) error {
	id, err := x.form.intReq("id")
	if err != nil {
		return err
	}
	l, err := c.loadLogChecked(x, int64(id))
	if isNotFound(err) {
		return runtimeException(c.text("joblog_logid_unvalid"))
	}
	if err != nil {
		return err
	}
	c.render(x, c.page(x, "joblog_detail", LogDetailData{LogID: l.ID, TriggerCode: l.TriggerCode, HandleCode: l.HandleCode}))
	return nil
}

// joblogDetailCat relays the executor's rolling log (console.md §6) through
// the shared log service: the text HTML-escaped here, and "end" forced once
// a finished log has no new lines.
func (c *Console) joblogDetailCat(x *exchange) error {
	logID, err := x.form.int64Req("logId")
	if err != nil {
		return err
	}
	from, err := x.form.intReq("fromLineNum")
	if err != nil {
		return err
	}
	res, err := c.logs.Cat(x.ctx, logID, from, accessOf(x.user).MayUse())
	if err != nil {
		return err // refusals answer {500, msg}; a foreign group the permission exception
	}
	if res.Content != nil {
		res.Content.LogContent = escapeLog(res.Content.LogContent)
	}
	writeBody(x.w, 200, typeJSON, jackson(res))
	return nil
}

// escapeLog is Java's HtmlUtils-free escaping of the log text: & < > " '
// and nothing else (recording joblog_logDetailCat: &#39;).
func escapeLog(s string) string {
	if s == "" {
		return s
	}
	return strings.ReplaceAll(html.EscapeString(s), "&#34;", "&quot;")
}

// joblogKill asks the log's executor to kill the job and records the kill,
// through the shared log service.
func (c *Console) joblogKill(x *exchange) error {
	id, err := x.form.intReq("id")
	if err != nil {
		return err
	}
	msg, err := c.logs.Kill(x.ctx, int64(id), accessOf(x.user).MayUse(), x.user.Username)
	var refused *jobs.ExecutorError
	switch {
	case errors.Is(err, jobs.ErrLogNotFound):
		// Java fails with an exception here: the resolver's content type.
		return &cleanFailure{msg: c.text("joblog_logid_unvalid")}
	case errors.As(err, &refused):
		writeBody(x.w, 200, typeJSON, jackson(returnT{Code: 500, Msg: refused.Msg}))
		return nil
	case err != nil:
		return err
	}
	ok(x.w, msg)
	return nil
}

// clearRule is what a clear-log type keeps.
type clearRule struct{ months, keep int }

// clearTypes maps the clear-log type to what it keeps: months back, or the
// newest N rows (console.md §6).
var clearTypes = map[int]clearRule{
	1: {months: 1}, 2: {months: 3}, 3: {months: 6}, 4: {months: 12},
	5: {keep: 1000}, 6: {keep: 10000}, 7: {keep: 30000}, 8: {keep: 100000}, 9: {},
}

func (c *Console) joblogClear(x *exchange) error {
	var group, jobID, typ int
	var err error
	for _, f := range []struct {
		name string
		dst  *int
	}{{"jobGroup", &group}, {"jobId", &jobID}, {"type", &typ}} {
		if *f.dst, err = x.form.intReq(f.name); err != nil {
			return err
		}
	}
	if err := c.checkGroup(x.user, group); err != nil {
		return err
	}
	rule, known := clearTypes[typ]
	if !known {
		fail(x.w, c.text("joblog_clean_type_unvalid"))
		return nil
	}
	if err := c.clearLogs(x, group, jobID, rule); err != nil {
		return err
	}
	ok(x.w, nil)
	return nil
}

// clearLogs deletes a clear-log selection in batches of 1000 ids, as both
// admins do.
func (c *Console) clearLogs(x *exchange, group, jobID int, rule clearRule) error {
	f := schema.ClearFilter{JobGroup: group, JobID: jobID, KeepNewestN: rule.keep}
	if rule.months > 0 {
		before := addMonths(c.now().In(c.cfg.Loc), -rule.months)
		f.Before = &before
	}
	total := int64(0)
	for {
		ids, err := c.store.LogFindClearIDs(x.ctx, f, 1000)
		if err != nil {
			return err
		}
		if len(ids) == 0 {
			c.log.Info().Int("job_group", group).Int("job_id", jobID).Int64("deleted", total).
				Str("username", x.user.Username).Msg("logs cleared from the console")
			return nil
		}
		n, err := c.store.LogClear(x.ctx, ids)
		if err != nil {
			return err
		}
		total += n
	}
}

// addMonths is java.util.Calendar's add(MONTH, n): the day of month is
// kept, or clamped to the target month's last day (Go's AddDate would
// roll March 31 minus one month into March).
func addMonths(t time.Time, n int) time.Time {
	y, m, d := t.Date()
	first := time.Date(y, m+time.Month(n), 1, t.Hour(), t.Minute(), t.Second(), t.Nanosecond(), t.Location())
	last := first.AddDate(0, 1, -1).Day()
	return first.AddDate(0, 0, min(d, last)-1)
}
