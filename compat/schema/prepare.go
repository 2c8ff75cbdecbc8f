package schema

import (
	"context"
	"errors"
	"fmt"
	"regexp"
	"sort"
	"strconv"
	"strings"
)

// expectedTables is the 2.4.x schema (2.3.x is identical): table → column →
// MySQL type as declared in tables_xxl_job.sql (schema.md §1).
var expectedTables = map[string]map[string]string{
	"xxl_job_info": {"id": "int", "job_group": "int", "job_desc": "varchar(255)", "add_time": "datetime",
		"update_time": "datetime", "author": "varchar(64)", "alarm_email": "varchar(255)", "schedule_type": "varchar(50)",
		"schedule_conf": "varchar(128)", "misfire_strategy": "varchar(50)", "executor_route_strategy": "varchar(50)",
		"executor_handler": "varchar(255)", "executor_param": "varchar(512)", "executor_block_strategy": "varchar(50)",
		"executor_timeout": "int", "executor_fail_retry_count": "int", "glue_type": "varchar(50)", "glue_source": "mediumtext",
		"glue_remark": "varchar(128)", "glue_updatetime": "datetime", "child_jobid": "varchar(255)",
		"trigger_status": "tinyint", "trigger_last_time": "bigint", "trigger_next_time": "bigint"},
	"xxl_job_log": {"id": "bigint", "job_group": "int", "job_id": "int", "executor_address": "varchar(255)",
		"executor_handler": "varchar(255)", "executor_param": "varchar(512)", "executor_sharding_param": "varchar(20)",
		"executor_fail_retry_count": "int", "trigger_time": "datetime", "trigger_code": "int", "trigger_msg": "text",
		"handle_time": "datetime", "handle_code": "int", "handle_msg": "text", "alarm_status": "tinyint"},
	"xxl_job_log_report": {"id": "int", "trigger_day": "datetime", "running_count": "int", "suc_count": "int",
		"fail_count": "int", "update_time": "datetime"},
	"xxl_job_logglue": {"id": "int", "job_id": "int", "glue_type": "varchar(50)", "glue_source": "mediumtext",
		"glue_remark": "varchar(128)", "add_time": "datetime", "update_time": "datetime"},
	"xxl_job_registry": {"id": "int", "registry_group": "varchar(50)", "registry_key": "varchar(255)",
		"registry_value": "varchar(255)", "update_time": "datetime"},
	"xxl_job_group": {"id": "int", "app_name": "varchar(64)", "title": "varchar(12)", "address_type": "tinyint",
		"address_list": "text", "update_time": "datetime"},
	"xxl_job_user": {"id": "int", "username": "varchar(50)", "password": "varchar(50)", "role": "tinyint",
		"permission": "varchar(255)"},
	"xxl_job_lock": {"lock_name": "varchar(50)"},
}

// expectedIndexes are the index names the 2.4.x script creates.
var expectedIndexes = map[string]bool{"primary": true, "i_trigger_time": true, "i_handle_code": true,
	"i_trigger_day": true, "i_g_k_v": true, "i_username": true}

// ErrUnsupportedSchema marks a database this admin must not run against.
var ErrUnsupportedSchema = errors.New("unsupported schema")

// PrepareResult says what Prepare found and did, for the start-up log.
type PrepareResult struct {
	Created      bool     // the tables and seed rows were created
	LockInserted bool     // the missing schedule_lock row was inserted
	Warnings     []string // accepted differences (widened types, extra indexes)
}

// Prepare makes the database usable without ever altering existing tables:
// an empty database gets the 2.4.x tables and seed rows; an existing one is
// checked (a missing table or column, or a 3.x schema, is refused) and only
// a missing schedule_lock row is added, since without it Java and Go admins
// alike pre-read the same jobs and fire them twice.
//
// Admins starting at the same moment on an empty database all come up: on
// MySQL they take turns under a named lock (prepare_lock.go); elsewhere the
// creation is one transaction, which checkAndCreate looks at a second time.
func (s *Store) Prepare(ctx context.Context) (PrepareResult, error) {
	if s.d.backend() == MySQL {
		return s.prepareLocked(ctx)
	}
	return s.checkAndCreate(ctx)
}

