package openapi

import (
	"errors"
	"net/http"
	"strconv"
	"strings"

	"github.com/xxl-admin-go/xxl-admin-go/compat/schema"
	"github.com/xxl-admin-go/xxl-admin-go/core/jobs"
	"github.com/xxl-admin-go/xxl-admin-go/core/trigger"
)

// jobJSON is a job as the API writes it: the key apart from the
// description, child jobs as ids, trigger state as running and RFC 3339
// times, nullable text as "".
type jobJSON struct {
	ID                     int     `json:"id"`
	Key                    string  `json:"key"`
	JobGroup               int     `json:"jobGroup"`
	AppName                string  `json:"appname"`
	JobDesc                string  `json:"jobDesc"`
	Author                 string  `json:"author"`
	AlarmEmail             string  `json:"alarmEmail"`
	ScheduleType           string  `json:"scheduleType"`
	ScheduleConf           string  `json:"scheduleConf"`
	ScheduleTimezone       string  `json:"scheduleTimezone"` // "" the admin's zone
	MisfireStrategy        string  `json:"misfireStrategy"`
	ExecutorRouteStrategy  string  `json:"executorRouteStrategy"`
	ExecutorHandler        string  `json:"executorHandler"`
	ExecutorParam          string  `json:"executorParam"`
	ExecutorBlockStrategy  string  `json:"executorBlockStrategy"`
	ExecutorTimeout        int     `json:"executorTimeout"`
	ExecutorFailRetryCount int     `json:"executorFailRetryCount"`
	GlueType               string  `json:"glueType"`
	GlueSource             string  `json:"glueSource"`
	GlueRemark             string  `json:"glueRemark"`
	GlueUpdateTime         *string `json:"glueUpdateTime"`
	ChildJobIDs            []int   `json:"childJobIds"`
	Running                bool    `json:"running"`
	LastTriggerTime        *string `json:"lastTriggerTime"`
	NextTriggerTime        *string `json:"nextTriggerTime"`
	AddTime                *string `json:"addTime"`
	UpdateTime             *string `json:"updateTime"`
}

func (a *API) job(j schema.JobInfo, appnames map[int]string) jobJSON {
	desc, key := jobs.SplitKey(j.JobDesc)
	return jobJSON{ID: j.ID, Key: key, JobGroup: j.JobGroup, AppName: appnames[j.JobGroup], JobDesc: desc,
		Author: deref(j.Author), AlarmEmail: deref(j.AlarmEmail), ScheduleType: j.ScheduleType,
		ScheduleConf: deref(j.ScheduleConf), ScheduleTimezone: deref(j.ScheduleTimezone), MisfireStrategy: j.MisfireStrategy,
		ExecutorRouteStrategy: deref(j.ExecutorRouteStrategy), ExecutorHandler: deref(j.ExecutorHandler),
		ExecutorParam: deref(j.ExecutorParam), ExecutorBlockStrategy: deref(j.ExecutorBlockStrategy),
		ExecutorTimeout: j.ExecutorTimeout, ExecutorFailRetryCount: j.ExecutorFailRetryCount, GlueType: j.GlueType,
		GlueSource: deref(j.GlueSource), GlueRemark: deref(j.GlueRemark), GlueUpdateTime: a.rfc3339(j.GlueUpdatetime),
		ChildJobIDs: childIDs(j.ChildJobID), Running: j.TriggerStatus == 1,
		LastTriggerTime: a.epochTime(j.TriggerLastTime), NextTriggerTime: a.epochTime(j.TriggerNextTime),
		AddTime: a.rfc3339(j.AddTime), UpdateTime: a.rfc3339(j.UpdateTime)}
}

func childIDs(p *string) []int {
	out := []int{}
	for _, s := range splitList(p) {
		if n, err := strconv.Atoi(strings.TrimSpace(s)); err == nil {
			out = append(out, n)
		}
	}
	return out
}

// appnames maps group ids to app names, for the jobs' appname.
func (a *API) appnames(c *call) (map[int]string, error) {
	all, err := a.cfg.Store.GroupFindAll(c.ctx)
	if err != nil {
		return nil, err
	}
	m := make(map[int]string, len(all))
	for _, g := range all {
		m[g.ID] = g.AppName
	}
	return m, nil
}

