package consolereplay

import (
	"context"
	"fmt"
	"regexp"
	"sort"
	"time"

	sq "github.com/Masterminds/squirrel"
)

// dbQuery is how the recorder read one db_after label: the table, the
// filter, the order. Its columns are the recorded row's keys.
type dbQuery struct {
	table    string
	where    func(ex Exchange, body []byte) sq.Sqlizer // nil: every row
	order    string
	limit    uint64
	fallback []string // columns when the recorded list is empty
}

// byFormID filters on the id the request named.
func byFormID(column string) func(Exchange, []byte) sq.Sqlizer {
	return func(ex Exchange, _ []byte) sq.Sqlizer { return sq.Eq{column: formValue(ex.Request.Form, "id")} }
}

// byID filters on one fixed id.
func byID(id int) func(Exchange, []byte) sq.Sqlizer {
	return func(Exchange, []byte) sq.Sqlizer { return sq.Eq{"id": id} }
}

// dbQueries are the recorders' db_after reads, by label (both
// generations; the 3.4.2 recorder reads every column with them).
var dbQueries = map[string]dbQuery{
	"groups": {table: "xxl_job_group", order: "id"},
	"users":  {table: "xxl_job_user", order: "id"},
	"user1":  {table: "xxl_job_user", where: byID(1)},
	"user3":  {table: "xxl_job_user", where: byID(3)},
	"user61": {table: "xxl_job_user", where: byID(61)},
	// job: the jobs the request named (id, or 3.4.2's ids[]), or the one
	// /jobinfo/add (/jobinfo/insert) created.
	"job": {table: "xxl_job_info", order: "id", where: func(ex Exchange, body []byte) sq.Sqlizer {
		if id := formValue(ex.Request.Form, "id"); id != "" {
			return sq.Eq{"id": id}
		}
		if ids := formValues(ex.Request.Form, "ids[]"); len(ids) > 0 {
			return sq.Eq{"id": ids}
		}
		return sq.Eq{"id": jsonContent(body)}
	}},
	// log: the log row the request named (/joblog/logKill).
	"log":         {table: "xxl_job_log", where: byFormID("id")},
	"job8":        {table: "xxl_job_info", where: byID(8), fallback: []string{"id"}},
	"versions":    {table: "xxl_job_logglue", where: byFormID("job_id"), order: "id"},
	"group4_logs": {table: "xxl_job_log", where: func(Exchange, []byte) sq.Sqlizer { return sq.Eq{"job_group": 4} }, order: "id", fallback: []string{"id", "trigger_time"}},
	"newest_log":  {table: "xxl_job_log", order: "id DESC", limit: 1},
}

var columnNameRe = regexp.MustCompile(`^[a-z_]+$`)

// formValues are every value of a form field, in order.
func formValues(form [][2]string, name string) []string {
	var out []string
	for _, kv := range form {
		if kv[0] == name {
			out = append(out, kv[1])
		}
	}
	return out
}

func formValue(form [][2]string, name string) string {
	for _, kv := range form {
		if kv[0] == name {
			return kv[1]
		}
	}
	return ""
}

// triggerWait bounds the wait for an asynchronous trigger's log row.
const triggerWait = 5 * time.Second

// after reads every db_after label of an exchange, the columns of the
// recorded rows. newest_log belongs to a "run once", which the admin
// performs asynchronously: it waits for a row newer than logBefore whose
// trigger result is written (the 2.4.2 recorder slept two seconds
// instead), then for the next second.
func (d *DB) after(ctx context.Context, ex Exchange, body []byte, logBefore int64) (map[string][]map[string]*string, error) {
	out := map[string][]map[string]*string{}
	for label, recorded := range ex.DBAfter {
		q, ok := dbQueries[label]
		if !ok {
			return nil, fmt.Errorf("db_after label %q: no query known", label)
		}
		cols := q.fallback
		if len(recorded) > 0 {
			cols = cols[:0:0]
			for c := range recorded[0] {
				cols = append(cols, c)
			}
			sort.Strings(cols)
		}
		rows, err := d.readLabel(ctx, label, q, cols, ex, body, logBefore)
		if err != nil {
			return nil, err
		}
		out[label] = rows
	}
	return out, nil
}

