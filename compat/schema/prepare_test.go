package schema

import (
	"context"
	"errors"
	"reflect"
	"regexp"
	"strings"
	"testing"
)

// createByHand makes the 2.4.2 tables without seed rows, as an operator
// running the DDL part of tables_xxl_job.sql would, with optional edits of
// the statements (schema.md §1).
func createByHand(t *testing.T, s *Store, edit func(stmt string) string) {
	t.Helper()
	for _, stmt := range s.d.createTables(Gen2) {
		if edit != nil {
			stmt = edit(stmt)
		}
		rawExec(t, s, stmt)
	}
}

// TestPrepareEmptyCreatesSeed checks the seed rows of schema.md §2.
func TestPrepareEmptyCreatesSeed(t *testing.T) {
	forEachBackend(t, func(t *testing.T, s *Store) {
		ctx := context.Background()
		res, err := s.Prepare(ctx, PrepareOptions{})
		mustNoErr(t, err)
		if !reflect.DeepEqual(res, PrepareResult{Generation: Gen2, Created: true, PendingCreated: true}) {
			t.Fatalf("first Prepare = %+v, want Created only (and our own table)", res)
		}
		seed := at(s, 2018, 11, 3, 22, 21, 31)

		groups, err := s.GroupFindAll(ctx)
		mustNoErr(t, err)
		if len(groups) != 1 {
			t.Fatalf("groups = %d, want 1", len(groups))
		}
		assertRow(t, groups[0], Group{ID: 1, AppName: "xxl-job-executor-sample", Title: "示例执行器",
			AddressType: 0, AddressList: nil, UpdateTime: &seed})

		jobs, total, err := s.JobPageList(ctx, 0, 10, JobFilter{})
		mustNoErr(t, err)
		if total != 1 || len(jobs) != 1 {
			t.Fatalf("jobs = %d/%d, want 1", len(jobs), total)
		}
		assertRow(t, jobs[0], JobInfo{ID: 1, JobGroup: 1, JobDesc: "测试任务1", AddTime: &seed, UpdateTime: &seed,
			Author: Ptr("XXL"), AlarmEmail: Ptr(""), ScheduleType: "CRON", ScheduleConf: Ptr("0 0 0 * * ? *"),
			MisfireStrategy: "DO_NOTHING", ExecutorRouteStrategy: Ptr("FIRST"), ExecutorHandler: Ptr("demoJobHandler"),
			ExecutorParam: Ptr(""), ExecutorBlockStrategy: Ptr("SERIAL_EXECUTION"), ExecutorTimeout: 0,
			ExecutorFailRetryCount: 0, GlueType: "BEAN", GlueSource: Ptr(""), GlueRemark: Ptr("GLUE代码初始化"),
			GlueUpdatetime: &seed, ChildJobID: Ptr(""), TriggerStatus: 0, TriggerLastTime: 0, TriggerNextTime: 0})

		// The script's literal wall time, not converted from some other zone.
		if got := rawString(t, s, "SELECT CAST(add_time AS CHAR) FROM xxl_job_info WHERE id = 1"); got == nil || *got != "2018-11-03 22:21:31" {
			t.Errorf("raw add_time = %v", got)
		}

		users, total, err := s.UserPageList(ctx, 0, 10, UserFilter{})
		mustNoErr(t, err)
		if total != 1 || len(users) != 1 {
			t.Fatalf("users = %d/%d, want 1", len(users), total)
		}
		assertRow(t, users[0], User{ID: 1, Username: "admin", Password: "e10adc3949ba59abbe56e057f20f883e", Role: 1})

		if got := rawString(t, s, "SELECT lock_name FROM xxl_job_lock"); got == nil || *got != "schedule_lock" {
			t.Errorf("lock row = %v", got)
		}
		for table, want := range map[string]string{"xxl_job_log": "0", "xxl_job_logglue": "0", "xxl_job_registry": "0",
			"xxl_job_log_report": "0", "xxl_job_lock": "1"} {
			if got := rawString(t, s, "SELECT CAST(count(1) AS CHAR) FROM "+table); *got != want {
				t.Errorf("%s has %s rows, want %s", table, *got, want)
			}
		}

		// Idempotent: a restarted admin changes nothing and warns about nothing.
		res, err = s.Prepare(ctx, PrepareOptions{})
		mustNoErr(t, err)
		if !reflect.DeepEqual(res, PrepareResult{Generation: Gen2}) {
			t.Fatalf("second Prepare = %+v, want no change", res)
		}

		// Without schedule_lock, admins would not exclude each other (§2).
		rawExec(t, s, "DELETE FROM xxl_job_lock")
		res, err = s.Prepare(ctx, PrepareOptions{})
		mustNoErr(t, err)
		if !reflect.DeepEqual(res, PrepareResult{Generation: Gen2, LockInserted: true}) {
			t.Fatalf("Prepare after lock delete = %+v, want LockInserted", res)
		}
		if got := rawString(t, s, "SELECT lock_name FROM xxl_job_lock"); got == nil || *got != "schedule_lock" {
			t.Errorf("lock row = %v", got)
		}
	})
}

