package schema

import (
	"context"
	"fmt"
	"sort"
	"strings"
)

// The statements of each upgrade step, per backend: MySQL changes a table
// with one ALTER (the log table is copied once, whatever it lacks);
// PostgreSQL alters the column types (varchar to a longer varchar or text
// needs no rewrite) and creates the indexes; SQLite, whose ALTER cannot
// change a column, rebuilds the table from createTables(Gen3)'s statement.

// upgradeSteps are the steps of one table: the removal of duplicate
// registrations, when there are some, then the table's changes.
func (s *Store) upgradeSteps(ctx context.Context, u *tableUpgrade, cols map[string]string, p *UpgradePlan) ([]UpgradeStep, error) {
	rows, err := s.tableRows(ctx, u.table)
	if err != nil {
		return nil, err
	}
	var steps []UpgradeStep
	if u.dupRows > 0 {
		steps = append(steps, UpgradeStep{Table: u.table, Rows: rows, SQL: []string{s.dedupeSQL()},
			What: fmt.Sprintf("%s: remove the duplicate registrations (rows: %d, keys: %d), keeping the newest row of each key (the unique key refuses them; executors register again within 30 s)", u.table, p.DuplicateRows, p.DuplicateKeys)})
	}
	var stmts []string
	switch s.d.backend() {
	case MySQL:
		stmts, err = s.mysqlUpgrade(ctx, u)
	case Postgres:
		stmts = postgresUpgrade(u)
	case SQLite:
		stmts, err = s.sqliteUpgrade(ctx, u, cols)
	}
	if err != nil {
		return nil, err
	}
	return append(steps, UpgradeStep{Table: u.table, What: u.describe(), SQL: stmts, Rows: rows}), nil
}

func (s *Store) tableRows(ctx context.Context, table string) (int64, error) {
	var n int64
	if err := s.q.QueryRowContext(ctx, "SELECT count(1) FROM "+table).Scan(&n); err != nil {
		return 0, fmt.Errorf("count rows of %s: %w", table, err)
	}
	return n, nil
}

// newerRegistration is true when row n is newer than row r of the same
// key: a later update_time (none is oldest), then a larger id.
const newerRegistration = `(n.update_time > r.update_time OR (r.update_time IS NULL AND n.update_time IS NOT NULL)
  OR ((n.update_time = r.update_time OR (n.update_time IS NULL AND r.update_time IS NULL)) AND n.id > r.id))`

// dedupeSQL deletes every registration that has a newer one of the same
// key, compared as the unique key compares (the columns' collation).
func (s *Store) dedupeSQL() string {
	if s.d.backend() == MySQL { // MySQL may not name the deleted table in a subquery
		return "DELETE r FROM xxl_job_registry r JOIN xxl_job_registry n ON n.registry_group = r.registry_group" +
			" AND n.registry_key = r.registry_key AND n.registry_value = r.registry_value AND " + newerRegistration
	}
	return "DELETE FROM xxl_job_registry AS r WHERE EXISTS (SELECT 1 FROM xxl_job_registry n WHERE n.registry_group = r.registry_group" +
		" AND n.registry_key = r.registry_key AND n.registry_value = r.registry_value AND " + newerRegistration + ")"
}

// mysqlColumns34 are the 3.4.2 script's definitions of the columns the
// upgrade changes: type, then the rest.
var mysqlColumns34 = map[string][2]string{
	"xxl_job_user.password":       {"varchar(100)", "NOT NULL"},
	"xxl_job_user.token":          {"varchar(100)", "DEFAULT NULL COMMENT '登录token' AFTER `password`"},
	"xxl_job_group.title":         {"varchar(64)", "NOT NULL"},
	"xxl_job_registry.id":         {"bigint(20)", "NOT NULL AUTO_INCREMENT"},
	"xxl_job_info.executor_param": {"text", "DEFAULT NULL"},
	"xxl_job_log.executor_param":  {"text", "DEFAULT NULL"},
}

