package schema

import (
	"fmt"
	"maps"
	"strings"
)

// Generation is the xxl-job schema generation a database holds. The
// database decides it (Prepare reads it before anything else runs); the
// admin then behaves as that generation's Java admin: 2.4 (xxl-job 2.3 and
// 2.4: MD5 passwords, cookie login, context path /xxl-job-admin) or 3.4
// (xxl-job 3.x: SHA-256 passwords and a login token in xxl_job_user, the
// Response envelope, context path /).
type Generation string

// The two generations (schema.md §1 for 2.4; spec/schema-3.4.2.sql for 3.4).
const (
	Gen2 Generation = "2.4"
	Gen3 Generation = "3.4"
)

// ParseGeneration reads a generation as an operator writes it
// (xxl.job.schema, db upgrade --to): "2.4", "2", "2.x", "3.4", "3", "3.x".
func ParseGeneration(v string) (Generation, error) {
	switch strings.ToLower(strings.TrimSpace(v)) {
	case "2.4", "2", "2.x", "2.3":
		return Gen2, nil
	case "3.4", "3", "3.x":
		return Gen3, nil
	}
	return "", fmt.Errorf("unknown schema generation %q (use 2.4 or 3.4)", v)
}

// Major is 2 or 3.
func (g Generation) Major() int {
	if g == Gen3 {
		return 3
	}
	return 2
}

// String names the generation with the Java release whose tables it has.
func (g Generation) String() string {
	if g == "" {
		return string(Gen2)
	}
	return string(g)
}

// tables24 is the 2.4.x schema (2.3.x is identical): table → column →
// MySQL type as declared in tables_xxl_job.sql (schema.md §1).
var tables24 = map[string]map[string]string{
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

// changes34 are the columns 3.4.2 declares differently from 2.4.2 or adds
// (spec/schema-3.4.2.sql; release notes 3.2.0 and 3.4.0): the SHA-256
// password and the login token, 64-character executor titles, long job
// parameters and 64-bit registry ids.
var changes34 = map[string]map[string]string{
	"xxl_job_user":     {"password": "varchar(100)", "token": "varchar(100)"},
	"xxl_job_group":    {"title": "varchar(64)"},
	"xxl_job_registry": {"id": "bigint"},
	"xxl_job_info":     {"executor_param": "text"},
	"xxl_job_log":      {"executor_param": "text"},
}

// tables34 is the 3.4.2 schema: tables24 with changes34.
var tables34 = func() map[string]map[string]string {
	out := make(map[string]map[string]string, len(tables24))
	for t, cols := range tables24 {
		out[t] = maps.Clone(cols)
		maps.Copy(out[t], changes34[t])
	}
	return out
}()

// indexes24 and indexes34 are the index names each script creates
// (lower case: MySQL reports them as declared, PostgreSQL folds them).
var (
	indexes24 = map[string]bool{"primary": true, "i_trigger_time": true, "i_handle_code": true,
		"i_trigger_day": true, "i_g_k_v": true, "i_username": true}
	indexes34 = func() map[string]bool {
		out := maps.Clone(indexes24)
		out["i_jobgroup"], out["i_jobid"] = true, true
		return out
	}()
)

// tablesOf and indexesOf give a generation's columns and index names.
func tablesOf(g Generation) map[string]map[string]string {
	if g == Gen3 {
		return tables34
	}
	return tables24
}

func indexesOf(g Generation) map[string]bool {
	if g == Gen3 {
		return indexes34
	}
	return indexes24
}

// ColScheduleTimezone is xxl_job_info's optional per-job time zone, with
// the name, type and meaning issue 23 §2 gives it: NULL is the admin's own
// zone, otherwise an IANA id CRON next times are computed in (other
// schedule types ignore it). Java admins up to 3.4.2 neither read nor
// write it. (The one upstream pull request found, xuxueli/xxl-job#3950,
// closed unmerged, spelt it schedule_time_zone varchar(50) and stored the
// admin's zone instead of NULL on add.)
const ColScheduleTimezone = "schedule_timezone"

// optionalColumns are columns neither Java script creates that the admin
// knows the meaning of, with their MySQL types; they may be present or not.
var optionalColumns = map[string]map[string]string{
	"xxl_job_info": {ColScheduleTimezone: "varchar(64)"},
}

// knownColumn tells whether a column belongs to either generation or is a
// known optional one.
func knownColumn(table, column string) bool {
	if _, ok := tables24[table][column]; ok {
		return true
	}
	if _, ok := tables34[table][column]; ok {
		return true
	}
	_, ok := optionalColumns[table][column]
	return ok
}

// detectGeneration places an existing schema: xxl_job_user.token exists
// only from 3.2.0 on (the SHA-256 login), and every later 3.x release reads
// and writes it, so its presence decides (schema.md §5.2).
func detectGeneration(found map[string]map[string]string) Generation {
	if _, ok := found["xxl_job_user"]["token"]; ok {
		return Gen3
	}
	return Gen2
}

// Shape is what Prepare learnt about the database that the statements
// depend on. It is shared by a Store and the Stores of its transactions.
type Shape struct {
	Generation Generation
	// RegistryUnique: xxl_job_registry has the unique key on (group, key,
	// value) of 3.4.2, so a registration is inserted with an upsert (two
	// admins inserting the same new registration at once must not fail
	// one beat, and on PostgreSQL a refused insert would abort the shared
	// transaction of the group commit).
	RegistryUnique bool
	// ScheduleBatch is the jobs per schedule write-back statement (0: the
	// default); not found but configured (SetScheduleBatchSize).
	ScheduleBatch int
	// ScheduleTimezone: xxl_job_info has the optional schedule_timezone
	// column, so jobs are read and written with it.
	ScheduleTimezone bool
	// LogJobIndex: xxl_job_log has I_jobid (3.4.2's, or db tune's), which
	// the log list of one job picks on MySQL (store_log_list.go).
	LogJobIndex bool
	// LogTimeIndex: xxl_job_log has I_trigger_time (both generations'
	// scripts create it; a list never names an index the table lacks).
	LogTimeIndex bool
	// LogCodeIndex: xxl_job_log has I_handle_code (both generations'), whose
	// entries (handle_code, id) a deep page of 3.4.2's list counts
	// (store_log_deep.go).
	LogCodeIndex bool
}
