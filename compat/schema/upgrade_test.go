package schema

import (
	"context"
	"errors"
	"fmt"
	"os"
	"reflect"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"
)

// quiet is the activity check of tests on databases no admin uses: only
// the watch (one look) runs.
var quiet = ActivityOptions{Idle: -1, Watch: time.Millisecond}

// describeSchema lists what a schema is made of, sorted, on each backend:
// every column's type, nullability and default, and every index with its
// columns and uniqueness (column order and comments aside). Our own
// PendingTable is left out: these are Java's tables (the upgrade leaves
// ours alone, TestUpgradeLeavesPendingTable).
func describeSchema(t *testing.T, s *Store) []string {
	t.Helper()
	var queries []string
	switch s.Backend() {
	case MySQL:
		queries = []string{
			`SELECT table_name, column_name, column_type, is_nullable, COALESCE(column_default, 'NULL'), extra, COALESCE(collation_name, '')
			FROM information_schema.columns WHERE table_schema = DATABASE()`,
			`SELECT table_name, index_name, seq_in_index, column_name, non_unique, index_type
			FROM information_schema.statistics WHERE table_schema = DATABASE()`,
		}
	case Postgres:
		queries = []string{
			`SELECT table_name, column_name, data_type, COALESCE(character_maximum_length, 0), is_nullable, COALESCE(column_default, 'NULL'), is_identity, COALESCE(identity_generation, '')
			FROM information_schema.columns WHERE table_schema = current_schema()`,
			`SELECT tablename, indexname, indexdef FROM pg_indexes WHERE schemaname = current_schema()`,
			`SELECT s.relname, format_type(q.seqtypid, NULL), q.seqmax FROM pg_sequence q JOIN pg_class s ON s.oid = q.seqrelid`,
		}
	case SQLite:
		queries = []string{
			`SELECT m.name, c.name, c.type, c."notnull", COALESCE(c.dflt_value, 'NULL'), c.pk
			FROM sqlite_master m, pragma_table_info(m.name) c WHERE m.type = 'table' AND m.name LIKE 'xxl_job_%'`,
			`SELECT m.name, i.name, i."unique", i.origin, ii.seqno, COALESCE(ii.name, 'expr')
			FROM sqlite_master m, pragma_index_list(m.name) i, pragma_index_info(i.name) ii WHERE m.type = 'table' AND m.name LIKE 'xxl_job_%'`,
		}
	}
	var out []string
	for _, q := range queries {
		rows, err := s.db.Query(q)
		mustNoErr(t, err)
		cols, _ := rows.Columns()
		for rows.Next() {
			vals := make([]any, len(cols))
			ptrs := make([]any, len(cols))
			for i := range vals {
				ptrs[i] = &vals[i]
			}
			mustNoErr(t, rows.Scan(ptrs...))
			if v, ok := vals[0].([]byte); ok && strings.HasPrefix(string(v), PendingTable) {
				continue
			} else if v, ok := vals[0].(string); ok && strings.HasPrefix(v, PendingTable) {
				continue
			}
			var parts []string
			for _, v := range vals {
				if b, ok := v.([]byte); ok {
					v = string(b)
				}
				parts = append(parts, strings.ToLower(fmt.Sprint(v)))
			}
			out = append(out, strings.Join(parts, " "))
		}
		mustNoErr(t, rows.Err())
		rows.Close()
	}
	slices.Sort(out)
	return out
}

// fresh34 describes a 3.4 database our creation makes on the same backend.
func fresh34(t *testing.T, backend Backend) []string {
	t.Helper()
	var s *Store
	switch backend {
	case MySQL:
		s = openMySQL(t)
	case Postgres:
		s = openPostgres(t)
	default:
		s = openSQLite(t)
	}
	_, err := s.Prepare(context.Background(), PrepareOptions{Create: Gen3})
	mustNoErr(t, err)
	return describeSchema(t, s)
}

