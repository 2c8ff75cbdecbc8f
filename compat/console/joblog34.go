package console

import (
	"errors"
	"strings"
	"time"

	"github.com/xxl-admin-go/xxl-admin-go/compat/schema"
	"github.com/xxl-admin-go/xxl-admin-go/core/jobs"
)

// The JSON endpoints of the 3.4.2 JobLogController. Where 3.4.2 differs
// from 2.4.2: pageList checks the group (a normal user sees only its
// groups' logs, and "all groups" is for admins), filters by group and job
// together, orders by id and writes the times as strings in the admin's
// zone; an unparsable filterTime is an exception; logDetailCat checks the
// log's group (3.2.0's fix) and keeps <br>, <b> and </b> unescaped in the
// text; logKill checks the job's group after its other checks.

func (c *Console) joblogPageList34(x *exchange) error {
	var p struct{ offset, pagesize, jobGroup, jobID, logStatus int }
	var err error
	if p.offset, err = x.form.intOr("offset", 0); err != nil {
		return err
	}
	if p.pagesize, err = x.form.intOr("pagesize", 10); err != nil {
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
	filterTime, err := x.form.reqString("filterTime")
	if err != nil {
		return err
	}
	if err := c.checkGroup34(x.user, p.jobGroup); err != nil {
		return err
	}
	f := schema.LogFilter{JobGroup: p.jobGroup, JobID: p.jobID, LogStatus: p.logStatus, GroupWithJob: true, NewestID: true}
	if f.From, f.To, err = c.filterTime34(filterTime); err != nil {
		return err
	}
	list, total, err := c.store.LogPage(x.ctx, p.offset, p.pagesize, f, c.cfg.ListBounds)
	if err != nil {
		return err
	}
	rows := make([]logJSON, 0, len(list))
	for _, l := range list {
		rows = append(rows, c.toLogJSON34(l))
	}
	okPage34Total(x.w, rows, total)
	return nil
}

// filterTime34 reads "<start> - <end>" as 3.4.2 does: anything but two
// parts (String.split, trailing empty parts dropped) is no range; a part
// that does not parse is the exception "parse error." (answer of the
// 3.4.2 jar: {"code":500,"msg":"java.lang.RuntimeException: parse error."}).
func (c *Console) filterTime34(s string) (from, to *time.Time, err error) {
	if javaTrim(s) == "" {
		return nil, nil, nil
	}
	parts := strings.Split(s, " - ")
	for len(parts) > 0 && parts[len(parts)-1] == "" {
		parts = parts[:len(parts)-1]
	}
	if len(parts) != 2 {
		return nil, nil, nil
	}
	a, okA := lenientDateTime(parts[0], c.cfg.Loc)
	b, okB := lenientDateTime(parts[1], c.cfg.Loc)
	if !okA || !okB {
		return nil, nil, runtimeException("parse error.")
	}
	return &a, &b, nil
}

// lenientDateTime parses "yyyy-MM-dd HH:mm:ss" as a lenient
// SimpleDateFormat does: spaces before a number are skipped, a number has
// any count of digits, values out of range roll over (month 13 is January
// of the next year), and text after the seconds is ignored.
func lenientDateTime(s string, loc *time.Location) (time.Time, bool) {
	var v [6]int
	seps := "-- ::"
	i := 0
	for field := range v {
		if field > 0 {
			if sep := seps[field-1]; sep != ' ' {
				if i >= len(s) || s[i] != sep {
					return time.Time{}, false
				}
				i++
			}
		}
		for i < len(s) && (s[i] == ' ' || s[i] == '\t') {
			i++
		}
		start := i
		for i < len(s) && s[i] >= '0' && s[i] <= '9' && i-start < 9 {
			v[field] = v[field]*10 + int(s[i]-'0')
			i++
		}
		if i == start {
			return time.Time{}, false
		}
	}
	return time.Date(v[0], time.Month(v[1]), v[2], v[3], v[4], v[5], 0, loc), true
}

// joblogDetailCat34 relays the executor's rolling log. Its refusals are
// Response.ofFail with the message only — also the group check, whose
// exception 3.4.2 catches ("权限拦截[username=…]", no class name).
func (c *Console) joblogDetailCat34(x *exchange) error {
	logID, err := x.form.int64Req("logId")
	if err != nil {
		return err
	}
	from, err := x.form.intReq("fromLineNum")
	if err != nil {
		return err
	}
	res, err := c.logs.Cat(x.ctx, logID, from, mayUse34Of(x.user))
	var refusal *jobs.Refusal
	switch {
	case errors.Is(err, jobs.ErrPermission):
		fail34(x.w, c.permissionText(x.user))
		return nil
	case errors.As(err, &refusal):
		// An unknown log, or one whose trigger failed (3.4.2 answers a
		// NullPointerException's text there).
		fail34(x.w, refusal.Msg)
		return nil
	case err != nil:
		return err
	}
	var data any
	if res.Content != nil {
		res.Content.LogContent = filterLog34(res.Content.LogContent)
		data = res.Content
	}
	respond34(x.w, res.Code, res.Msg, data)
	return nil
}

// filterLog34 is 3.4.2's "fix xss" of a log text: HTML-escaped (& < > " '
// as Spring's HtmlUtils writes them) except the tags <br>, <b> and </b>,
// which the executor's own lines use.
func filterLog34(s string) string {
	if javaTrim(s) == "" {
		return s
	}
	keep := []struct{ tag, mark string }{
		{"<br>", "###TAG_BR###"}, {"<b>", "###TAG_BOLD###"}, {"</b>", "###TAG_BOLD_END###"}}
	for _, k := range keep {
		s = strings.ReplaceAll(s, k.tag, k.mark)
	}
	s = escapeLog(s)
	for _, k := range keep {
		s = strings.ReplaceAll(s, k.mark, k.tag)
	}
	return s
}

// joblogKill34 asks the log's executor to kill its job. Checks in 3.4.2's
// order: the job, the trigger result, then the job's group (the
// exception); the executor's refusal is Response.ofFail with its message,
// success carries it as data.
func (c *Console) joblogKill34(x *exchange) error {
	id, err := x.form.int64Req("id")
	if err != nil {
		return err
	}
	l, err := c.store.LogLoad(x.ctx, id)
	if isNotFound(err) {
		// 3.4.2 fails with a NullPointerException here.
		return &cleanFailure{msg: c.text("joblog_logid_invalid")}
	}
	if err != nil {
		return err
	}
	j, err := c.store.JobLoad(x.ctx, l.JobID)
	if isNotFound(err) {
		fail34(x.w, c.text("jobinfo_glue_jobid_invalid"))
		return nil
	}
	if err != nil {
		return err
	}
	if l.TriggerCode != 200 {
		fail34(x.w, c.text("joblog_kill_log_limit"))
		return nil
	}
	if err := c.checkGroup34(x.user, j.JobGroup); err != nil {
		return err
	}
	msg, err := c.logs.Kill(x.ctx, id, mayUse34Of(x.user), x.user.Username)
	var refused *jobs.ExecutorError
	if errors.As(err, &refused) {
		respond34(x.w, 500, refused.Msg, nil)
		return nil
	}
	if err != nil {
		return err
	}
	ok34(x.w, msg)
	return nil
}

func (c *Console) joblogClear34(x *exchange) error {
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
	if err := c.checkGroup34(x.user, group); err != nil {
		return err
	}
	rule, known := clearTypes[typ]
	if !known {
		fail34(x.w, c.text("joblog_clean_type_invalid"))
		return nil
	}
	if err := c.clearLogs(x, group, jobID, rule); err != nil {
		return err
	}
	ok34(x.w, nil)
	return nil
}