// writeJob answers a stored job.
func (a *API) writeJob(c *call, status int, id int) error {
	j, err := a.cfg.Store.JobLoad(c.ctx, id)
	if err != nil {
		return err
	}
	names, err := a.appnames(c)
	if err != nil {
		return err
	}
	writeData(c.w, status, a.job(j, names), nil)
	return nil
}

// jobInput is the body of create, apply and update. Members left out take
// the defaults on create and apply, and keep the job's values on update.
type jobInput struct {
	Key                    *string `json:"key"`
	JobGroup               *int    `json:"jobGroup"`
	AppName                *string `json:"appname"`
	JobDesc                *string `json:"jobDesc"`
	Author                 *string `json:"author"`
	AlarmEmail             *string `json:"alarmEmail"`
	ScheduleType           *string `json:"scheduleType"`
	ScheduleConf           *string `json:"scheduleConf"`
	ScheduleTimezone       *string `json:"scheduleTimezone"`
	MisfireStrategy        *string `json:"misfireStrategy"`
	ExecutorRouteStrategy  *string `json:"executorRouteStrategy"`
	ExecutorHandler        *string `json:"executorHandler"`
	ExecutorParam          *string `json:"executorParam"`
	ExecutorBlockStrategy  *string `json:"executorBlockStrategy"`
	ExecutorTimeout        *int    `json:"executorTimeout"`
	ExecutorFailRetryCount *int    `json:"executorFailRetryCount"`
	GlueType               *string `json:"glueType"`
	GlueSource             *string `json:"glueSource"`
	GlueRemark             *string `json:"glueRemark"`
	ChildJobIDs            *[]int  `json:"childJobIds"`
	Running                *bool   `json:"running"`
}

// defaults are what create and apply assume for members left out: the
// console's own defaults, and an empty text where it has none (no time
// zone: the admin's).
func defaults(remark string) schema.JobInfo {
	return schema.JobInfo{AlarmEmail: schema.Ptr(""), ScheduleConf: schema.Ptr(""), ScheduleTimezone: schema.Ptr(""), MisfireStrategy: "DO_NOTHING",
		ExecutorRouteStrategy: schema.Ptr("FIRST"), ExecutorHandler: schema.Ptr(""), ExecutorParam: schema.Ptr(""),
		ExecutorBlockStrategy: schema.Ptr("SERIAL_EXECUTION"), GlueType: jobs.GlueBean, GlueRemark: schema.Ptr(remark),
		ChildJobID: schema.Ptr("")}
}

// spec lays the input over base (the defaults, or the stored job with its
// description and key split) and resolves the group.
func (a *API) spec(c *call, in jobInput, base schema.JobInfo, baseKey string) (jobs.Spec, error) {
	j := base
	set := func(dst **string, v *string) {
		if v != nil {
			*dst = v
		}
	}
	if in.JobDesc != nil {
		j.JobDesc = *in.JobDesc
	}
	set(&j.Author, in.Author)
	set(&j.AlarmEmail, in.AlarmEmail)
	if in.ScheduleType != nil {
		j.ScheduleType = *in.ScheduleType
	}
	set(&j.ScheduleConf, in.ScheduleConf)
	set(&j.ScheduleTimezone, in.ScheduleTimezone)
	if in.MisfireStrategy != nil {
		j.MisfireStrategy = *in.MisfireStrategy
	}
	set(&j.ExecutorRouteStrategy, in.ExecutorRouteStrategy)
	set(&j.ExecutorHandler, in.ExecutorHandler)
	set(&j.ExecutorParam, in.ExecutorParam)
	set(&j.ExecutorBlockStrategy, in.ExecutorBlockStrategy)
	if in.ExecutorTimeout != nil {
		j.ExecutorTimeout = *in.ExecutorTimeout
	}
	if in.ExecutorFailRetryCount != nil {
		j.ExecutorFailRetryCount = *in.ExecutorFailRetryCount
	}
	if in.GlueType != nil {
		j.GlueType = *in.GlueType
	}
	j.GlueSource = in.GlueSource // nil leaves an existing job's source alone
	set(&j.GlueRemark, in.GlueRemark)
	if in.ChildJobIDs != nil {
		ids := make([]string, 0, len(*in.ChildJobIDs))
		for _, id := range *in.ChildJobIDs {
			ids = append(ids, itoa(id))
		}
		j.ChildJobID = schema.Ptr(strings.Join(ids, ","))
	}
	if in.AppName != nil {
		g, ok, err := a.cfg.Jobs.FindGroup(c.ctx, *in.AppName)
		if err != nil {
			return jobs.Spec{}, err
		}
		if !ok {
			return jobs.Spec{}, invalid("appname: no executor group has the app name %q", *in.AppName)
		}
		if in.JobGroup != nil && *in.JobGroup != g.ID {
			return jobs.Spec{}, invalid("jobGroup %d and appname %q name different executor groups", *in.JobGroup, *in.AppName)
		}
		j.JobGroup = g.ID
	} else if in.JobGroup != nil {
		j.JobGroup = *in.JobGroup
	}
	key := baseKey
	if in.Key != nil {
		key = *in.Key
	}
	return jobs.Spec{Job: j, Key: key, Running: in.Running}, nil
}