// fill24 gives a 2.4 database rows in every table the upgrade changes:
// logs with long parameters, a user on MD5 (upper-case hex) and one whose
// password is no MD5 hash, a registration.
func fill24(t *testing.T, s *Store) {
	t.Helper()
	var values []string
	for i := range 40 {
		values = append(values, fmt.Sprintf("(1, 1, 'param-%d-%s', '2024-05-01 10:00:%02d', 200, 'ok', 200)", i, strings.Repeat("x", 400), i))
	}
	rawExec(t, s, "INSERT INTO xxl_job_log (job_group, job_id, executor_param, trigger_time, trigger_code, trigger_msg, handle_code) VALUES "+strings.Join(values, ", "))
	rawExec(t, s, "INSERT INTO xxl_job_user (username, password, role) VALUES ('ops', '0123456789ABCDEF0123456789abcdef', 0), ('ldap', 'not a hash', 0)")
	rawExec(t, s, "INSERT INTO xxl_job_registry (registry_group, registry_key, registry_value, update_time) VALUES ('EXECUTOR', 'app', 'http://10.0.0.1:9999/', '2024-05-01 10:00:00')")
	rawExec(t, s, "UPDATE xxl_job_group SET title = 'twelve chars' WHERE id = 1")
}

func stepTables(p UpgradePlan) []string {
	var out []string
	for _, st := range p.Steps {
		out = append(out, st.Table)
	}
	return out
}

// TestUpgrade24: a 2.4 database with rows is planned, upgraded, planned
// again (nothing to do), found by Prepare as a 3.4 database without
// warnings, and its columns and indexes are those of a fresh 3.4 creation
// on the same backend; the rows are all there, the MD5 users are named.
func TestUpgrade24(t *testing.T) {
	forEachPrepared(t, func(t *testing.T, s *Store) {
		ctx := context.Background()
		fill24(t, s)
		plan, err := s.PlanUpgrade(ctx, Gen3)
		mustNoErr(t, err)
		if plan.From != Gen2 || plan.To != Gen3 || len(plan.Problems) > 0 || plan.DuplicateRows != 0 {
			t.Fatalf("plan = %+v", plan)
		}
		if want := []string{"xxl_job_user", "xxl_job_group", "xxl_job_registry", "xxl_job_info", "xxl_job_log"}; !slices.Equal(stepTables(plan), want) {
			t.Errorf("steps on tables %q, want %q", stepTables(plan), want)
		}
		if want := []string{"admin", "ops"}; !slices.Equal(plan.ResetUsers, want) {
			t.Errorf("users to reset = %q, want %q", plan.ResetUsers, want)
		}
		last := plan.Steps[len(plan.Steps)-1]
		if last.Rows != 40 || !strings.Contains(last.What, "executor_param varchar(512) → text (3.4.0)") ||
			!strings.Contains(last.What, "add index I_jobid (job_id) (the 3.4.2 script)") {
			t.Errorf("log step = %+v", last)
		}
		if s.Backend() == MySQL && len(last.SQL) != 1 {
			t.Errorf("the log table is altered by %d statements, want one (one copy of the table)", len(last.SQL))
		}
		before := describeSchema(t, s)

		// Progress every microsecond: each step is told of while it runs.
		told := map[int]int{}
		res, err := s.ApplyUpgrade(ctx, plan, UpgradeOptions{Activity: quiet, ProgressEvery: time.Microsecond,
			Progress: func(i int, st UpgradeStep, done float64, elapsed time.Duration) {
				if st.Table != plan.Steps[i].Table || done < -1 || done > 1 || elapsed <= 0 {
					t.Errorf("progress of step %d: %s, %v, %s", i+1, st.Table, done, elapsed)
				}
				told[i]++
			}})
		mustNoErr(t, err)
		if len(res.Steps) != len(plan.Steps) || res.Check.Generation != Gen3 || len(res.Check.Warnings) > 0 {
			t.Fatalf("result = %+v", res)
		}
		if len(told) == 0 {
			t.Error("no progress while the steps ran")
		}
		if s.Generation() != Gen3 || !s.shape.RegistryUnique {
			t.Errorf("the store is not a 3.4 one afterwards: %+v", *s.shape)
		}
		again, err := s.PlanUpgrade(ctx, Gen3)
		mustNoErr(t, err)
		if !again.NothingToDo() || again.From != Gen3 {
			t.Errorf("plan after the upgrade = %+v", again)
		}
		if !slices.Equal(again.ResetUsers, plan.ResetUsers) {
			t.Errorf("users to reset after the upgrade = %q", again.ResetUsers)
		}
		got := describeSchema(t, s)
		if slices.Equal(got, before) {
			t.Fatal("the schema did not change")
		}
		if want := fresh34(t, s.Backend()); !slices.Equal(got, want) {
			t.Errorf("upgraded schema differs from a fresh 3.4 one:\n%s", diffLines(got, want))
		}

		_, n, err := s.LogPageList(ctx, 0, 1, LogFilter{})
		mustNoErr(t, err)
		if n != 40 {
			t.Errorf("%d log rows after the upgrade, want 40", n)
		}
		if p := rawString(t, s, "SELECT executor_param FROM xxl_job_log WHERE executor_param LIKE 'param-39-%'"); p == nil || len(*p) != len("param-39-")+400 {
			t.Errorf("log parameter after the upgrade = %v", p)
		}
		u, err := s.UserLoadByName(ctx, "ops")
		mustNoErr(t, err)
		if u.Password != "0123456789ABCDEF0123456789abcdef" || u.Token != nil {
			t.Errorf("user ops after the upgrade = %+v", u)
		}
		// 3.4's wider columns take what 2.4's refused.
		long := strings.Repeat("p", 2048)
		_, err = s.q.ExecContext(ctx, "UPDATE xxl_job_info SET executor_param = ? WHERE id = 1", long)
		mustNoErr(t, err)
		_, err = s.q.ExecContext(ctx, "UPDATE xxl_job_group SET title = ? WHERE id = 1", strings.Repeat("t", 64))
		mustNoErr(t, err)
	})
}

