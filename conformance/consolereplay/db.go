package consolereplay

import (
	"context"
	"database/sql"
	"fmt"
	"strconv"
	"time"

	sq "github.com/Masterminds/squirrel"

	"github.com/xxl-admin-go/xxl-admin-go/compat/schema"
	"github.com/xxl-admin-go/xxl-admin-go/conformance/javaadmin"
)

// Zone is the admin's zone in every recording (TZ and serverTimezone).
const Zone = javaadmin.Zone

// dbTimeLayout is how DATETIME values read as text (MariaDB's text form).
const dbTimeLayout = "2006-01-02 15:04:05"

// DB is the harness's own handle on the admin's database: it loads the
// fixture, runs the per-scenario setup hooks and reads the db_after rows.
// Its SQL is plain ANSI with ? placeholders, so one text serves MariaDB and
// SQLite.
type DB struct {
	SQL *sql.DB
	loc *time.Location
	sb  sq.StatementBuilderType
	// Now is the clock of the rows hooks write (time.Now when nil); the
	// fixture tests fix it so two backends get identical rows.
	Now func() time.Time
}

func (db *DB) now() time.Time {
	if db.Now != nil {
		return db.Now()
	}
	return time.Now()
}

// OpenDB creates the 2.4.2 tables and seed rows on an empty database at a
// JDBC URL (the same code our admin runs on an empty database, so the Java
// admin finds what tables_xxl_job.sql would have made) and opens a handle.
func OpenDB(ctx context.Context, url, user, pass string) (*DB, error) {
	target, err := schema.ParseJDBC(url, user, pass)
	if err != nil {
		return nil, fmt.Errorf("parse %s: %w", url, err)
	}
	return openPrepared(ctx, target, schema.Gen2)
}

// openPrepared creates a generation's tables and seed rows with our
// admin's own code and opens a handle.
func openPrepared(ctx context.Context, target schema.Target, gen schema.Generation) (*DB, error) {
	st, err := schema.Open(ctx, target, schema.PoolSettings{MaxOpen: 1, MaxIdle: 1})
	if err != nil {
		return nil, err
	}
	_, err = st.Prepare(ctx, schema.PrepareOptions{Create: gen})
	st.Close()
	if err != nil {
		return nil, fmt.Errorf("prepare %s: %w", target.Display, err)
	}
	db, err := sql.Open(target.Driver, target.DSN)
	if err != nil {
		return nil, fmt.Errorf("open %s: %w", target.Display, err)
	}
	db.SetMaxOpenConns(2)
	loc, err := time.LoadLocation(Zone)
	if err != nil {
		db.Close()
		return nil, fmt.Errorf("load zone: %w", err)
	}
	return &DB{SQL: db, loc: loc, sb: sq.StatementBuilder.PlaceholderFormat(sq.Question)}, nil
}

// Close closes the handle.
func (d *DB) Close() error { return d.SQL.Close() }

// Time formats an instant as the DATETIME text of the admin's zone.
func (d *DB) Time(t time.Time) string { return t.In(d.loc).Format(dbTimeLayout) }

func (d *DB) exec(ctx context.Context, b sq.Sqlizer) error {
	query, args, err := b.ToSql()
	if err != nil {
		return fmt.Errorf("build statement: %w", err)
	}
	if _, err := d.SQL.ExecContext(ctx, query, args...); err != nil {
		return fmt.Errorf("%s: %w", query, err)
	}
	return nil
}

// Rows runs a query and returns its rows as column → text value (nil for
// NULL), formatted like the MariaDB text protocol the recorder read.
func (d *DB) Rows(ctx context.Context, b sq.SelectBuilder) ([]map[string]*string, error) {
	query, args, err := b.ToSql()
	if err != nil {
		return nil, fmt.Errorf("build query: %w", err)
	}
	rows, err := d.SQL.QueryContext(ctx, query, args...)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", query, err)
	}
	defer rows.Close()
	cols, err := rows.Columns()
	if err != nil {
		return nil, fmt.Errorf("%s: %w", query, err)
	}
	out := []map[string]*string{}
	for rows.Next() {
		vals := make([]any, len(cols))
		ptrs := make([]any, len(cols))
		for i := range vals {
			ptrs[i] = &vals[i]
		}
		if err := rows.Scan(ptrs...); err != nil {
			return nil, fmt.Errorf("%s: %w", query, err)
		}
		row := make(map[string]*string, len(cols))
		for i, c := range cols {
			row[c] = textValue(vals[i])
		}
		out = append(out, row)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("%s: %w", query, err)
	}
	return out, nil
}

// textValue renders a scanned value as MariaDB would print it. A DATETIME
// the SQLite driver hands back parsed keeps its wall-clock fields: the
// stores write wall time of the admin's zone.
func textValue(v any) *string {
	var s string
	switch x := v.(type) {
	case nil:
		return nil
	case []byte:
		s = string(x)
	case string:
		s = x
	case int64:
		s = strconv.FormatInt(x, 10)
	case float64:
		s = strconv.FormatFloat(x, 'f', -1, 64)
	case bool:
		s = "0"
		if x {
			s = "1"
		}
	case time.Time:
		s = x.Format(dbTimeLayout)
	default:
		s = fmt.Sprint(x)
	}
	return &s
}