func (s *Store) checkAndCreate(ctx context.Context) (PrepareResult, error) {
	var res PrepareResult
	found, err := s.inspect(ctx)
	if err != nil {
		return res, err
	}
	if n := len(found); n > 0 && n < len(expectedTables) && s.d.transactionalDDL() {
		// inspect reads table by table: another admin's creation, one
		// transaction, committed in between. Having seen a table of it,
		// a second look sees all of them.
		if found, err = s.inspect(ctx); err != nil {
			return res, err
		}
	}
	if len(found) == 0 {
		if err := s.create(ctx); err != nil {
			// Another admin starting at the same moment may have won the race.
			if again, ierr := s.inspect(ctx); ierr == nil && len(again) == len(expectedTables) {
				found = again
			} else {
				return res, err
			}
		} else {
			res.Created = true
			return res, nil
		}
	}
	if err := checkColumns(found, s.d.columnType, &res); err != nil {
		return res, err
	}
	for table := range expectedTables {
		idx, err := s.d.indexes(ctx, s.q, table)
		if err != nil {
			return res, err
		}
		for _, name := range idx {
			if !expectedIndexes[strings.ToLower(name)] && !strings.HasPrefix(name, "sqlite_autoindex") {
				res.Warnings = append(res.Warnings, fmt.Sprintf("table %s has an extra index %s (accepted)", table, name))
			}
		}
	}
	sort.Strings(res.Warnings)
	inserted, err := s.ensureScheduleLock(ctx)
	res.LockInserted = inserted
	return res, err
}

func (s *Store) inspect(ctx context.Context) (map[string]map[string]string, error) {
	found := map[string]map[string]string{}
	for table := range expectedTables {
		cols, err := s.d.columns(ctx, s.q, table)
		if err != nil {
			return nil, fmt.Errorf("inspect schema: %w", err)
		}
		if len(cols) > 0 {
			found[table] = cols
		}
	}
	return found, nil
}

// checkColumns compares the found columns with the 2.4.x ones, whose types
// columnType spells as the backend's DDL declares them.
func checkColumns(found map[string]map[string]string, columnType func(string) string, res *PrepareResult) error {
	if cols, ok := found["xxl_job_user"]; ok {
		if _, has := cols["token"]; has {
			return fmt.Errorf("%w: this database has the xxl-job 3.x schema (xxl_job_user.token, SHA-256 passwords); 3.x schemas are not supported yet, use a 2.3/2.4 database", ErrUnsupportedSchema)
		}
	}
	var problems []string
	for _, table := range sortedKeys(expectedTables) {
		cols, ok := found[table]
		if !ok {
			problems = append(problems, fmt.Sprintf("table %s is missing", table))
			continue
		}
		for _, col := range sortedKeys(expectedTables[table]) {
			want := columnType(expectedTables[table][col])
			got, ok := cols[col]
			if !ok {
				problems = append(problems, fmt.Sprintf("table %s is missing column %s", table, col))
				continue
			}
			if !sameType(got, want) {
				how := "differs"
				if isWidened(got, want) {
					how = "widened"
				}
				res.Warnings = append(res.Warnings, fmt.Sprintf("column %s.%s is %s, expected %s (%s, accepted)", table, col, got, want, how))
			}
		}
	}
	if len(problems) > 0 {
		return fmt.Errorf("%w: %s; create the 2.4.x tables (doc/db/tables_xxl_job.sql) or start on an empty database", ErrUnsupportedSchema, strings.Join(problems, "; "))
	}
	return nil
}

var displayWidth = regexp.MustCompile(`^(tinyint|smallint|mediumint|int|integer|bigint)\(\d+\)`)

// normalizeType drops integer display widths (MySQL 8 no longer reports them).
func normalizeType(t string) string {
	t = strings.ToLower(strings.TrimSpace(t))
	t = displayWidth.ReplaceAllString(t, "$1")
	return t
}

// sameType compares a found column type with the expected one. SQLite's
// rowid alias must be spelled INTEGER, which stands for any integer width.
func sameType(got, want string) bool {
	g := normalizeType(got)
	return g == want || (strings.EqualFold(strings.TrimSpace(got), "integer") && (want == "int" || want == "bigint"))
}

// isWidened tells a longer varchar or a varchar turned text (as 3.x does)
// from other differences, for the warning text.
func isWidened(got, want string) bool {
	g, w := normalizeType(got), normalizeType(want)
	gn, gok := varcharLen(g)
	wn, wok := varcharLen(w)
	if gok && wok {
		return gn > wn
	}
	return wok && (g == "text" || g == "mediumtext" || g == "longtext")
}

func varcharLen(t string) (int, bool) {
	inner, ok := strings.CutPrefix(t, "varchar(")
	if !ok {
		return 0, false
	}
	n, err := strconv.Atoi(strings.TrimSuffix(inner, ")"))
	return n, err == nil
}

func sortedKeys[V any](m map[string]V) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}