// diffLines shows the lines only one side has.
func diffLines(got, want []string) string {
	var b strings.Builder
	for _, l := range got {
		if !slices.Contains(want, l) {
			b.WriteString("+ " + l + "\n")
		}
	}
	for _, l := range want {
		if !slices.Contains(got, l) {
			b.WriteString("- " + l + "\n")
		}
	}
	return b.String()
}

// TestUpgradeKeepsIDs: ids of deleted rows are never handed out again
// (executors name their log files by log id): the counters survive the
// ALTER (MySQL), the type change (PostgreSQL) and the rebuild (SQLite,
// sqlite_sequence), also for a table whose rows were all deleted.
func TestUpgradeKeepsIDs(t *testing.T) {
	forEachPrepared(t, func(t *testing.T, s *Store) {
		ctx := context.Background()
		fill24(t, s)
		rawExec(t, s, "DELETE FROM xxl_job_log WHERE id > 30")
		rawExec(t, s, "DELETE FROM xxl_job_registry")
		plan, err := s.PlanUpgrade(ctx, Gen3)
		mustNoErr(t, err)
		_, err = s.ApplyUpgrade(ctx, plan, UpgradeOptions{Activity: quiet})
		mustNoErr(t, err)
		now := time.Now()
		id, err := s.LogSave(ctx, JobLog{JobGroup: 1, JobID: 1, TriggerTime: &now})
		mustNoErr(t, err)
		if id != 41 {
			t.Errorf("new log id = %d, want 41 (40 were handed out before)", id)
		}
		_, err = s.RegistryUpsert(ctx, "EXECUTOR", "app", "http://10.0.0.2:9999/", now)
		mustNoErr(t, err)
		if got := rawString(t, s, "SELECT CAST(max(id) AS CHAR) FROM xxl_job_registry"); got == nil || *got != "2" {
			t.Errorf("new registry id = %v, want 2", got)
		}
		if s.Backend() == SQLite {
			if got := rawString(t, s, "SELECT group_concat(name || '=' || seq, ',') FROM (SELECT name, seq FROM sqlite_sequence WHERE name IN ('xxl_job_log', 'xxl_job_user') ORDER BY name)"); got == nil || *got != "xxl_job_log=41,xxl_job_user=3" {
				t.Errorf("sqlite_sequence = %v", got)
			}
			if got := rawString(t, s, "SELECT CAST(count(1) AS CHAR) FROM sqlite_master WHERE name LIKE '%_upgrade'"); *got != "0" {
				t.Errorf("%s rebuild tables left behind", *got)
			}
		}
	})
}

