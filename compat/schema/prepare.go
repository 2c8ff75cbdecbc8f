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

// ErrUnsupportedSchema marks a database this admin must not run against.
var ErrUnsupportedSchema = errors.New("unsupported schema")

// PrepareOptions say what Prepare may do.
type PrepareOptions struct {
	// Create is the generation an empty database is created as; the zero
	// value is Gen2 (xxl.job.schema, schema.md §2).
	Create Generation
	// AllowUnknownColumns accepts columns that neither generation has, with
	// a warning, instead of refusing the database (their meaning is unknown
	// to this admin: a later xxl-job release may give a column semantics
	// that firing without it would get wrong).
	AllowUnknownColumns bool
	// SkipPendingTable leaves PendingTable alone: it is created when
	// missing unless this is set (xxl.job.durable-triggers=false).
	SkipPendingTable bool
	// Workflows creates the workflow tables when missing (workflow.go).
	Workflows bool
}

// PrepareResult says what Prepare found and did, for the start-up log.
type PrepareResult struct {
	Generation Generation // the database's generation
	// ScheduleTimezone: xxl_job_info has the optional schedule_timezone
	// column (per-job time zones).
	ScheduleTimezone bool
	Created          bool // the tables and seed rows were created
	LockInserted     bool // the missing schedule_lock row was inserted
	// PendingCreated: PendingTable, the table of our durable retries and
	// child triggers, was created.
	PendingCreated bool
	// WorkflowCreated: a workflow table was created (opts.Workflows).
	WorkflowCreated bool
	Warnings        []string // accepted differences (widened types, extra indexes)
}

// Prepare makes the database usable without ever altering existing tables:
// an empty database gets the tables and seed rows of opts.Create's
// generation; an existing one is placed (Gen2 or Gen3, detectGeneration)
// and checked against its generation — a missing table or column, a column
// of neither generation, or a half-upgraded 3.x user table is refused —
// and only a missing schedule_lock row is added, since without it Java and
// Go admins alike pre-read the same jobs and fire them twice. Beside the
// xxl_job_* tables, our own PendingTable is created when missing (unless
// opts.SkipPendingTable): no Java admin reads it, so it changes nothing for
// them.
//
// Admins starting at the same moment on an empty database all come up: on
// MySQL they take turns under a named lock (prepare_lock.go); elsewhere the
// creation is one transaction, which checkAndCreate looks at a second time.
func (s *Store) Prepare(ctx context.Context, opts PrepareOptions) (PrepareResult, error) {
	if opts.Create == "" {
		opts.Create = Gen2
	}
	if s.d.backend() == MySQL {
		return s.prepareLocked(ctx, opts)
	}
	return s.checkAndCreate(ctx, opts)
}

func (s *Store) checkAndCreate(ctx context.Context, opts PrepareOptions) (PrepareResult, error) {
	var res PrepareResult
	found, err := s.inspect(ctx)
	if err != nil {
		return res, err
	}
	if n := len(found); n > 0 && n < len(tables24) && s.d.transactionalDDL() {
		// inspect reads table by table: another admin's creation, one
		// transaction, committed in between. Having seen a table of it,
		// a second look sees all of them.
		if found, err = s.inspect(ctx); err != nil {
			return res, err
		}
	}
	if len(found) == 0 {
		if err := s.create(ctx, opts.Create); err != nil {
			// Another admin starting at the same moment may have won the race.
			if again, ierr := s.inspect(ctx); ierr == nil && len(again) == len(tables24) {
				found = again
			} else {
				return res, err
			}
		} else {
			res.Created, res.Generation = true, opts.Create
			s.shape.Generation, s.shape.RegistryUnique, s.shape.ScheduleTimezone = opts.Create, opts.Create == Gen3, false
			s.shape.LogJobIndex, s.shape.LogTimeIndex, s.shape.LogCodeIndex = opts.Create == Gen3, true, true
			return res, s.preparePending(ctx, opts, &res)
		}
	}
	gen := detectGeneration(found)
	res.Generation = gen
	if err := checkColumns(found, gen, s.d.columnType, opts, &res); err != nil {
		return res, err
	}
	shape := Shape{Generation: gen, ScheduleBatch: s.shape.ScheduleBatch, ScheduleTimezone: res.ScheduleTimezone}
	if err := s.checkIndexes(ctx, gen, &shape, &res); err != nil {
		return res, err
	}
	*s.shape = shape
	sort.Strings(res.Warnings)
	inserted, err := s.ensureScheduleLock(ctx)
	res.LockInserted = inserted
	if err != nil {
		return res, err
	}
	return res, s.preparePending(ctx, opts, &res)
}