// TestPrepareExistingUnseeded checks that Prepare never seeds or alters a
// database that already has the tables (only the lock row is added).
func TestPrepareExistingUnseeded(t *testing.T) {
	forEachBackend(t, func(t *testing.T, s *Store) {
		createByHand(t, s, nil)
		res, err := s.Prepare(context.Background(), PrepareOptions{})
		mustNoErr(t, err)
		if !reflect.DeepEqual(res, PrepareResult{Generation: Gen2, LockInserted: true, PendingCreated: true}) {
			t.Fatalf("Prepare = %+v", res)
		}
		for _, table := range []string{"xxl_job_group", "xxl_job_info", "xxl_job_user"} {
			if got := rawString(t, s, "SELECT CAST(count(1) AS CHAR) FROM "+table); *got != "0" {
				t.Errorf("%s got %s seed rows", table, *got)
			}
		}
	})
}

// TestPrepareRefuses checks schema problems are refused with a message
// naming what is wrong.
func TestPrepareRefuses(t *testing.T) {
	cases := []struct {
		name  string
		after []string // statements run after the hand-made DDL
		want  []string // substrings of the error
	}{
		{"missing column", []string{"ALTER TABLE xxl_job_log DROP COLUMN alarm_status"},
			[]string{"xxl_job_log", "alarm_status"}},
		{"missing table", []string{"DROP TABLE xxl_job_logglue"},
			[]string{"table xxl_job_logglue is missing"}},
		// schema.md §5.2: the 3.x user table has a token column.
		{"3.x user table", []string{"ALTER TABLE xxl_job_user ADD COLUMN token varchar(100) DEFAULT NULL"},
			[]string{"3.x"}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			forEachBackend(t, func(t *testing.T, s *Store) {
				createByHand(t, s, nil)
				for _, stmt := range tc.after {
					rawExec(t, s, stmt)
				}
				_, err := s.Prepare(context.Background(), PrepareOptions{})
				if !errors.Is(err, ErrUnsupportedSchema) {
					t.Fatalf("Prepare error = %v, want ErrUnsupportedSchema", err)
				}
				for _, w := range tc.want {
					if !strings.Contains(err.Error(), w) {
						t.Errorf("error %q does not mention %q", err, w)
					}
				}
			})
		})
	}
}

// TestPrepareAcceptsWidened checks the 3.x-style widenings of schema.md §5.2
// and extra indexes are accepted, with warnings.
func TestPrepareAcceptsWidened(t *testing.T) {
	param := regexp.MustCompile("(`?executor_param`?) varchar\\(512\\)")
	title := regexp.MustCompile("(`?title`?) varchar\\(12\\)")
	forEachBackend(t, func(t *testing.T, s *Store) {
		createByHand(t, s, func(stmt string) string {
			if strings.Contains(stmt, "TABLE IF NOT EXISTS `xxl_job_info`") || strings.Contains(stmt, "TABLE IF NOT EXISTS xxl_job_info") {
				stmt = param.ReplaceAllString(stmt, "$1 text")
			}
			return title.ReplaceAllString(stmt, "$1 varchar(64)")
		})
		rawExec(t, s, "CREATE INDEX I_jobid ON xxl_job_log (job_id)") // db tune's: expected, no warning
		rawExec(t, s, "CREATE INDEX I_mine ON xxl_job_log (executor_address)")
		res, err := s.Prepare(context.Background(), PrepareOptions{})
		mustNoErr(t, err)
		index := "I_mine"
		if s.Backend() == Postgres {
			index = "i_mine" // PostgreSQL folds unquoted names to lower case
		}
		want := []string{
			"column xxl_job_group.title is varchar(64), expected varchar(12) (widened, accepted)",
			"column xxl_job_info.executor_param is text, expected varchar(512) (widened, accepted)",
			"table xxl_job_log has an extra index " + index + " (accepted)",
		}
		if !reflect.DeepEqual(res.Warnings, want) {
			t.Errorf("warnings = %q\nwant %q", res.Warnings, want)
		}
		if res.Created || !res.LockInserted {
			t.Errorf("Prepare = %+v", res)
		}
	})
}

// TestPrepareConcurrentStarts: admins starting at the same moment on an
// empty database (separate sessions) all come up, and the seed rows exist
// once. On MySQL, which commits each CREATE TABLE, they take turns under
// the preparation lock; without it one in five runs saw the tables another
// admin was still creating and refused them as incomplete.
func TestPrepareConcurrentStarts(t *testing.T) {
	forEachBackend(t, func(t *testing.T, s *Store) {
		ctx := context.Background()
		const admins = 3
		errs := make(chan error, admins)
		for range admins {
			go func() {
				_, err := newStore(s.db, s.d, s.loc).Prepare(ctx, PrepareOptions{})
				errs <- err
			}()
		}
		for range admins {
			if err := <-errs; err != nil {
				t.Errorf("concurrent Prepare: %v", err)
			}
		}
		for table, want := range map[string]int{"xxl_job_user": 1, "xxl_job_group": 1, "xxl_job_info": 1, "xxl_job_lock": 1} {
			n, err := s.count(ctx, s.sb.Select("count(1)").From(table))
			mustNoErr(t, err)
			if n != want {
				t.Errorf("%s has %d rows, want %d", table, n, want)
			}
		}
	})
}