// TestUpgradeDuplicateRegistrations: registrations that break the unique
// key are counted as the database's key would judge them (MySQL's
// collation ignores case), refused until removal is asked for, and then
// only the newest row of each key is kept.
func TestUpgradeDuplicateRegistrations(t *testing.T) {
	forEachPrepared(t, func(t *testing.T, s *Store) {
		ctx := context.Background()
		reg := func(key string, sec int) {
			rawExec(t, s, "INSERT INTO xxl_job_registry (registry_group, registry_key, registry_value, update_time) VALUES ('EXECUTOR', ?, 'http://10.0.0.1:9999/', ?)",
				key, fmt.Sprintf("2024-05-01 10:00:%02d", sec))
		}
		reg("app", 5)  // id 1
		reg("app", 30) // id 2: the newest of "app"
		reg("app", 10) // id 3
		reg("App", 20) // id 4: the same key to MySQL, another one elsewhere
		reg("other", 1)
		rawExec(t, s, "INSERT INTO xxl_job_registry (registry_group, registry_key, registry_value, update_time) VALUES ('EXECUTOR', 'other', 'http://10.0.0.1:9999/', NULL)")
		wantRows, wantKeys, wantLeft := 3, 2, "2,4,5"
		if s.Backend() == MySQL {
			wantRows, wantLeft = 4, "2,5"
		}
		plan, err := s.PlanUpgrade(ctx, Gen3)
		mustNoErr(t, err)
		if plan.DuplicateRows != wantRows || plan.DuplicateKeys != wantKeys {
			t.Fatalf("duplicates = %d rows of %d keys, want %d of %d", plan.DuplicateRows, plan.DuplicateKeys, wantRows, wantKeys)
		}
		if st := plan.Steps[2]; st.Table != "xxl_job_registry" || !strings.Contains(st.What, fmt.Sprintf("remove the duplicate registrations (rows: %d, keys: %d)", wantRows, wantKeys)) {
			t.Errorf("step 3 = %+v", st)
		}
		_, err = s.ApplyUpgrade(ctx, plan, UpgradeOptions{Activity: quiet})
		if !errors.Is(err, ErrDuplicateRegistrations) || !strings.Contains(err.Error(), fmt.Sprintf("duplicate executor registrations: %d rows of xxl_job_registry", wantRows)) {
			t.Fatalf("upgrade with duplicates = %v", err)
		}
		if again, err := s.PlanUpgrade(ctx, Gen3); err != nil || !reflect.DeepEqual(again, plan) {
			t.Fatalf("the refused upgrade changed something: %+v %v", again, err)
		}
		_, err = s.ApplyUpgrade(ctx, plan, UpgradeOptions{Activity: quiet, RemoveDuplicateRegistrations: true})
		mustNoErr(t, err)
		var left []string
		rows, err := s.db.Query("SELECT id FROM xxl_job_registry ORDER BY id")
		mustNoErr(t, err)
		for rows.Next() {
			var id int
			mustNoErr(t, rows.Scan(&id))
			left = append(left, fmt.Sprint(id))
		}
		rows.Close()
		if strings.Join(left, ",") != wantLeft {
			t.Errorf("registrations left: %s, want %s", strings.Join(left, ","), wantLeft)
		}
	})
}

// TestUpgradeInterrupted: a run that stopped half-way (the first steps
// applied by hand) is finished by the next plan, which holds only the
// remaining steps.
func TestUpgradeInterrupted(t *testing.T) {
	forEachPrepared(t, func(t *testing.T, s *Store) {
		ctx := context.Background()
		fill24(t, s)
		plan, err := s.PlanUpgrade(ctx, Gen3)
		mustNoErr(t, err)
		half := len(plan.Steps) / 2
		for _, st := range plan.Steps[:half] {
			for _, stmt := range st.SQL {
				rawExec(t, s, stmt)
			}
		}
		s.dropIdleConnections() // as a new process would (pgx's statement cache)
		rest, err := s.PlanUpgrade(ctx, Gen3)
		mustNoErr(t, err)
		if !slices.Equal(stepTables(rest), stepTables(plan)[half:]) {
			t.Fatalf("plan after %d steps: %q, want %q", half, stepTables(rest), stepTables(plan)[half:])
		}
		if rest.From != Gen3 { // the user table, step 1, has its token
			t.Errorf("a half-upgraded database is placed as %s", rest.From)
		}
		_, err = s.ApplyUpgrade(ctx, plan, UpgradeOptions{Activity: quiet})
		if !errors.Is(err, ErrPlanStale) {
			t.Errorf("applying the old plan = %v, want ErrPlanStale", err)
		}
		_, err = s.ApplyUpgrade(ctx, rest, UpgradeOptions{Activity: quiet})
		mustNoErr(t, err)
		if want := fresh34(t, s.Backend()); !slices.Equal(describeSchema(t, s), want) {
			t.Errorf("finished schema differs from a fresh 3.4 one:\n%s", diffLines(describeSchema(t, s), want))
		}
	})
}