// preparePending creates our own tables unless opts says not to.
func (s *Store) preparePending(ctx context.Context, opts PrepareOptions, res *PrepareResult) error {
	if !opts.SkipPendingTable {
		if err := s.ensurePendingTable(ctx, res); err != nil {
			return err
		}
	}
	if opts.Workflows {
		created, err := s.EnsureWorkflowTables(ctx)
		res.WorkflowCreated = created
		return err
	}
	return nil
}

// checkIndexes warns of extra indexes and, on a 3.x database, of the 3.4.2
// indexes that are missing; it records whether registrations have their
// unique key.
func (s *Store) checkIndexes(ctx context.Context, gen Generation, shape *Shape, res *PrepareResult) error {
	want := indexesOf(gen)
	for _, table := range sortedKeys(tables24) {
		idx, err := s.d.indexes(ctx, s.q, table)
		if err != nil {
			return err
		}
		have := map[string]bool{}
		for _, ix := range idx {
			name := strings.ToLower(ix.Name)
			have[name] = true
			if table == "xxl_job_registry" && name == "i_g_k_v" && ix.Unique {
				shape.RegistryUnique = true
			}
			if table == "xxl_job_log" && name == "i_jobid" {
				shape.LogJobIndex = true
			}
			if table == "xxl_job_log" && name == "i_trigger_time" {
				shape.LogTimeIndex = true
			}
			if table == "xxl_job_log" && name == "i_handle_code" {
				shape.LogCodeIndex = true
			}
			if !want[name] && !strings.HasPrefix(name, "sqlite_autoindex") && !isTuneIndex(table, name) {
				res.Warnings = append(res.Warnings, fmt.Sprintf("table %s has an extra index %s (accepted)", table, ix.Name))
			}
		}
		if gen != Gen3 {
			continue
		}
		for _, name := range missing34Indexes[table] {
			if !have[name] {
				res.Warnings = append(res.Warnings, fmt.Sprintf("table %s lacks the index %s of xxl-job 3.4.2 (the upstream upgrade notes do not create it; `xxl-admin-go db upgrade --to 3.4` does)", table, name))
			}
		}
		if table == "xxl_job_registry" && have["i_g_k_v"] && !shape.RegistryUnique {
			res.Warnings = append(res.Warnings, "index xxl_job_registry.i_g_k_v is not unique as in xxl-job 3.4.2: a Java 3.4.2 admin inserts a new registration row at every beat (`xxl-admin-go db upgrade --to 3.4` removes the duplicates and makes it unique)")
		}
	}
	return nil
}

// missing34Indexes are the 3.4.2 indexes a 3.x database may lack: the
// log indexes (3.4.0's notes add only I_jobgroup) and, before 3.4.0, the
// registry's key (then not unique).
var missing34Indexes = map[string][]string{"xxl_job_log": {"i_jobgroup", "i_jobid"}}

