package schema

import (
	"strings"

	sq "github.com/Masterminds/squirrel"
)

// caseBatch is one UPDATE that writes different values to many rows picked
// by id:
//
//	UPDATE t SET c = CASE id WHEN ? THEN ? … END, …
//	WHERE id IN (…) [AND m = CASE id WHEN ? THEN ? … END …] [where]
//
// One statement instead of one per row: per-row round trips and parses
// cost MariaDB about as much as the rest of the trigger. Every value is
// typed as its column (see dialect.typedParam), and the table is named for
// a lookup by primary key (dialect.byID). Ids must be distinct: CASE takes
// the first WHEN of an id, so callers keep the row they mean.
type caseBatch struct {
	table string
	ids   []any
	// set are the columns written; row i gets values[i][c] for set[c].
	set []string
	// match are columns whose value a row must still hold to be written
	// (a compare-and-set); row i's are values[i][len(set)+k] for match[k].
	// WHERE sees the row before SET, so these compare the values read.
	match  []string
	values [][]any
	// where is a fixed extra condition (may be "").
	where string
	// types are the columns' MySQL types for a table other than the
	// xxl_job_* ones (nil: tables24's).
	types map[string]string
}

func (c caseBatch) build(d dialect) sq.Sqlizer {
	var b strings.Builder
	cols := len(c.set) + len(c.match)
	args := make([]any, 0, len(c.ids)*(2*cols+1))
	caseOf := func(k int, column string) {
		b.WriteString(column)
		b.WriteString(" = CASE id")
		typ := tables24[c.table][column]
		if c.types != nil {
			typ = c.types[column]
		}
		then := " WHEN ? THEN " + d.typedParam(typ)
		for i, id := range c.ids {
			b.WriteString(then)
			args = append(args, id, c.values[i][k])
		}
		b.WriteString(" END")
	}
	b.WriteString("UPDATE " + d.byID(c.table) + " SET ")
	for k, column := range c.set {
		if k > 0 {
			b.WriteString(", ")
		}
		caseOf(k, column)
	}
	b.WriteString(" WHERE id IN (")
	for i, id := range c.ids {
		if i > 0 {
			b.WriteString(",")
		}
		b.WriteString("?")
		args = append(args, id)
	}
	b.WriteString(")")
	for k, column := range c.match {
		b.WriteString(" AND ")
		caseOf(len(c.set)+k, column)
	}
	b.WriteString(c.where)
	return sq.Expr(b.String(), args...)
}
