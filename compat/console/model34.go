package console

import (
	"time"

	"github.com/xxl-admin-go/xxl-admin-go/compat/schema"
)

// The JSON shapes of the 3.4.2 console's entities. Members are sorted when
// written (sortedJSON), so only names and values matter here.
//
// Dates: a java.util.Date property of XxlJobInfo and XxlJobGroup is written
// by Jackson with spring.jackson.date-format=yyyy-MM-dd HH:mm:ss in
// Jackson's own zone, UTC — not the admin's (answer of the 3.4.2 jar
// under TZ=Asia/Shanghai: add_time 2026-11-27 06:15:18 in the database is
// "addTime":"2026-11-26 22:15:18"). The log list's times are strings made
// by the controller (XxlJobLogDTO, DateTool) in the admin's zone.

// jacksonTime34 is a Date as the 3.4.2 admin's Jackson writes it.
func jacksonTime34(t *time.Time) *string {
	if t == nil {
		return nil
	}
	s := t.UTC().Format(time.DateTime)
	return &s
}

// toJobJSON34 is XxlJobInfo.
func toJobJSON34(j schema.JobInfo) jobJSON {
	out := toJobJSON(j)
	out.AddTime, out.UpdateTime, out.GlueUpdatetime = jacksonTime34(j.AddTime), jacksonTime34(j.UpdateTime),
		jacksonTime34(j.GlueUpdatetime)
	return out
}

// toGroupJSON34 is XxlJobGroup with its derived registryList: the address
// list split on ",", or null when blank.
func toGroupJSON34(g schema.Group) groupJSON {
	out := toGroupJSON(g)
	out.UpdateTime = jacksonTime34(g.UpdateTime)
	return out
}

// logJSON34 is XxlJobLogDTO: XxlJobLog with its two times as strings.
func (c *Console) toLogJSON34(l schema.JobLog) logJSON {
	return logJSON{ID: l.ID, JobGroup: l.JobGroup, JobID: l.JobID, ExecutorAddress: l.ExecutorAddress,
		ExecutorHandler: l.ExecutorHandler, ExecutorParam: l.ExecutorParam, ExecutorShardingParam: l.ExecutorShardingParam,
		ExecutorFailRetryCount: l.ExecutorFailRetryCount, TriggerTime: c.dateTime(l.TriggerTime), TriggerCode: l.TriggerCode,
		TriggerMsg: l.TriggerMsg, HandleTime: c.dateTime(l.HandleTime), HandleCode: l.HandleCode, HandleMsg: l.HandleMsg,
		AlarmStatus: l.AlarmStatus}
}

// dateTime is DateTool.formatDateTime: yyyy-MM-dd HH:mm:ss in the admin's
// zone.
func (c *Console) dateTime(t *time.Time) *string {
	if t == nil {
		return nil
	}
	s := t.In(c.cfg.Loc).Format(time.DateTime)
	return &s
}

// userJSON34 is XxlJobUser as the user list answers it. The 3.4.2 jar
// clears the password but sends every user's login token; the token is the
// whole secret of a login (a session cookie is base64 of the user id and
// it), so it is null here too: a list in a browser's memory, cache or
// extension must not carry every user's session.
type userJSON34 struct {
	ID         int     `json:"id"`
	Password   *string `json:"password"`
	Permission *string `json:"permission"`
	Role       int     `json:"role"`
	Token      *string `json:"token"`
	Username   string  `json:"username"`
}