func (s *Store) inspect(ctx context.Context) (map[string]map[string]string, error) {
	found := map[string]map[string]string{}
	for table := range tables24 {
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

// sha256HexLen is the length of a SHA-256 password hash in hex: a 3.x
// user table whose password column cannot hold it is half-upgraded.
const sha256HexLen = 64

// checkColumns compares the found columns with the generation's, whose
// types columnType spells as the backend's DDL declares them.
func checkColumns(found map[string]map[string]string, gen Generation, columnType func(string) string, opts PrepareOptions, res *PrepareResult) error {
	var problems []string
	_, res.ScheduleTimezone = found["xxl_job_info"][ColScheduleTimezone]
	expected := tablesOf(gen)
	for _, table := range sortedKeys(expected) {
		cols, ok := found[table]
		if !ok {
			problems = append(problems, fmt.Sprintf("table %s is missing", table))
			continue
		}
		for _, col := range sortedKeys(expected[table]) {
			want := columnType(expected[table][col])
			got, ok := cols[col]
			if !ok {
				problems = append(problems, fmt.Sprintf("table %s is missing column %s", table, col))
				continue
			}
			if sameType(got, want) {
				continue
			}
			switch {
			case gen == Gen3 && table == "xxl_job_user" && col == "password" && textCapacity(got) < sha256HexLen:
				problems = append(problems, fmt.Sprintf("column xxl_job_user.password is %s beside the 3.x token column: it cannot hold a SHA-256 hash (half-upgraded; widen it to varchar(100), as xxl-job 3.2.0's notes say)", got))
			case gen == Gen3 && isNarrower(got, want):
				res.Warnings = append(res.Warnings, fmt.Sprintf("column %s.%s is %s, xxl-job 3.4.2 declares %s (longer values are refused; `xxl-admin-go db upgrade --to 3.4` widens it)", table, col, got, want))
			default:
				how := "differs"
				if isWidened(got, want) {
					how = "widened"
				}
				res.Warnings = append(res.Warnings, fmt.Sprintf("column %s.%s is %s, expected %s (%s, accepted)", table, col, got, want, how))
			}
		}
		for _, col := range sortedKeys(cols) {
			if want, ok := optionalColumns[table][col]; ok {
				checkOptional(table, col, cols[col], columnType(want), &problems, res)
				continue
			}
			if knownColumn(table, col) {
				continue
			}
			if opts.AllowUnknownColumns {
				res.Warnings = append(res.Warnings, fmt.Sprintf("table %s has a column %s that no xxl-job release has (accepted: xxl.job.schema.allow-unknown-columns)", table, col))
				continue
			}
			problems = append(problems, fmt.Sprintf("table %s has a column %s that neither xxl-job 2.4 nor 3.4 has", table, col))
		}
	}
	if len(problems) > 0 {
		return fmt.Errorf("%w: %s database: %s; %s", ErrUnsupportedSchema, gen, strings.Join(problems, "; "), remedy(gen))
	}
	return nil
}

// checkOptional checks the type of an optional column the admin reads and
// writes: it must hold text (the admin writes strings into it); another
// text type than the declared one is accepted with a warning.
func checkOptional(table, col, got, want string, problems *[]string, res *PrepareResult) {
	switch {
	case sameType(got, want):
	case textCapacity(got) == 0:
		*problems = append(*problems, fmt.Sprintf("column %s.%s is %s: it must be a text column (%s)", table, col, got, want))
	default:
		res.Warnings = append(res.Warnings, fmt.Sprintf("column %s.%s is %s, expected %s (accepted)", table, col, got, want))
	}
}

// remedy says how to get a schema the admin accepts.
func remedy(gen Generation) string {
	if gen == Gen3 {
		return "create the 3.4.2 tables (doc/db/tables_xxl_job.sql of 3.4.2), finish the upgrade (`xxl-admin-go db upgrade --to 3.4 --dry-run` lists what is missing), or start on an empty database; a column of your own is accepted with xxl.job.schema.allow-unknown-columns=true"
	}
	return "create the 2.4.x tables (doc/db/tables_xxl_job.sql) or start on an empty database; a column of your own is accepted with xxl.job.schema.allow-unknown-columns=true"
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

// isNarrower tells a found type that holds less than the wanted one: a
// shorter varchar, a varchar where text is wanted, int where bigint is.
func isNarrower(got, want string) bool {
	g, w := normalizeType(got), normalizeType(want)
	if (g == "int" || g == "integer") && w == "bigint" {
		return !strings.EqualFold(strings.TrimSpace(got), "integer") // SQLite's INTEGER is 64-bit
	}
	return textCapacity(g) < textCapacity(w)
}

// textCapacity is how many characters a text type holds (varchar(n): n;
// the text types: more than any varchar), 0 for other types.
func textCapacity(t string) int {
	t = normalizeType(t)
	if n, ok := varcharLen(t); ok {
		return n
	}
	switch t {
	case "text", "mediumtext", "longtext":
		return 1 << 24
	}
	return 0
}