// listJobs lists the jobs of the groups the user may use, with the
// console's filters.
func (a *API) listJobs(c *call) error {
	w, err := c.window()
	if err != nil {
		return err
	}
	q := c.r.URL.Query()
	group, err := c.queryInt("jobGroup", 0)
	if err != nil {
		return err
	}
	status, err := c.queryInt("triggerStatus", -1)
	if err != nil {
		return err
	}
	f := schema.JobFilter{JobGroup: group, JobDesc: q.Get("jobDesc"), ExecutorHandler: q.Get("executorHandler"),
		Author: q.Get("author"), JobGroups: c.access.GroupIDs()}
	switch status {
	case -1:
	case 0, 1:
		f.TriggerStatus = &status
	default:
		return invalid("triggerStatus: use 0 (stopped) or 1 (running)")
	}
	if group > 0 {
		if err := c.mayUse(group); err != nil {
			return err
		}
	}
	list, total, err := a.cfg.Store.JobPage(c.ctx, w.Offset, w.Limit, f, a.cfg.ListBounds)
	if err != nil {
		return err
	}
	names, err := a.appnames(c)
	if err != nil {
		return err
	}
	out := make([]jobJSON, 0, len(list))
	for _, j := range list {
		out = append(out, a.job(j, names))
	}
	w.setTotal(total)
	writeData(c.w, http.StatusOK, out, &w)
	return nil
}

// loadJob loads the {id} job the user may use.
func (a *API) loadJob(c *call) (schema.JobInfo, error) {
	id, err := c.pathID()
	if err != nil {
		return schema.JobInfo{}, err
	}
	j, err := a.cfg.Store.JobLoad(c.ctx, id)
	if isNotFound(err) {
		return j, notFound("no job %d", id)
	}
	if err != nil {
		return j, err
	}
	return j, c.mayUse(j.JobGroup)
}

func (a *API) getJob(c *call) error {
	j, err := a.loadJob(c)
	if err != nil {
		return err
	}
	return a.writeJob(c, http.StatusOK, j.ID)
}

// createJob is an idempotent create: the job's identity is its key, else
// group + executor handler + description. When it exists as specified the
// answer is 200 with it; when it exists with other values, 409.
func (a *API) createJob(c *call) error {
	var in jobInput
	if err := c.decode(&in); err != nil {
		return err
	}
	sp, err := a.spec(c, in, defaults("created by the job API"), "")
	if err != nil {
		return err
	}
	res, err := a.cfg.Jobs.Apply(c.ctx, sp, jobs.CreateOnly, c.access.MayUse())
	var mismatch *jobs.MismatchError
	if errors.As(err, &mismatch) {
		return conflict("job %d already exists with other values (%s): change it with PUT /jobs/%d, or apply the whole spec with PUT /jobs/apply",
			mismatch.ID, strings.Join(mismatch.Fields, ", "), mismatch.ID)
	}
	if err != nil {
		return err
	}
	status := http.StatusOK
	if res.Outcome == jobs.Created {
		status = http.StatusCreated
		c.w.Header().Set("Location", a.base+"/jobs/"+itoa(res.ID))
	}
	return a.writeJob(c, status, res.ID)
}

// applied is the answer of apply and update.
type applied struct {
	Outcome jobs.Outcome `json:"outcome"`
	Changed []string     `json:"changed"`
	Job     jobJSON      `json:"job"`
}

