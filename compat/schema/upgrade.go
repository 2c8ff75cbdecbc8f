package schema

import (
	"context"
	"errors"
	"fmt"
	"regexp"
	"sort"
	"strings"
)

// The in-place upgrade of a 2.x database to the 3.4.2 schema (issue 20 §5):
// PlanUpgrade compares what is there with tables34/indexes34 and lists the
// missing parts as steps; ApplyUpgrade (upgrade_apply.go) runs them. A plan
// is always made from what the database holds now, so a 3.2/3.3 database,
// or one an interrupted run left behind, gets only the steps it still
// lacks, and a 3.4 database gets none.

// Sentinel errors of the upgrade.
var (
	// ErrNoSchema: the database has none of the xxl_job_* tables.
	ErrNoSchema = errors.New("no xxl_job_* tables")
	// ErrDuplicateRegistrations: rows of xxl_job_registry break the unique
	// key the upgrade adds, and removing them was not asked for.
	ErrDuplicateRegistrations = errors.New("duplicate executor registrations")
	// ErrPlanStale: the database changed between the plan and its run.
	ErrPlanStale = errors.New("the database changed since the plan was made")
)

// UpgradeStep is one table's part of an upgrade, run as a whole.
type UpgradeStep struct {
	Table string
	What  string   // for the operator: what changes and which xxl-job release asks for it
	SQL   []string // the statements, in this database's dialect
	Rows  int64    // the table's rows (an ALTER that changes a column type, or SQLite's rebuild, copies them)
}

// UpgradePlan is what an upgrade of this database would do.
type UpgradePlan struct {
	Backend Backend
	From    Generation // as detected (xxl_job_user.token decides)
	To      Generation
	Steps   []UpgradeStep
	// DuplicateRows are the registrations the registry's unique key would
	// refuse, as the database compares them (MySQL: case-insensitive),
	// beyond the newest row of each key; DuplicateKeys the keys they share.
	DuplicateRows, DuplicateKeys int
	// ResetUsers hold a 2.x MD5 password hash, which 3.x logins refuse: a
	// hash cannot be turned into another, so each needs a new password.
	ResetUsers []string
	// Problems stop the upgrade (a missing table or column, a column it
	// cannot keep); Notes are differences it leaves as they are.
	Problems []string
	Notes    []string
}

// NothingToDo tells a database that already has the target's schema.
func (p UpgradePlan) NothingToDo() bool { return len(p.Steps) == 0 }

// tableUpgrade is what one table lacks of the 3.4.2 schema.
type tableUpgrade struct {
	table   string
	columns []columnUpgrade
	indexes []indexUpgrade
	dupRows int
	rebuild bool // SQLite: the declared column types change
}

// columnUpgrade widens a column (from is its type now) or adds it (from "").
type columnUpgrade struct {
	column, from, to string
}

// indexUpgrade creates an index of the 3.4.2 script; existing is the name
// of an index of the same name to replace (the registry's non-unique key).
type indexUpgrade struct {
	def      upgradeIndex
	existing string
}

// upgradeIndex is an index the 3.4.2 script has and a 2.x database lacks.
type upgradeIndex struct {
	table, name string // the name as the 3.4.2 script spells it
	columns     []string
	unique      bool
	release     string
}

// upgradeIndexes are the indexes the upgrade creates: 3.4.0's notes add
// I_jobgroup; I_jobid and the unique i_g_k_v are only in the 3.4.2 script,
// but Java 3.4.2 registers executors with an upsert on i_g_k_v, so without
// its unique key it inserts a row per beat.
var upgradeIndexes = []upgradeIndex{
	{table: "xxl_job_registry", name: "i_g_k_v", columns: []string{"registry_group", "registry_key", "registry_value"}, unique: true, release: "the 3.4.2 script; Java 3.4.2 upserts registrations on it"},
	{table: "xxl_job_log", name: "I_jobgroup", columns: []string{"job_group"}, release: "3.4.0"},
	{table: "xxl_job_log", name: "I_jobid", columns: []string{"job_id"}, release: "the 3.4.2 script"},
}

// columnRelease names the release notes that change each column.
var columnRelease = map[string]string{
	"xxl_job_user.password": "3.2.0", "xxl_job_user.token": "3.2.0", "xxl_job_group.title": "3.4.0",
	"xxl_job_registry.id": "3.4.0", "xxl_job_info.executor_param": "3.4.0", "xxl_job_log.executor_param": "3.4.0",
}

// upgradeOrder runs the small tables first and the log table, the one that
// takes long, last.
var upgradeOrder = []string{"xxl_job_user", "xxl_job_group", "xxl_job_registry", "xxl_job_info", "xxl_job_log"}

