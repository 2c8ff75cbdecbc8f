// Package testfactory builds the rows tests need — executor groups, jobs,
// logs, registrations, users — with option structs whose zero values are
// sensible defaults, and stores them through the real Store, so every test
// package writes rows the same way the admin does.
package testfactory

import (
	"context"
	"crypto/md5"
	"crypto/rand"
	"encoding/hex"
	"testing"
	"time"

	"github.com/xxl-admin-go/xxl-admin-go/compat/schema"
)

// unique makes default names unique without package state.
func unique() string {
	b := make([]byte, 4)
	_, _ = rand.Read(b)
	return hex.EncodeToString(b)
}

func or[T comparable](v, def T) T {
	var zero T
	if v == zero {
		return def
	}
	return v
}

// GroupOpts describes an executor group; zero values take defaults.
type GroupOpts struct {
	AppName     string  // default "test-executor-<random>"
	Title       string  // default "test"
	AddressType int     // 0 automatic (default), 1 manual
	AddressList *string // nil: NULL
	UpdateTime  time.Time
}

// Group stores an executor group and returns it as read back.
func Group(tb testing.TB, s *schema.Store, o GroupOpts) schema.Group {
	tb.Helper()
	ctx := context.Background()
	at := or(o.UpdateTime, time.Now())
	id, err := s.GroupSave(ctx, schema.Group{AppName: or(o.AppName, "test-executor-"+unique()),
		Title: or(o.Title, "test"), AddressType: o.AddressType, AddressList: o.AddressList, UpdateTime: &at})
	if err != nil {
		tb.Fatalf("testfactory: save group: %v", err)
	}
	g, err := s.GroupLoad(ctx, id)
	if err != nil {
		tb.Fatalf("testfactory: load group %d: %v", id, err)
	}
	return g
}

// ManualGroup stores a manually registered group holding the addresses.
func ManualGroup(tb testing.TB, s *schema.Store, addresses string) schema.Group {
	tb.Helper()
	return Group(tb, s, GroupOpts{AddressType: 1, AddressList: &addresses})
}

// JobOpts describes a job; zero values take the defaults of a stopped BEAN
// job of group 1 (the seed group) that is never scheduled.
type JobOpts struct {
	Group        int    // default 1
	Desc         string // default "test job <random>"
	Author       string // default "test"
	AlarmEmail   string
	ScheduleType string // default NONE
	ScheduleConf string
	Misfire      string // default DO_NOTHING
	Route        string // default FIRST
	Block        string // default SERIAL_EXECUTION
	Handler      string // default demoJobHandler (BEAN jobs)
	Param        *string
	Timeout      int
	Retry        int    // executor_fail_retry_count
	GlueType     string // default BEAN
	GlueSource   string
	GlueRemark   string // default "init"
	ChildJobIDs  string
	Status       int   // trigger_status
	Last, Next   int64 // trigger_last_time, trigger_next_time (epoch ms)
	At           time.Time
	Zone         string // schedule_timezone (the store must have the column); "" NULL
}

// Job stores a job and returns it as read back.
func Job(tb testing.TB, s *schema.Store, o JobOpts) schema.JobInfo {
	tb.Helper()
	ctx := context.Background()
	j := JobRow(o)
	id, err := s.JobSave(ctx, j)
	if err != nil {
		tb.Fatalf("testfactory: save job: %v", err)
	}
	got, err := s.JobLoad(ctx, id)
	if err != nil {
		tb.Fatalf("testfactory: load job %d: %v", id, err)
	}
	return got
}

// JobRow is the row Job stores, for callers that save many jobs in one
// transaction of their own (cluster seeds of hundreds of jobs).
func JobRow(o JobOpts) schema.JobInfo {
	at := or(o.At, time.Now())
	glue := or(o.GlueType, "BEAN")
	handler := o.Handler
	if handler == "" && glue == "BEAN" {
		handler = "demoJobHandler"
	}
	j := schema.JobInfo{
		JobGroup: or(o.Group, 1), JobDesc: or(o.Desc, "test job "+unique()), AddTime: &at, UpdateTime: &at,
		Author: schema.Ptr(or(o.Author, "test")), AlarmEmail: schema.Ptr(o.AlarmEmail),
		ScheduleType: or(o.ScheduleType, "NONE"), ScheduleConf: schema.Ptr(o.ScheduleConf),
		MisfireStrategy: or(o.Misfire, "DO_NOTHING"), ExecutorRouteStrategy: schema.Ptr(or(o.Route, "FIRST")),
		ExecutorHandler: schema.Ptr(handler), ExecutorParam: o.Param,
		ExecutorBlockStrategy: schema.Ptr(or(o.Block, "SERIAL_EXECUTION")), ExecutorTimeout: o.Timeout,
		ExecutorFailRetryCount: o.Retry, GlueType: glue, GlueSource: schema.Ptr(o.GlueSource),
		GlueRemark: schema.Ptr(or(o.GlueRemark, "init")), GlueUpdatetime: &at, ChildJobID: schema.Ptr(o.ChildJobIDs),
		TriggerStatus: o.Status, TriggerLastTime: o.Last, TriggerNextTime: o.Next,
	}
	if j.ExecutorParam == nil {
		j.ExecutorParam = schema.Ptr("")
	}
	if o.Zone != "" {
		j.ScheduleTimezone = schema.Ptr(o.Zone)
	}
	return j
}