// TestUpgradePartial34: 3.x databases that lack parts of 3.4.2 get only
// those: one upgraded by the upstream notes alone lacks I_jobid and the
// unique registry key; a 3.2/3.3 one also 3.4.0's changes; a 3.4 one has
// nothing to do.
func TestUpgradePartial34(t *testing.T) {
	upstream := func(stmt string) string {
		if strings.Contains(stmt, "I_jobid ON") {
			return ""
		}
		stmt = strings.Replace(stmt, ", KEY `I_jobid` (`job_id`)", "", 1)
		return regexp.MustCompile(`(?i)UNIQUE (KEY|INDEX)( IF NOT EXISTS)? (.?i_g_k_v)`).ReplaceAllString(stmt, "$1$2 $3")
	}
	v33 := func(stmt string) string {
		if strings.Contains(stmt, "I_jobgroup ON") {
			return ""
		}
		stmt = strings.Replace(upstream(stmt), ", KEY `I_jobgroup` (`job_group`)", "", 1)
		for _, r := range [][2]string{{"varchar(64) NOT NULL COLLATE NOCASE, address_type", "varchar(12) NOT NULL COLLATE NOCASE, address_type"},
			{"`title` varchar(64)", "`title` varchar(12)"}, {"title varchar(64)", "title varchar(12)"},
			{"`executor_param` text", "`executor_param` varchar(512)"}, {"executor_param text", "executor_param varchar(512)"},
			{"`id` bigint(20) NOT NULL AUTO_INCREMENT, `registry_group`", "`id` int(11) NOT NULL AUTO_INCREMENT, `registry_group`"},
			{"id bigint GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY, registry_group", "id integer GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY, registry_group"}} {
			stmt = strings.Replace(stmt, r[0], r[1], 1)
		}
		return stmt
	}
	cases := []struct {
		name   string
		edit   func(string) string
		tables map[Backend][]string
	}{
		{"upstream notes", upstream, map[Backend][]string{
			MySQL: {"xxl_job_registry", "xxl_job_log"}, Postgres: {"xxl_job_registry", "xxl_job_log"}, SQLite: {"xxl_job_registry", "xxl_job_log"}}},
		{"3.3", v33, map[Backend][]string{
			MySQL:    {"xxl_job_group", "xxl_job_registry", "xxl_job_info", "xxl_job_log"},
			Postgres: {"xxl_job_group", "xxl_job_registry", "xxl_job_info", "xxl_job_log"},
			SQLite:   {"xxl_job_group", "xxl_job_registry", "xxl_job_info", "xxl_job_log"}}},
		{"3.4", nil, nil},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			forEachBackend(t, func(t *testing.T, s *Store) {
				ctx := context.Background()
				createByHand34(t, s, c.edit)
				rawExec(t, s, "INSERT INTO xxl_job_lock (lock_name) VALUES ('schedule_lock')")
				plan, err := s.PlanUpgrade(ctx, Gen3)
				mustNoErr(t, err)
				if plan.From != Gen3 || !slices.Equal(stepTables(plan), c.tables[s.Backend()]) {
					t.Fatalf("plan: from %s, steps on %q, want %q", plan.From, stepTables(plan), c.tables[s.Backend()])
				}
				_, err = s.ApplyUpgrade(ctx, plan, UpgradeOptions{Activity: quiet})
				mustNoErr(t, err)
				if want := fresh34(t, s.Backend()); !slices.Equal(describeSchema(t, s), want) {
					t.Errorf("upgraded schema differs from a fresh 3.4 one:\n%s", diffLines(describeSchema(t, s), want))
				}
			})
		})
	}
}