// PlanUpgrade lists what upgrading this database to generation to takes.
// It reads and changes nothing but counts; the only target is Gen3 (a 2.4
// database asked for Gen2 has nothing to do; there is no downgrade).
func (s *Store) PlanUpgrade(ctx context.Context, to Generation) (UpgradePlan, error) {
	p := UpgradePlan{Backend: s.d.backend(), To: to}
	found, err := s.inspect(ctx)
	if err != nil {
		return p, err
	}
	if len(found) == 0 {
		return p, fmt.Errorf("plan upgrade: %w: there is nothing to upgrade (an admin started with xxl.job.schema=3.4 creates the 3.4.2 tables)", ErrNoSchema)
	}
	p.From = detectGeneration(found)
	switch {
	case to == Gen2 && p.From == Gen2:
		return p, nil
	case to != Gen3:
		return p, fmt.Errorf("plan upgrade: a %s database cannot be turned into a %s one (no downgrade)", p.From, to)
	}
	ups := s.compareColumns(found, &p)
	if err := s.compareIndexes(ctx, ups, &p); err != nil {
		return p, err
	}
	if p.ResetUsers, err = s.md5Users(ctx); err != nil {
		return p, err
	}
	for _, table := range upgradeOrder {
		u := ups[table]
		if u == nil || (len(u.columns) == 0 && len(u.indexes) == 0) {
			continue
		}
		steps, err := s.upgradeSteps(ctx, u, found[table], &p)
		if err != nil {
			return p, fmt.Errorf("plan upgrade of %s: %w", table, err)
		}
		p.Steps = append(p.Steps, steps...)
	}
	return p, nil
}

// compareColumns finds the 3.4.2 columns that are missing or narrower,
// and what the upgrade cannot handle.
func (s *Store) compareColumns(found map[string]map[string]string, p *UpgradePlan) map[string]*tableUpgrade {
	ups := map[string]*tableUpgrade{}
	for _, table := range sortedKeys(tables34) {
		cols, ok := found[table]
		if !ok {
			p.Problems = append(p.Problems, fmt.Sprintf("table %s is missing", table))
			continue
		}
		u := &tableUpgrade{table: table}
		ups[table] = u
		for _, col := range sortedKeys(tables34[table]) {
			want := s.d.columnType(tables34[table][col])
			got, ok := cols[col]
			_, old := tables24[table][col]
			switch {
			case !ok && old:
				p.Problems = append(p.Problems, fmt.Sprintf("table %s is missing column %s", table, col))
			case !ok:
				u.columns = append(u.columns, columnUpgrade{column: col, to: want})
			case narrower(s.d.backend(), got, want):
				u.columns = append(u.columns, columnUpgrade{column: col, from: got, to: want})
			case !sameType(got, want) && changes34[table][col] != "":
				p.Notes = append(p.Notes, fmt.Sprintf("column %s.%s is %s where xxl-job 3.4.2 declares %s; it holds as much, so it is left as it is", table, col, got, want))
			}
		}
		u.rebuild = s.d.backend() == SQLite && len(u.columns) > 0
		for _, col := range sortedKeys(cols) {
			if knownColumn(table, col) {
				continue
			}
			if u.rebuild {
				p.Problems = append(p.Problems, fmt.Sprintf("table %s has a column %s that neither xxl-job 2.4 nor 3.4 has: the SQLite upgrade rebuilds the table and would lose it (drop the column, or keep a copy of the database file)", table, col))
				continue
			}
			p.Notes = append(p.Notes, fmt.Sprintf("table %s has a column %s that neither xxl-job 2.4 nor 3.4 has: it is kept (the admin then needs xxl.job.schema.allow-unknown-columns=true)", table, col))
		}
	}
	return ups
}

// narrower tells a found column type that holds less than the wanted one,
// on backend: a shorter varchar, a varchar where text is wanted, a 32-bit
// integer where bigint is (SQLite's INTEGER primary key is 64-bit).
func narrower(b Backend, got, want string) bool {
	g, w := normalizeType(got), normalizeType(want)
	if g == w {
		return false
	}
	if w == "bigint" {
		return (g == "int" || g == "integer") && b != SQLite
	}
	return textCapacity(g) < textCapacity(w)
}

// compareIndexes finds the 3.4.2 indexes that are missing (or, for the
// registry's key, not unique) and counts the registrations that break it.
func (s *Store) compareIndexes(ctx context.Context, ups map[string]*tableUpgrade, p *UpgradePlan) error {
	for _, table := range sortedKeys(tables34) {
		u := ups[table]
		if u == nil {
			continue
		}
		idx, err := s.d.indexes(ctx, s.q, table)
		if err != nil {
			return fmt.Errorf("plan upgrade: %w", err)
		}
		have := map[string]index{}
		for _, ix := range idx {
			have[strings.ToLower(ix.Name)] = ix
		}
		for _, def := range upgradeIndexes {
			if def.table != table {
				continue
			}
			ix, ok := have[strings.ToLower(def.name)]
			switch {
			case ok && (ix.Unique || !def.unique):
				continue
			case ok:
				u.indexes = append(u.indexes, indexUpgrade{def: def, existing: ix.Name})
			default:
				u.indexes = append(u.indexes, indexUpgrade{def: def})
			}
			if def.unique {
				if u.dupRows, p.DuplicateKeys, err = s.countDuplicateRegistrations(ctx); err != nil {
					return err
				}
				p.DuplicateRows = u.dupRows
			}
		}
		for name := range indexes34 {
			if _, ok := have[name]; !ok && isIndexOf(name, table) && !isUpgradeIndex(name) {
				p.Notes = append(p.Notes, fmt.Sprintf("table %s lacks the index %s that xxl-job 2.4 and 3.4 both create; the upgrade does not add it", table, name))
			}
		}
	}
	sort.Strings(p.Notes)
	return nil
}