// mysqlUpgrade is one ALTER TABLE. A changed column keeps its collation and
// comment (the 2.4.2 script's comments; MODIFY would drop them).
func (s *Store) mysqlUpgrade(ctx context.Context, u *tableUpgrade) ([]string, error) {
	meta, err := s.mysqlColumnMeta(ctx, u.table)
	if err != nil {
		return nil, err
	}
	var parts []string
	for _, c := range u.columns {
		def := mysqlColumns34[u.table+"."+c.column]
		if c.from == "" {
			parts = append(parts, fmt.Sprintf("ADD COLUMN `%s` %s %s", c.column, def[0], def[1]))
			continue
		}
		typ, m := def[0], meta[c.column]
		if m.collation != "" {
			typ += " COLLATE " + m.collation
		}
		tail := def[1]
		if m.comment != "" {
			tail += " COMMENT " + mysqlString(m.comment)
		}
		parts = append(parts, fmt.Sprintf("MODIFY COLUMN `%s` %s %s", c.column, typ, tail))
	}
	for _, ix := range u.indexes {
		if ix.existing != "" {
			parts = append(parts, fmt.Sprintf("DROP INDEX `%s`", ix.existing))
		}
		kind, using := "KEY", ""
		if ix.def.unique {
			kind, using = "UNIQUE KEY", " USING BTREE"
		}
		parts = append(parts, fmt.Sprintf("ADD %s `%s` (`%s`)%s", kind, ix.def.name, strings.Join(ix.def.columns, "`, `"), using))
	}
	return []string{fmt.Sprintf("ALTER TABLE `%s` %s", u.table, strings.Join(parts, ", "))}, nil
}

type mysqlColumn struct{ collation, comment string }

func (s *Store) mysqlColumnMeta(ctx context.Context, table string) (map[string]mysqlColumn, error) {
	rows, err := s.q.QueryContext(ctx, "SELECT column_name, COALESCE(collation_name, ''), column_comment FROM information_schema.columns WHERE table_schema = DATABASE() AND table_name = ?", table)
	if err != nil {
		return nil, fmt.Errorf("columns of %s: %w", table, err)
	}
	defer rows.Close()
	out := map[string]mysqlColumn{}
	for rows.Next() {
		var name string
		var c mysqlColumn
		if err := rows.Scan(&name, &c.collation, &c.comment); err != nil {
			return nil, fmt.Errorf("columns of %s: %w", table, err)
		}
		out[strings.ToLower(name)] = c
	}
	return out, rows.Err()
}