// LogOpts describes a log row; zero values give a row of job 1 in group 1
// triggered now whose trigger is still being sent (trigger_code 0).
type LogOpts struct {
	Group, Job  int       // defaults 1, 1
	TriggerTime time.Time // default now
	TriggerCode int
	TriggerMsg  *string
	Address     *string
	Handler     *string
	Param       *string
	Sharding    *string
	Retry       int
	HandleCode  int        // non-zero (or a HandleMsg) writes the handle info
	HandleTime  *time.Time // default TriggerTime + 1 s when HandleCode != 0
	HandleMsg   *string
	AlarmStatus int
}

// Log stores a log row the way the admin writes it — save, trigger info,
// handle info, alarm status — and returns it as read back.
func Log(tb testing.TB, s *schema.Store, o LogOpts) schema.JobLog {
	tb.Helper()
	ctx := context.Background()
	at := or(o.TriggerTime, time.Now())
	l := schema.JobLog{JobGroup: or(o.Group, 1), JobID: or(o.Job, 1), TriggerTime: &at}
	id, err := s.LogSave(ctx, l)
	if err != nil {
		tb.Fatalf("testfactory: save log: %v", err)
	}
	l.ID, l.TriggerCode, l.TriggerMsg, l.ExecutorAddress = id, o.TriggerCode, o.TriggerMsg, o.Address
	l.ExecutorHandler, l.ExecutorParam, l.ExecutorShardingParam, l.ExecutorFailRetryCount = o.Handler, o.Param, o.Sharding, o.Retry
	if err := s.LogUpdateTriggerInfo(ctx, l); err != nil {
		tb.Fatalf("testfactory: trigger info of log %d: %v", id, err)
	}
	if o.HandleCode != 0 || o.HandleMsg != nil {
		ht := o.HandleTime
		if ht == nil {
			ht = schema.Ptr(at.Add(time.Second))
		}
		l.HandleTime, l.HandleCode, l.HandleMsg = ht, o.HandleCode, o.HandleMsg
		if err := s.LogUpdateHandleInfo(ctx, l); err != nil {
			tb.Fatalf("testfactory: handle info of log %d: %v", id, err)
		}
	}
	if o.AlarmStatus != 0 {
		if _, err := s.LogUpdateAlarmStatus(ctx, id, 0, o.AlarmStatus); err != nil {
			tb.Fatalf("testfactory: alarm status of log %d: %v", id, err)
		}
	}
	got, err := s.LogLoad(ctx, id)
	if err != nil {
		tb.Fatalf("testfactory: load log %d: %v", id, err)
	}
	return got
}

// RegistryOpts describes an executor registration.
type RegistryOpts struct {
	Group string    // default EXECUTOR
	App   string    // registry_key (appname)
	Addr  string    // registry_value
	At    time.Time // update_time, default now
}

// Registry stores a registration.
func Registry(tb testing.TB, s *schema.Store, o RegistryOpts) {
	tb.Helper()
	if err := s.RegistrySave(context.Background(), or(o.Group, "EXECUTOR"), o.App, o.Addr, or(o.At, time.Now())); err != nil {
		tb.Fatalf("testfactory: save registration: %v", err)
	}
}

// UserOpts describes a console user.
type UserOpts struct {
	Username   string // default "user<random>"
	Password   string // plain text, default "123456"; stored as its MD5
	Role       int    // 0 normal (default), 1 admin
	Permission *string
}

// User stores a console user and returns it as read back.
func User(tb testing.TB, s *schema.Store, o UserOpts) schema.User {
	tb.Helper()
	ctx := context.Background()
	name := or(o.Username, "user"+unique())
	if _, err := s.UserSave(ctx, schema.User{Username: name, Password: MD5(or(o.Password, "123456")), Role: o.Role,
		Permission: o.Permission}); err != nil {
		tb.Fatalf("testfactory: save user: %v", err)
	}
	u, err := s.UserLoadByName(ctx, name)
	if err != nil {
		tb.Fatalf("testfactory: load user %q: %v", name, err)
	}
	return u
}

// MD5 is the password hash of xxl_job_user (lowercase hex).
func MD5(s string) string {
	sum := md5.Sum([]byte(s))
	return hex.EncodeToString(sum[:])
}