// indexTables says which table each index of both scripts belongs to.
var indexTables = map[string]string{"i_trigger_time": "xxl_job_log", "i_handle_code": "xxl_job_log",
	"i_trigger_day": "xxl_job_log_report", "i_username": "xxl_job_user", "i_g_k_v": "xxl_job_registry",
	"i_jobgroup": "xxl_job_log", "i_jobid": "xxl_job_log"}

func isIndexOf(name, table string) bool { return indexTables[name] == table }

func isUpgradeIndex(name string) bool {
	for _, def := range upgradeIndexes {
		if strings.EqualFold(def.name, name) {
			return true
		}
	}
	return false
}

// countDuplicateRegistrations counts the rows beyond the first of each
// (group, key, value) and the keys they share, grouped by the database
// itself so that equality is the unique key's (MySQL's collation folds
// case and trailing spaces; PostgreSQL and SQLite compare exactly).
func (s *Store) countDuplicateRegistrations(ctx context.Context) (rows, keys int, err error) {
	const grouped = "SELECT count(1) AS n FROM xxl_job_registry GROUP BY registry_group, registry_key, registry_value"
	var total, distinct int
	if err := s.q.QueryRowContext(ctx, "SELECT count(1) FROM xxl_job_registry").Scan(&total); err != nil {
		return 0, 0, fmt.Errorf("count registrations: %w", err)
	}
	if err := s.q.QueryRowContext(ctx, "SELECT count(1) FROM ("+grouped+") d").Scan(&distinct); err != nil {
		return 0, 0, fmt.Errorf("count registration keys: %w", err)
	}
	if err := s.q.QueryRowContext(ctx, "SELECT count(1) FROM ("+grouped+" HAVING count(1) > 1) d").Scan(&keys); err != nil {
		return 0, 0, fmt.Errorf("count duplicate registration keys: %w", err)
	}
	return total - distinct, keys, nil
}

// md5Hash is how 2.x stores a password: 32 hex digits.
var md5Hash = regexp.MustCompile(`^[0-9a-fA-F]{32}$`)

// md5Users lists the users whose password is still a 2.x MD5 hash.
func (s *Store) md5Users(ctx context.Context) ([]string, error) {
	type row struct{ name, password string }
	rows, err := selectAll(ctx, s, s.sb.Select("username", "password").From("xxl_job_user").OrderBy("id"), func(sc scanner) (row, error) {
		var r row
		err := sc.Scan(&r.name, &r.password)
		return r, err
	})
	if err != nil {
		return nil, fmt.Errorf("read user passwords: %w", err)
	}
	var out []string
	for _, r := range rows {
		if md5Hash.MatchString(r.password) {
			out = append(out, r.name)
		}
	}
	return out, nil
}

// describe words a table's changes for the operator.
func (u *tableUpgrade) describe() string {
	var parts []string
	for _, c := range u.columns {
		rel := columnRelease[u.table+"."+c.column]
		if c.from == "" {
			parts = append(parts, fmt.Sprintf("add column %s %s (%s)", c.column, c.to, rel))
			continue
		}
		parts = append(parts, fmt.Sprintf("%s %s → %s (%s)", c.column, c.from, c.to, rel))
	}
	for _, ix := range u.indexes {
		kind := "index"
		if ix.def.unique {
			kind = "unique key"
		}
		verb := "add " + kind
		if ix.existing != "" {
			verb = "make " + kind
		}
		parts = append(parts, fmt.Sprintf("%s %s (%s) (%s)", verb, ix.def.name, strings.Join(ix.def.columns, ", "), ix.def.release))
	}
	what := u.table + ": " + strings.Join(parts, "; ")
	if u.rebuild {
		what += "; SQLite rebuilds the table (new table, copy, drop, rename; the id counter is kept)"
	}
	return what
}

// PasswordResetSQL is the statement that gives a user a new password as
// 3.x stores it (SHA-256, lower-case hex), in this database's dialect;
// the operator puts the password in place of <new password>. SQLite has no
// SHA-256 function, so there the hash is computed outside.
func (p UpgradePlan) PasswordResetSQL(username string) string {
	switch p.Backend {
	case MySQL:
		return fmt.Sprintf("UPDATE xxl_job_user SET password = SHA2('<new password>', 256) WHERE username = %s;", mysqlString(username))
	case Postgres:
		return fmt.Sprintf("UPDATE xxl_job_user SET password = encode(sha256(convert_to('<new password>', 'UTF8')), 'hex') WHERE username = %s;", sqlString(username))
	}
	return fmt.Sprintf("UPDATE xxl_job_user SET password = '<sha-256 hex>' WHERE username = %s; -- <sha-256 hex>: printf %%s '<new password>' | sha256sum", sqlString(username))
}

// sqlString quotes a standard SQL literal.
func sqlString(v string) string { return "'" + strings.ReplaceAll(v, "'", "''") + "'" }
