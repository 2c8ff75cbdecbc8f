package schema

import (
	"context"
	"fmt"
	"strings"
)

// The workflow tables (core/workflow, docs/workflows.md) are ours like
// PendingTable: no Java admin reads or writes them, the schema check does
// not inspect them and `db upgrade` leaves them alone. They are created at
// start when workflows are on (PrepareOptions.Workflows). Times are Unix
// milliseconds, as in PendingTable, so that no column depends on the
// database's or the connection's zone.
const (
	WorkflowTable        = "xxl_job_workflow"
	WorkflowRunTable     = "xxl_job_workflow_run"
	WorkflowNodeRunTable = "xxl_job_workflow_node_run"
	WorkflowNodeLogTable = "xxl_job_workflow_node_log"
	WorkflowAlarmTable   = "xxl_job_workflow_alarm"
	// WorkflowParentTable records each parent log a workflow started
	// after (schedule type JOB): one row per workflow and log, whether it
	// started a run or its concurrency policy skipped it. Added after the
	// first release of the others; EnsureWorkflowTables creates it beside
	// them on a database that has the older four.
	WorkflowParentTable = "xxl_job_workflow_parent"
)

// wfColumn is a column of a workflow table in a backend-neutral spelling:
// typ is one of "id" (the generated key), "int", "bigint", "varchar(n)",
// "text" or "longtext".
type wfColumn struct {
	name, typ, null string // null: "NOT NULL", "NOT NULL DEFAULT …" or "DEFAULT NULL"
}

type wfIndex struct {
	name   string
	unique bool
	cols   string
}

type wfTable struct {
	name    string
	cols    []wfColumn
	indexes []wfIndex
	// key is the primary key when the table has no generated id.
	key string
}

var workflowTables = []wfTable{
	{name: WorkflowTable, cols: []wfColumn{
		{"id", "id", ""}, {"job_group", "int", "NOT NULL"}, {"name", "varchar(255)", "NOT NULL"},
		{"author", "varchar(64)", "DEFAULT NULL"}, {"graph", "longtext", "NOT NULL"}, {"params", "text", "DEFAULT NULL"},
		{"schedule_type", "varchar(50)", "NOT NULL DEFAULT 'NONE'"}, {"schedule_conf", "varchar(128)", "DEFAULT NULL"},
		{"schedule_timezone", "varchar(64)", "DEFAULT NULL"}, {"misfire_strategy", "varchar(50)", "NOT NULL DEFAULT 'DO_NOTHING'"},
		{"concurrency", "varchar(16)", "NOT NULL DEFAULT 'SKIP'"}, {"max_parallel", "int", "NOT NULL DEFAULT 1"},
		{"enabled", "int", "NOT NULL DEFAULT 0"}, {"trigger_last_time", "bigint", "NOT NULL DEFAULT 0"},
		{"trigger_next_time", "bigint", "NOT NULL DEFAULT 0"}, {"add_time", "bigint", "NOT NULL"}, {"update_time", "bigint", "NOT NULL"},
	}, indexes: []wfIndex{{"i_workflow_group", false, "job_group"}, {"i_workflow_next", false, "enabled, trigger_next_time"}}},
	{name: WorkflowRunTable, cols: []wfColumn{
		{"id", "id", ""}, {"workflow_id", "int", "NOT NULL"}, {"state", "varchar(16)", "NOT NULL"},
		{"trigger_type", "varchar(16)", "NOT NULL"}, {"graph", "longtext", "NOT NULL"}, {"params", "text", "DEFAULT NULL"},
		{"schedule_time", "bigint", "NOT NULL"}, {"start_time", "bigint", "NOT NULL DEFAULT 0"},
		{"end_time", "bigint", "NOT NULL DEFAULT 0"}, {"msg", "varchar(512)", "DEFAULT NULL"}, {"add_time", "bigint", "NOT NULL"},
	}, indexes: []wfIndex{{"i_workflow_run_wf", false, "workflow_id, state"}, {"i_workflow_run_state", false, "state"}}},
	{name: WorkflowNodeRunTable, cols: []wfColumn{
		{"id", "id", ""}, {"run_id", "bigint", "NOT NULL"}, {"node_id", "int", "NOT NULL"}, {"job_id", "int", "NOT NULL"},
		{"state", "varchar(16)", "NOT NULL"}, {"attempt", "int", "NOT NULL DEFAULT 0"}, {"retries", "int", "NOT NULL DEFAULT 0"},
		{"log_id", "bigint", "NOT NULL DEFAULT 0"}, {"executor_param", "text", "DEFAULT NULL"},
		{"msg", "varchar(512)", "DEFAULT NULL"}, {"update_time", "bigint", "NOT NULL"},
	}, indexes: []wfIndex{{"i_workflow_node_run", true, "run_id, node_id"}}},
	{name: WorkflowNodeLogTable, key: "log_id", cols: []wfColumn{
		{"log_id", "bigint", "NOT NULL"}, {"node_run_id", "bigint", "NOT NULL"}, {"attempt", "int", "NOT NULL"},
		{"shard_index", "int", "NOT NULL DEFAULT 0"}, {"shard_total", "int", "NOT NULL DEFAULT 1"},
		{"result", "int", "NOT NULL DEFAULT 0"},
	}, indexes: []wfIndex{{"i_workflow_node_log", false, "node_run_id, attempt"}}},
	// One row per failure of a run, written in the transaction that ends
	// the run FAILED; status as xxl_job_log.alarm_status.
	{name: WorkflowAlarmTable, cols: []wfColumn{
		{"id", "id", ""}, {"run_id", "bigint", "NOT NULL"}, {"status", "int", "NOT NULL DEFAULT 0"},
		{"update_time", "bigint", "NOT NULL"},
	}, indexes: []wfIndex{{"i_workflow_alarm_status", false, "status"}}},
	// The key (workflow_id, log_id) is what makes a parent's success
	// start a workflow once, whichever admin and path sees it first.
	{name: WorkflowParentTable, key: "workflow_id, log_id", cols: []wfColumn{
		{"workflow_id", "int", "NOT NULL"}, {"log_id", "bigint", "NOT NULL"}, {"run_id", "bigint", "NOT NULL DEFAULT 0"},
		{"add_time", "bigint", "NOT NULL"},
	}, indexes: []wfIndex{{"i_workflow_parent_run", false, "run_id"}}},
}