// TestUpgradeProblems: what the upgrade cannot handle stops it, named.
func TestUpgradeProblems(t *testing.T) {
	t.Run("empty", func(t *testing.T) {
		forEachBackend(t, func(t *testing.T, s *Store) {
			if _, err := s.PlanUpgrade(context.Background(), Gen3); !errors.Is(err, ErrNoSchema) {
				t.Errorf("plan on an empty database = %v", err)
			}
		})
	})
	t.Run("missing column", func(t *testing.T) {
		forEachBackend(t, func(t *testing.T, s *Store) {
			createByHand(t, s, func(stmt string) string {
				return regexp.MustCompile("`?glue_remark`? varchar\\(128\\) NOT NULL,").ReplaceAllString(stmt, "")
			})
			plan, err := s.PlanUpgrade(context.Background(), Gen3)
			mustNoErr(t, err)
			if !slices.Equal(plan.Problems, []string{"table xxl_job_logglue is missing column glue_remark"}) {
				t.Fatalf("problems = %q", plan.Problems)
			}
			if _, err := s.ApplyUpgrade(context.Background(), plan, UpgradeOptions{Activity: quiet}); !errors.Is(err, ErrUnsupportedSchema) {
				t.Errorf("apply = %v", err)
			}
		})
	})
	t.Run("unknown column", func(t *testing.T) {
		forEachPrepared(t, func(t *testing.T, s *Store) {
			ctx := context.Background()
			rawExec(t, s, "ALTER TABLE xxl_job_info ADD COLUMN team_owner varchar(64) DEFAULT NULL")
			plan, err := s.PlanUpgrade(ctx, Gen3)
			mustNoErr(t, err)
			if s.Backend() == SQLite {
				if len(plan.Problems) != 1 || !strings.Contains(plan.Problems[0], "table xxl_job_info has a column team_owner that neither xxl-job 2.4 nor 3.4 has: the SQLite upgrade rebuilds the table") {
					t.Fatalf("problems = %q", plan.Problems)
				}
				return
			}
			if len(plan.Problems) > 0 || !slices.ContainsFunc(plan.Notes, func(n string) bool { return strings.Contains(n, "team_owner") && strings.Contains(n, "it is kept") }) {
				t.Fatalf("plan = %+v", plan)
			}
			_, err = s.ApplyUpgrade(ctx, plan, UpgradeOptions{Activity: quiet, AllowUnknownColumns: true})
			mustNoErr(t, err)
			cols, err := s.d.columns(ctx, s.q, "xxl_job_info")
			mustNoErr(t, err)
			if cols["team_owner"] != "varchar(64)" {
				t.Errorf("team_owner after the upgrade: %q", cols["team_owner"])
			}
		})
	})
	t.Run("no downgrade", func(t *testing.T) {
		forEachPrepared3(t, func(t *testing.T, s *Store) {
			if _, err := s.PlanUpgrade(context.Background(), Gen2); err == nil || !strings.Contains(err.Error(), "no downgrade") {
				t.Errorf("plan to 2.4 = %v", err)
			}
		})
	})
}

// TestUpgradeKeepsExtraIndex: an operator's own index survives SQLite's
// rebuild (and the ALTERs elsewhere).
func TestUpgradeKeepsExtraIndex(t *testing.T) {
	forEachPrepared(t, func(t *testing.T, s *Store) {
		ctx := context.Background()
		rawExec(t, s, "CREATE INDEX i_my_handle ON xxl_job_log (executor_handler)")
		plan, err := s.PlanUpgrade(ctx, Gen3)
		mustNoErr(t, err)
		res, err := s.ApplyUpgrade(ctx, plan, UpgradeOptions{Activity: quiet})
		mustNoErr(t, err)
		if !slices.Equal(res.Check.Warnings, []string{"table xxl_job_log has an extra index i_my_handle (accepted)"}) {
			t.Errorf("warnings = %q", res.Check.Warnings)
		}
	})
}