// Snapshot reads db_after labels as a recorder does: every column of the
// rows the label's query selects, right after the exchange ex whose answer
// was body (logBefore: MaxLogID before it, for newest_log).
func (d *DB) Snapshot(ctx context.Context, labels []string, ex Exchange, body []byte, logBefore int64) (map[string][]map[string]*string, error) {
	out := map[string][]map[string]*string{}
	for _, label := range labels {
		q, ok := dbQueries[label]
		if !ok {
			return nil, fmt.Errorf("db_after label %q: no query known", label)
		}
		rows, err := d.readLabel(ctx, label, q, []string{"*"}, ex, body, logBefore)
		if err != nil {
			return nil, err
		}
		out[label] = rows
	}
	return out, nil
}

// KnownLabel reports whether a db_after label has a query.
func KnownLabel(label string) bool {
	_, ok := dbQueries[label]
	return ok
}

func (d *DB) readLabel(ctx context.Context, label string, q dbQuery, cols []string, ex Exchange, body []byte, logBefore int64) ([]map[string]*string, error) {
	for _, c := range cols {
		if c != "*" && !columnNameRe.MatchString(c) {
			return nil, fmt.Errorf("db_after label %q: bad column %q", label, c)
		}
	}
	sel := sq.Select(cols...).From(q.table)
	if q.where != nil {
		sel = sel.Where(q.where(ex, body))
	}
	if q.order != "" {
		sel = sel.OrderBy(q.order)
	}
	if q.limit > 0 {
		sel = sel.Limit(q.limit)
	}
	var rows []map[string]*string
	var err error
	if label == "newest_log" {
		rows, err = d.waitTriggered(ctx, sel, logBefore)
	} else {
		rows, err = d.Rows(ctx, sel)
	}
	if err != nil {
		return nil, fmt.Errorf("db_after %s: %w", label, err)
	}
	return rows, nil
}

func (d *DB) waitTriggered(ctx context.Context, sel sq.SelectBuilder, logBefore int64) ([]map[string]*string, error) {
	deadline := time.Now().Add(triggerWait)
	for {
		state, err := d.Rows(ctx, sq.Select("id", "trigger_code").From("xxl_job_log").Where(sq.Gt{"id": logBefore}).
			OrderBy("id DESC").Limit(1))
		if err != nil {
			return nil, err
		}
		if len(state) == 1 && deref(state[0]["trigger_code"]) != "0" {
			rows, err := d.Rows(ctx, sel)
			if err != nil {
				return nil, err
			}
			return rows, nextSecond(ctx)
		}
		if time.Now().After(deadline) {
			return d.Rows(ctx, sel) // compared as it is: the mismatch shows what is missing
		}
		select {
		case <-ctx.Done():
			return nil, ctx.Err()
		case <-time.After(50 * time.Millisecond):
		}
	}
}

// nextSecond waits for the next whole second. The recorder slept two
// seconds after each "run once"; log lists sort by trigger_time, which has
// whole seconds, so the next trigger must fall in a later second for rows
// to come in the recorded order.
func nextSecond(ctx context.Context) error {
	wait := time.Until(time.Now().Truncate(time.Second).Add(time.Second))
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-time.After(wait):
		return nil
	}
}

// MaxLogID is the newest log id (0 when there is none).
func (d *DB) MaxLogID(ctx context.Context) (int64, error) {
	var id int64
	if err := d.SQL.QueryRowContext(ctx, "SELECT COALESCE(MAX(id), 0) FROM xxl_job_log").Scan(&id); err != nil {
		return 0, fmt.Errorf("newest log id: %w", err)
	}
	return id, nil
}