// ddl is the table's CREATE statements on the backend.
func (t wfTable) ddl(b Backend) []string {
	var cols []string
	for _, c := range t.cols {
		cols = append(cols, strings.TrimSpace(c.name+" "+wfType(b, c.typ)+" "+c.null))
	}
	switch {
	case t.key != "":
		cols = append(cols, "PRIMARY KEY ("+t.key+")")
	case b == MySQL:
		cols = append(cols, "PRIMARY KEY (id)")
	}
	if b == MySQL {
		for _, ix := range t.indexes {
			kind := "KEY"
			if ix.unique {
				kind = "UNIQUE KEY"
			}
			cols = append(cols, fmt.Sprintf("%s %s (%s)", kind, ix.name, ix.cols))
		}
		return []string{"CREATE TABLE IF NOT EXISTS " + t.name + " (" + strings.Join(cols, ", ") + ") ENGINE=InnoDB DEFAULT CHARSET=utf8mb4"}
	}
	out := []string{"CREATE TABLE IF NOT EXISTS " + t.name + " (" + strings.Join(cols, ", ") + ")"}
	for _, ix := range t.indexes {
		unique := ""
		if ix.unique {
			unique = "UNIQUE "
		}
		out = append(out, fmt.Sprintf("CREATE %sINDEX IF NOT EXISTS %s ON %s (%s)", unique, ix.name, t.name, ix.cols))
	}
	return out
}

// wfType spells a neutral column type on the backend.
func wfType(b Backend, typ string) string {
	switch {
	case typ == "id" && b == MySQL:
		return "bigint NOT NULL AUTO_INCREMENT"
	case typ == "id" && b == Postgres:
		return "bigint GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY"
	case typ == "id":
		return "INTEGER PRIMARY KEY AUTOINCREMENT"
	case typ == "longtext" && b == MySQL:
		return "mediumtext"
	case typ == "longtext":
		return "text"
	}
	return typ
}

// EnsureWorkflowTables creates the workflow tables that are missing and
// checks the columns of those that exist; PrepareResult.WorkflowCreated
// tells whether it created any.
func (s *Store) EnsureWorkflowTables(ctx context.Context) (created bool, err error) {
	for _, t := range workflowTables {
		cols, err := s.d.columns(ctx, s.q, t.name)
		if err != nil {
			return created, fmt.Errorf("inspect %s: %w", t.name, err)
		}
		if len(cols) > 0 {
			var missing []string
			for _, c := range t.cols {
				if _, ok := cols[c.name]; !ok {
					missing = append(missing, c.name)
				}
			}
			if len(missing) > 0 {
				return created, fmt.Errorf("%w: table %s lacks column(s) %s; it is a table of this admin's workflows, which no Java admin reads",
					ErrUnsupportedSchema, t.name, strings.Join(missing, ", "))
			}
			continue
		}
		if err := s.createTable(ctx, t.name, t.ddl(s.d.backend())); err != nil {
			return created, err
		}
		created = true
	}
	return created, nil
}

// createTable runs a table's statements, in one transaction where DDL is
// transactional; another admin that created it at the same moment is
// not an error.
func (s *Store) createTable(ctx context.Context, name string, stmts []string) error {
	create := func(q runner) error {
		for _, stmt := range stmts {
			if _, err := q.ExecContext(ctx, stmt); err != nil {
				return fmt.Errorf("create %s: %w", name, err)
			}
		}
		return nil
	}
	var err error
	if s.d.transactionalDDL() {
		err = s.WithTx(ctx, func(tx *Store) error { return create(tx.q) })
	} else {
		err = create(s.q)
	}
	if err != nil {
		if again, ierr := s.d.columns(ctx, s.q, name); ierr == nil && len(again) > 0 {
			return nil
		}
	}
	return err
}