func (a *API) writeApplied(c *call, res jobs.Applied) error {
	j, err := a.cfg.Store.JobLoad(c.ctx, res.ID)
	if err != nil {
		return err
	}
	names, err := a.appnames(c)
	if err != nil {
		return err
	}
	status := http.StatusOK
	if res.Outcome == jobs.Created {
		status = http.StatusCreated
		c.w.Header().Set("Location", a.base+"/jobs/"+itoa(res.ID))
	}
	changed := res.Changed
	if changed == nil {
		changed = []string{}
	}
	writeData(c.w, status, applied{Outcome: res.Outcome, Changed: changed, Job: a.job(j, names)}, nil)
	return nil
}

// applyJob makes a job be as specified: created when its identity finds
// none, else updated where it differs ("apply" of a pipeline).
func (a *API) applyJob(c *call) error {
	var in jobInput
	if err := c.decode(&in); err != nil {
		return err
	}
	sp, err := a.spec(c, in, defaults("applied by the job API"), "")
	if err != nil {
		return err
	}
	res, err := a.cfg.Jobs.Apply(c.ctx, sp, jobs.Overwrite, c.access.MayUse())
	if err != nil {
		return err
	}
	return a.writeApplied(c, res)
}

// updateJob changes the members given and keeps the others.
func (a *API) updateJob(c *call) error {
	old, err := a.loadJob(c)
	if err != nil {
		return err
	}
	var in jobInput
	if err := c.decode(&in); err != nil {
		return err
	}
	base := old
	desc, key := jobs.SplitKey(old.JobDesc)
	base.JobDesc, base.GlueRemark = desc, schema.Ptr("updated by the job API")
	sp, err := a.spec(c, in, base, key)
	if err != nil {
		return err
	}
	res, err := a.cfg.Jobs.Replace(c.ctx, old.ID, sp, c.access.MayUse())
	if err != nil {
		return err
	}
	return a.writeApplied(c, res)
}

func (a *API) deleteJob(c *call) error {
	j, err := a.loadJob(c)
	if err != nil {
		return err
	}
	if err := a.cfg.Jobs.Remove(c.ctx, j.ID); err != nil {
		return err
	}
	writeData(c.w, http.StatusOK, deleted{ID: j.ID}, nil)
	return nil
}

func (a *API) startJob(c *call) error {
	j, err := a.loadJob(c)
	if err != nil {
		return err
	}
	if err := a.cfg.Jobs.Start(c.ctx, j.ID); err != nil {
		return err
	}
	return a.writeJob(c, http.StatusOK, j.ID)
}

func (a *API) stopJob(c *call) error {
	j, err := a.loadJob(c)
	if err != nil {
		return err
	}
	if err := a.cfg.Jobs.Stop(c.ctx, j.ID); err != nil {
		return err
	}
	return a.writeJob(c, http.StatusOK, j.ID)
}

// triggerInput is the optional body of "run once".
type triggerInput struct {
	ExecutorParam *string  `json:"executorParam"` // left out: the job's own
	AddressList   []string `json:"addressList"`   // left out: the group's
}

// queued is the answer to "run once".
type queued struct {
	JobID int `json:"jobId"`
}

// triggerJob queues an API trigger through the trigger door and answers
// 202 at once; the outcome shows in the job's logs.
func (a *API) triggerJob(c *call) error {
	j, err := a.loadJob(c)
	if err != nil {
		return err
	}
	var in triggerInput
	if err := c.decodeOptional(&in); err != nil {
		return err
	}
	req := trigger.Request{JobID: j.ID, Type: trigger.TypeAPI, FailRetryCount: -1, ExecutorParam: in.ExecutorParam,
		AddressList: strings.Join(in.AddressList, ",")}
	if err := a.cfg.Trigger.Submit(req); err != nil {
		if errors.Is(err, trigger.ErrPoolFull) || errors.Is(err, trigger.ErrStopped) {
			c.w.Header().Set("Retry-After", "1")
			return &apiError{http.StatusServiceUnavailable, "unavailable", err.Error()}
		}
		return err
	}
	a.log.Info().Int("job_id", j.ID).Str("username", c.access.User).Msg("job triggered through the job API")
	writeData(c.w, http.StatusAccepted, queued{JobID: j.ID}, nil)
	return nil
}
