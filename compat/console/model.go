package console

import (
	"strconv"

	"github.com/xxl-admin-go/xxl-admin-go/compat/schema"
)

// The JSON shapes of the console's entities: Jackson bean properties in the
// Java classes' field order, nulls written, dates as Jackson writes them
// (console.md §1.4).

type groupJSON struct {
	ID           int      `json:"id"`
	AppName      string   `json:"appname"`
	Title        string   `json:"title"`
	AddressType  int      `json:"addressType"`
	AddressList  *string  `json:"addressList"`
	UpdateTime   *string  `json:"updateTime"`
	RegistryList []string `json:"registryList"`
}

func toGroupJSON(g schema.Group) groupJSON {
	return groupJSON{ID: g.ID, AppName: g.AppName, Title: g.Title, AddressType: g.AddressType,
		AddressList: g.AddressList, UpdateTime: jacksonTime(g.UpdateTime), RegistryList: registryList(g.AddressList)}
}

type jobJSON struct {
	ID                     int     `json:"id"`
	JobGroup               int     `json:"jobGroup"`
	JobDesc                string  `json:"jobDesc"`
	AddTime                *string `json:"addTime"`
	UpdateTime             *string `json:"updateTime"`
	Author                 *string `json:"author"`
	AlarmEmail             *string `json:"alarmEmail"`
	ScheduleType           string  `json:"scheduleType"`
	ScheduleConf           *string `json:"scheduleConf"`
	MisfireStrategy        string  `json:"misfireStrategy"`
	ExecutorRouteStrategy  *string `json:"executorRouteStrategy"`
	ExecutorHandler        *string `json:"executorHandler"`
	ExecutorParam          *string `json:"executorParam"`
	ExecutorBlockStrategy  *string `json:"executorBlockStrategy"`
	ExecutorTimeout        int     `json:"executorTimeout"`
	ExecutorFailRetryCount int     `json:"executorFailRetryCount"`
	GlueType               string  `json:"glueType"`
	GlueSource             *string `json:"glueSource"`
	GlueRemark             *string `json:"glueRemark"`
	GlueUpdatetime         *string `json:"glueUpdatetime"`
	ChildJobID             *string `json:"childJobId"`
	TriggerStatus          int     `json:"triggerStatus"`
	TriggerLastTime        int64   `json:"triggerLastTime"`
	TriggerNextTime        int64   `json:"triggerNextTime"`
	// ScheduleTimezone is the job's own time zone (ours: zone.go), written
	// only for a job that has one, so every other job reads as Java's.
	ScheduleTimezone *string `json:"scheduleTimezone,omitempty"`
}

func toJobJSON(j schema.JobInfo) jobJSON {
	return jobJSON{ID: j.ID, JobGroup: j.JobGroup, JobDesc: j.JobDesc, AddTime: jacksonTime(j.AddTime),
		UpdateTime: jacksonTime(j.UpdateTime), Author: j.Author, AlarmEmail: j.AlarmEmail, ScheduleType: j.ScheduleType,
		ScheduleConf: j.ScheduleConf, MisfireStrategy: j.MisfireStrategy, ExecutorRouteStrategy: j.ExecutorRouteStrategy,
		ExecutorHandler: j.ExecutorHandler, ExecutorParam: j.ExecutorParam, ExecutorBlockStrategy: j.ExecutorBlockStrategy,
		ExecutorTimeout: j.ExecutorTimeout, ExecutorFailRetryCount: j.ExecutorFailRetryCount, GlueType: j.GlueType,
		GlueSource: j.GlueSource, GlueRemark: j.GlueRemark, GlueUpdatetime: jacksonTime(j.GlueUpdatetime),
		ChildJobID: j.ChildJobID, TriggerStatus: j.TriggerStatus, TriggerLastTime: j.TriggerLastTime,
		TriggerNextTime: j.TriggerNextTime, ScheduleTimezone: j.ScheduleTimezone}
}

func toJobsJSON(js []schema.JobInfo) []jobJSON {
	out := make([]jobJSON, 0, len(js))
	for _, j := range js {
		out = append(out, toJobJSON(j))
	}
	return out
}

type logJSON struct {
	ID                     int64   `json:"id"`
	JobGroup               int     `json:"jobGroup"`
	JobID                  int     `json:"jobId"`
	ExecutorAddress        *string `json:"executorAddress"`
	ExecutorHandler        *string `json:"executorHandler"`
	ExecutorParam          *string `json:"executorParam"`
	ExecutorShardingParam  *string `json:"executorShardingParam"`
	ExecutorFailRetryCount int     `json:"executorFailRetryCount"`
	TriggerTime            *string `json:"triggerTime"`
	TriggerCode            int     `json:"triggerCode"`
	TriggerMsg             *string `json:"triggerMsg"`
	HandleTime             *string `json:"handleTime"`
	HandleCode             int     `json:"handleCode"`
	HandleMsg              *string `json:"handleMsg"`
	AlarmStatus            int     `json:"alarmStatus"`
}

func toLogsJSON(ls []schema.JobLog) []logJSON {
	out := make([]logJSON, 0, len(ls))
	for _, l := range ls {
		out = append(out, logJSON{ID: l.ID, JobGroup: l.JobGroup, JobID: l.JobID, ExecutorAddress: l.ExecutorAddress,
			ExecutorHandler: l.ExecutorHandler, ExecutorParam: l.ExecutorParam, ExecutorShardingParam: l.ExecutorShardingParam,
			ExecutorFailRetryCount: l.ExecutorFailRetryCount, TriggerTime: jacksonTime(l.TriggerTime), TriggerCode: l.TriggerCode,
			TriggerMsg: l.TriggerMsg, HandleTime: jacksonTime(l.HandleTime), HandleCode: l.HandleCode, HandleMsg: l.HandleMsg,
			AlarmStatus: l.AlarmStatus})
	}
	return out
}

type userJSON struct {
	ID         int     `json:"id"`
	Username   string  `json:"username"`
	Password   *string `json:"password"` // always null in lists
	Role       int     `json:"role"`
	Permission *string `json:"permission"`
}

func itoa(n int) string { return strconv.Itoa(n) }