// TestUpgradeFromJavaScript (MySQL): a database made by the 2.4.2
// release's own script, upgraded, has the columns and indexes of one made
// by the 3.4.2 release's script, and keeps the 2.4.2 script's comments.
func TestUpgradeFromJavaScript(t *testing.T) {
	if os.Getenv(mysqlDSNEnv) == "" {
		t.Skip(mysqlDSNEnv + " not set")
	}
	t.Parallel()
	ctx := context.Background()
	old, java34 := openMySQL(t), openMySQL(t)
	for _, stmt := range javaScript(t, "testdata/tables_xxl_job-2.4.2.sql") {
		rawExec(t, old, stmt)
	}
	for _, stmt := range javaScript34(t) {
		rawExec(t, java34, stmt)
	}
	plan, err := old.PlanUpgrade(ctx, Gen3)
	mustNoErr(t, err)
	// One ALTER; the column keeps its collation and the script's comment.
	want := regexp.MustCompile("^ALTER TABLE `xxl_job_log` MODIFY COLUMN `executor_param` text COLLATE utf8mb4_\\w+ DEFAULT NULL COMMENT '执行器任务参数', ADD KEY `I_jobgroup` \\(`job_group`\\), ADD KEY `I_jobid` \\(`job_id`\\)$")
	if got := plan.Steps[len(plan.Steps)-1].SQL; len(got) != 1 || !want.MatchString(got[0]) {
		t.Errorf("log step = %q\nwant %s", got, want)
	}
	_, err = old.ApplyUpgrade(ctx, plan, UpgradeOptions{Activity: quiet})
	mustNoErr(t, err)
	if got, want := describeSchema(t, old), describeSchema(t, java34); !slices.Equal(got, want) {
		t.Errorf("upgraded 2.4.2 script database differs from the 3.4.2 script's:\n%s", diffLines(got, want))
	}
	if c := rawString(t, old, "SELECT column_comment FROM information_schema.columns WHERE table_schema = DATABASE() AND table_name = 'xxl_job_group' AND column_name = 'title'"); c == nil || *c != "执行器名称" {
		t.Errorf("title's comment after the upgrade = %v", c)
	}
}

// javaScript reads a release's tables_xxl_job.sql as statements, without
// its CREATE DATABASE / use lines.
func javaScript(t *testing.T, file string) []string {
	t.Helper()
	raw, err := os.ReadFile(file)
	mustNoErr(t, err)
	var out []string
	for _, stmt := range strings.SplitAfter(string(raw), ";\n") {
		var lines []string
		for _, line := range strings.Split(stmt, "\n") {
			if trimmed := strings.TrimSpace(line); trimmed == "" || strings.HasPrefix(trimmed, "#") {
				continue
			}
			lines = append(lines, line)
		}
		stmt = strings.TrimSuffix(strings.TrimSpace(strings.Join(lines, "\n")), ";")
		lower := strings.ToLower(stmt)
		if stmt == "" || strings.HasPrefix(lower, "create database") || strings.HasPrefix(lower, "use ") || lower == "commit" {
			continue
		}
		out = append(out, stmt)
	}
	return out
}

// TestUpgradeFinishesHalfUpgraded: a 2.x database given the token column
// but not the wider password (3.2.0's notes half done) stops the admin,
// naming each difference and the way out; the upgrade finishes it.
func TestUpgradeFinishesHalfUpgraded(t *testing.T) {
	forEachBackend(t, func(t *testing.T, s *Store) {
		ctx := context.Background()
		createByHand(t, s, nil)
		rawExec(t, s, "ALTER TABLE xxl_job_user ADD COLUMN token varchar(100) DEFAULT NULL")
		rawExec(t, s, "ALTER TABLE xxl_job_user ADD COLUMN team varchar(10) DEFAULT NULL")
		_, err := s.Prepare(ctx, PrepareOptions{})
		for _, want := range []string{"column xxl_job_user.password is varchar(50) beside the 3.x token column",
			"table xxl_job_user has a column team that neither xxl-job 2.4 nor 3.4 has", "`xxl-admin-go db upgrade --to 3.4 --dry-run` lists what is missing"} {
			if !errors.Is(err, ErrUnsupportedSchema) || !strings.Contains(err.Error(), want) {
				t.Errorf("Prepare = %v, want it to name %q", err, want)
			}
		}
		rawExec(t, s, "ALTER TABLE xxl_job_user DROP COLUMN team")
		plan, err := s.PlanUpgrade(ctx, Gen3)
		mustNoErr(t, err)
		if plan.From != Gen3 || !strings.HasPrefix(plan.Steps[0].What, "xxl_job_user: password varchar(50) → varchar(100) (3.2.0)") ||
			strings.Contains(plan.Steps[0].What, "add column token") {
			t.Fatalf("plan = %+v", plan)
		}
		_, err = s.ApplyUpgrade(ctx, plan, UpgradeOptions{Activity: quiet})
		mustNoErr(t, err)
	})
}
