package consolereplay

import (
	"bufio"
	"context"
	"database/sql"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	sq "github.com/Masterminds/squirrel"

	"github.com/xxl-admin-go/xxl-admin-go/compat/schema"
	"github.com/xxl-admin-go/xxl-admin-go/conformance/javaadmin"
)

// DefaultSchema342 is the 3.4.2 release's DDL and seed rows (its
// doc/db/tables_xxl_job.sql), looked for beside the repository
// (<module root>/../shared/spec in CI, like the reference jars); the
// repository does not carry it (xxl-job is GPL-3.0). EnvSchema342 points
// at it elsewhere.
const DefaultSchema342 = "../shared/spec/schema-3.4.2.sql"

// EnvSchema342 names the variable that points at the 3.4.2 DDL elsewhere.
const EnvSchema342 = "XXL_TEST_SCHEMA_342"

// Schema342Path is the 3.4.2 DDL file to load.
func Schema342Path() (string, error) {
	path := os.Getenv(EnvSchema342)
	if path == "" {
		root, err := javaadmin.ModuleRoot()
		if err != nil {
			return "", err
		}
		path = filepath.Join(root, filepath.FromSlash(DefaultSchema342))
	}
	if _, err := os.Stat(path); err != nil {
		return "", fmt.Errorf("3.4.2 schema (set %s to use another path): %w", EnvSchema342, err)
	}
	return path, nil
}

// RequireSchema342 is Schema342Path for a test: the test is skipped as a
// switched-off suite when the release's DDL is not there (a clone with
// nothing beside it), and fails when EnvSchema342 names a file that is
// missing.
func RequireSchema342(t testing.TB) string {
	t.Helper()
	path, err := Schema342Path()
	switch {
	case err == nil:
		return path
	case os.Getenv(EnvSchema342) == "" && errors.Is(err, fs.ErrNotExist):
		t.Skip("[suite-off] the 3.4.2 release's DDL (its doc/db/tables_xxl_job.sql) is not beside the repository: set " +
			EnvSchema342 + " to it")
	default:
		t.Fatal(err)
	}
	return ""
}

// OpenDB342 loads the 3.4.2 release's tables and seed rows
// (Schema342Path) into an empty MariaDB/MySQL database at a JDBC URL, as
// the reference README says (without its CREATE DATABASE and USE lines),
// and opens the harness's handle. The 3.4.2 jar does not create tables; on
// SQLite, where the release's DDL does not run, the tables and seed rows
// are our admin's own 3.x ones (the same code it runs on an empty database
// with xxl.job.schema=3), for replays of our admin only.
func OpenDB342(ctx context.Context, url, user, pass string) (*DB, error) {
	target, err := schema.ParseJDBC(url, user, pass)
	if err != nil {
		return nil, fmt.Errorf("parse %s: %w", url, err)
	}
	switch target.Driver {
	case "mysql":
	case "sqlite":
		return openPrepared(ctx, target, schema.Gen3)
	default:
		return nil, fmt.Errorf("3.4.2 tables on %s: only MariaDB/MySQL (the release's DDL) and SQLite (ours)", target.Display)
	}
	path, err := Schema342Path()
	if err != nil {
		return nil, err
	}
	stmts, err := readDDL(path)
	if err != nil {
		return nil, err
	}
	db, err := sql.Open(target.Driver, target.DSN)
	if err != nil {
		return nil, fmt.Errorf("open %s: %w", target.Display, err)
	}
	db.SetMaxOpenConns(2)
	conn, err := db.Conn(ctx) // SET NAMES holds per session
	if err != nil {
		db.Close()
		return nil, fmt.Errorf("connect %s: %w", target.Display, err)
	}
	for _, st := range stmts {
		if _, err := conn.ExecContext(ctx, st); err != nil {
			conn.Close()
			db.Close()
			return nil, fmt.Errorf("%s: %.80s: %w", path, st, err)
		}
	}
	conn.Close()
	loc, err := time.LoadLocation(Zone)
	if err != nil {
		db.Close()
		return nil, fmt.Errorf("load zone: %w", err)
	}
	return &DB{SQL: db, loc: loc, sb: sq.StatementBuilder.PlaceholderFormat(sq.Question)}, nil
}

// readDDL splits the release's SQL file into statements: '#' lines are
// comments, a statement ends with a line ending in ';', and the lines that
// create and select the database xxl_job are left out.
func readDDL(path string) ([]string, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("read DDL: %w", err)
	}
	defer f.Close()
	var out []string
	var cur strings.Builder
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 0, 64<<10), 1<<20)
	for sc.Scan() {
		line := sc.Text()
		trimmed := strings.TrimSpace(line)
		lower := strings.ToLower(trimmed)
		if cur.Len() == 0 && (trimmed == "" || strings.HasPrefix(trimmed, "#") ||
			strings.HasPrefix(lower, "create database") || strings.HasPrefix(lower, "use ")) {
			continue
		}
		cur.WriteString(line)
		cur.WriteByte('\n')
		if strings.HasSuffix(trimmed, ";") {
			st := strings.TrimSuffix(strings.TrimSpace(cur.String()), ";")
			if !strings.EqualFold(st, "commit") {
				out = append(out, st)
			}
			cur.Reset()
		}
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("read DDL %s: %w", path, err)
	}
	if strings.TrimSpace(cur.String()) != "" {
		return nil, fmt.Errorf("read DDL %s: statement without ';' at the end", path)
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("read DDL %s: no statements", path)
	}
	return out, nil
}