// mysqlString quotes a literal for MySQL (backslash escapes included).
func mysqlString(v string) string {
	return "'" + strings.NewReplacer(`\`, `\\`, `'`, `''`).Replace(v) + "'"
}

// postgresUpgrade alters the column types in one statement, then replaces
// or adds the indexes (named as createTables names them: PostgreSQL folds
// the unquoted names to lower case).
func postgresUpgrade(u *tableUpgrade) []string {
	var alters, out []string
	for _, c := range u.columns {
		if c.from == "" {
			alters = append(alters, fmt.Sprintf("ADD COLUMN %s %s DEFAULT NULL", c.column, c.to))
			continue
		}
		alters = append(alters, fmt.Sprintf("ALTER COLUMN %s TYPE %s", c.column, c.to))
		if c.to == "text" {
			// varchar's DEFAULT NULL is kept as NULL::character varying;
			// text's, as a fresh 3.4 table declares it, is no default.
			alters = append(alters, fmt.Sprintf("ALTER COLUMN %s DROP DEFAULT", c.column))
		}
	}
	if len(alters) > 0 {
		out = append(out, "ALTER TABLE "+u.table+" "+strings.Join(alters, ", "))
	}
	return append(out, indexStatements(u)...)
}

// indexStatements are the CREATE INDEX statements SQLite and PostgreSQL
// share, each index dropped first where one of its name exists.
func indexStatements(u *tableUpgrade) []string {
	var out []string
	for _, ix := range u.indexes {
		if ix.existing != "" {
			out = append(out, "DROP INDEX IF EXISTS "+ix.existing)
		}
		unique := ""
		if ix.def.unique {
			unique = "UNIQUE "
		}
		out = append(out, fmt.Sprintf("CREATE %sINDEX IF NOT EXISTS %s ON %s (%s)", unique, ix.def.name, u.table, strings.Join(ix.def.columns, ", ")))
	}
	return out
}

// sqliteUpgrade rebuilds a table whose declared column types change (the
// procedure of SQLite's ALTER TABLE documentation, all in the upgrade's
// one transaction) and only adds indexes otherwise.
//
// The new table is created by createTables(Gen3)'s own statement, so its
// definition is a fresh 3.4 database's; the rows are copied with their
// ids, and sqlite_sequence keeps the old counter, so AUTOINCREMENT never
// hands out an id of a deleted row again (executors name log files by log
// id). Indexes of createTables are created again; other indexes keep their
// own definition.
func (s *Store) sqliteUpgrade(ctx context.Context, u *tableUpgrade, cols map[string]string) ([]string, error) {
	if !u.rebuild {
		return indexStatements(u), nil
	}
	create, indexes := sqliteTableDDL(u.table)
	if create == "" {
		return nil, fmt.Errorf("no 3.4 definition of %s", u.table)
	}
	tmp := u.table + "_upgrade"
	var copied, optional []string
	for _, c := range sortedKeys(cols) {
		if _, ok := tables34[u.table][c]; ok {
			copied = append(copied, c)
		} else if _, ok := optionalColumns[u.table][c]; ok {
			// An optional column the admin knows (schedule_timezone) moves
			// to the new table with the type it has.
			copied = append(copied, c)
			optional = append(optional, fmt.Sprintf("%s %s DEFAULT NULL", c, cols[c]))
		}
	}
	if len(optional) > 0 {
		create = strings.TrimSuffix(create, ")") + ",\n  " + strings.Join(optional, ", ") + ")"
	}
	list := strings.Join(copied, ", ")
	extra, err := s.sqliteExtraIndexes(ctx, u.table, indexes)
	if err != nil {
		return nil, err
	}
	out := []string{
		strings.Replace(create, "CREATE TABLE IF NOT EXISTS "+u.table+" (", "CREATE TABLE "+tmp+" (", 1),
		fmt.Sprintf("INSERT INTO %s (%s) SELECT %s FROM %s", tmp, list, list, u.table),
		fmt.Sprintf("INSERT INTO sqlite_sequence (name, seq) SELECT '%s', seq FROM sqlite_sequence WHERE name = '%s' AND NOT EXISTS (SELECT 1 FROM sqlite_sequence WHERE name = '%s')", tmp, u.table, tmp),
		fmt.Sprintf("UPDATE sqlite_sequence SET seq = (SELECT max(seq) FROM sqlite_sequence WHERE name IN ('%s', '%s')) WHERE name = '%s'", u.table, tmp, tmp),
		"DROP TABLE " + u.table,                                  // drops its indexes and its sqlite_sequence row
		fmt.Sprintf("ALTER TABLE %s RENAME TO %s", tmp, u.table), // renames the sqlite_sequence row too
	}
	out = append(out, indexes...)
	return append(out, extra...), nil
}

// sqliteTableDDL finds a table's CREATE TABLE and CREATE INDEX statements
// in createTables(Gen3).
func sqliteTableDDL(table string) (create string, indexes []string) {
	for _, stmt := range (sqliteDialect{}).createTables(Gen3) {
		switch {
		case strings.HasPrefix(stmt, "CREATE TABLE IF NOT EXISTS "+table+" ("):
			create = stmt
		case strings.Contains(stmt, " ON "+table+" ("):
			indexes = append(indexes, stmt)
		}
	}
	return create, indexes
}

// sqliteExtraIndexes are the statements of a table's indexes that
// createTables does not make (an operator's own), to create them again.
func (s *Store) sqliteExtraIndexes(ctx context.Context, table string, ours []string) ([]string, error) {
	rows, err := s.q.QueryContext(ctx, "SELECT name, sql FROM sqlite_master WHERE type = 'index' AND tbl_name = ? AND sql IS NOT NULL", table)
	if err != nil {
		return nil, fmt.Errorf("indexes of %s: %w", table, err)
	}
	defer rows.Close()
	var out []string
	for rows.Next() {
		var name, stmt string
		if err := rows.Scan(&name, &stmt); err != nil {
			return nil, fmt.Errorf("indexes of %s: %w", table, err)
		}
		mine := false
		for _, o := range ours {
			if strings.Contains(strings.ToLower(o), " exists "+strings.ToLower(name)+" on ") {
				mine = true
			}
		}
		if !mine {
			out = append(out, stmt)
		}
	}
	sort.Strings(out)
	return out, rows.Err()
}
