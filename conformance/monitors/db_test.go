package monitors

import (
	"context"
	"fmt"
	"path/filepath"
	"sort"
	"testing"
	"time"

	"github.com/xxl-admin-go/xxl-admin-go/compat/schema"
	"github.com/xxl-admin-go/xxl-admin-go/internal/testsupport/storetest"
	"github.com/xxl-admin-go/xxl-admin-go/internal/testsupport/testfactory"
)

// database is one test database: the admin's connection settings and the
// test's own store on it, for seeding rows and checking outcomes.
type database struct {
	url, user, pass string
	store           *schema.Store
}

// args are the admin's spring.datasource.* settings.
func (d database) args() []string {
	return []string{"--spring.datasource.url=" + d.url,
		"--spring.datasource.username=" + d.user, "--spring.datasource.password=" + d.pass}
}

// forEachBackend runs fn as subtests "sqlite" and "mysql" (skipped when
// XXL_TEST_MYSQL_DSN is unset), each on a prepared database of its own.
func forEachBackend(t *testing.T, fn func(t *testing.T, db database)) {
	t.Run("sqlite", func(t *testing.T) {
		t.Parallel()
		fn(t, openDatabase(t, "jdbc:sqlite:"+filepath.Join(t.TempDir(), "x.db"), "", ""))
	})
	t.Run("mysql", func(t *testing.T) {
		t.Parallel()
		url, user, pass := storetest.MySQLURL(t)
		fn(t, openDatabase(t, url, user, pass))
	})
}

// openDatabase opens and prepares (tables and seed rows) the database.
func openDatabase(t testing.TB, url, user, pass string) database {
	t.Helper()
	target, err := schema.ParseJDBC(url, user, pass)
	if err != nil {
		t.Fatal(err)
	}
	s, err := schema.Open(context.Background(), target, schema.PoolSettings{MaxOpen: 4, MaxIdle: 4})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	if _, err := s.Prepare(context.Background(), schema.PrepareOptions{}); err != nil {
		t.Fatal(err)
	}
	return database{url: url, user: user, pass: pass, store: s}
}

// addGroup stores a manually registered executor group (address_type 1)
// holding the given address.
func addGroup(t testing.TB, s *schema.Store, address string) int {
	t.Helper()
	return testfactory.Group(t, s, testfactory.GroupOpts{AppName: "fake-executor", Title: "Fake exec", AddressType: 1,
		AddressList: &address}).ID
}

// jobSpec is what the tests vary in a job.
type jobSpec struct {
	desc       string
	alarmEmail *string
	retry      int           // executor_fail_retry_count
	rate       int           // FIX_RATE seconds
	nextIn     time.Duration // trigger_next_time from now
	enabled    bool
}

// addJob stores a BEAN job with the FIRST route. An enabled job with a
// large rate and nextIn of a few seconds fires exactly once: the schedule
// loop reads it late by less than 5 s or ahead by less than 5 s
// (scheduler.md §3.2 cases B and C) and moves the next fire a rate ahead.
func addJob(t testing.TB, s *schema.Store, group int, spec jobSpec) int {
	t.Helper()
	o := testfactory.JobOpts{Group: group, Desc: spec.desc, Author: "monitors-test", ScheduleType: "FIX_RATE",
		ScheduleConf: fmt.Sprint(spec.rate), Retry: spec.retry}
	if spec.alarmEmail != nil {
		o.AlarmEmail = *spec.alarmEmail
	}
	if spec.enabled {
		o.Status, o.Next = 1, time.Now().Add(spec.nextIn).UnixMilli()
	}
	return testfactory.Job(t, s, o).ID
}

// stopJob switches a job off under the schedule lock, so that a schedule
// round in flight cannot write trigger_status 1 back over it.
func stopJob(ctx context.Context, s *schema.Store, id int) error {
	return s.WithScheduleLock(ctx, func(tx *schema.Store) error {
		j, err := tx.JobLoad(ctx, id)
		if err != nil {
			return err
		}
		j.TriggerStatus, j.TriggerNextTime = 0, 0
		_, err = tx.JobUpdate(ctx, j)
		return err
	})
}

// jobLogs lists a job's log rows by id.
func jobLogs(ctx context.Context, s *schema.Store, jobID int) ([]schema.JobLog, error) {
	logs, _, err := s.LogPageList(ctx, 0, 100000, schema.LogFilter{JobID: jobID})
	if err != nil {
		return nil, err
	}
	sort.Slice(logs, func(i, j int) bool { return logs[i].ID < logs[j].ID })
	return logs, nil
}

func mustJobLogs(t testing.TB, s *schema.Store, jobID int) []schema.JobLog {
	t.Helper()
	logs, err := jobLogs(context.Background(), s, jobID)
	if err != nil {
		t.Fatal(err)
	}
	return logs
}

// failed is findFailJobLogIds' condition (scheduler.md §5.1, §8).
func failed(l schema.JobLog) bool {
	running := (l.TriggerCode == 0 || l.TriggerCode == 200) && l.HandleCode == 0
	return !running && l.HandleCode != 200
}

// settled reports whether the fail monitor is done with the row: not
// waiting (0) and not claimed (-1, -2).
func settled(l schema.JobLog) bool { return l.AlarmStatus > 0 }

func deref(p *string) string {
	if p == nil {
		return "<nil>"
	}
	return *p
}

// describe is a one-line summary of log rows for failure messages.
func describe(logs []schema.JobLog) string {
	s := ""
	for _, l := range logs {
		s += fmt.Sprintf("[id=%d retry=%d trigger=%d handle=%d alarm=%d] ", l.ID, l.ExecutorFailRetryCount,
			l.TriggerCode, l.HandleCode, l.AlarmStatus)
	}
	return s
}
