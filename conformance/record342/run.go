package main

import (
	"context"
	"crypto/sha256"
	"database/sql"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"

	"github.com/go-sql-driver/mysql"

	"github.com/xxl-admin-go/xxl-admin-go/conformance/consolereplay"
	"github.com/xxl-admin-go/xxl-admin-go/conformance/javaadmin"
)

type options struct {
	out, langs, jar, dsn, executor string
	keep                           bool
}

// recordAll records every language in turn: one jar process at a time.
func recordAll(ctx context.Context, o options, langs []string) error {
	jar := o.jar
	if jar == "" {
		var err error
		if jar, err = javaadmin.JarPath342(); err != nil {
			return err
		}
	}
	scs, err := scenarioMap(time.Now())
	if err != nil {
		return err
	}
	if err := checkScenarios(scs); err != nil {
		return err
	}
	if err := os.MkdirAll(o.out, 0o755); err != nil {
		return err
	}
	about, err := describeAdmin(jar)
	if err != nil {
		return err
	}
	for _, lang := range langs {
		started := time.Now()
		n, err := recordLang(ctx, o, jar, about, lang)
		if err != nil {
			return fmt.Errorf("%s: %w", lang, err)
		}
		fmt.Printf("%s: %d scenarios recorded in %s\n", lang, n, time.Since(started).Round(time.Second))
	}
	return nil
}

// checkScenarios: every planned scenario is defined and every definition
// planned (in en, which has them all).
func checkScenarios(scenarios map[string]scenario) error {
	plan, ok := consolereplay.Gen342.PlanFor("en")
	if !ok {
		return errors.New("no en plan")
	}
	planned := map[string]bool{}
	for _, s := range plan.Scenarios() {
		if _, ok := scenarios[s]; !ok {
			return fmt.Errorf("planned scenario %s is not defined", s)
		}
		planned[s] = true
	}
	for name := range scenarios {
		if !planned[name] {
			return fmt.Errorf("scenario %s is in no plan", name)
		}
		if len(findings[name]) == 0 {
			return fmt.Errorf("scenario %s has no findings", name)
		}
	}
	for name := range findings {
		if _, ok := scenarios[name]; !ok {
			return fmt.Errorf("findings of %s, which is no scenario", name)
		}
	}
	return nil
}

// describeAdmin names the jar (with its checksum) and the JVM.
func describeAdmin(jar string) (string, error) {
	f, err := os.Open(jar)
	if err != nil {
		return "", err
	}
	defer f.Close()
	h := sha256.New()
	if _, err := io.Copy(h, f); err != nil {
		return "", fmt.Errorf("hash %s: %w", jar, err)
	}
	out, err := exec.Command("java", "-version").CombinedOutput()
	if err != nil {
		return "", fmt.Errorf("java -version: %w", err)
	}
	jvm, _, _ := strings.Cut(string(out), "\n")
	return fmt.Sprintf("xxl-job-admin 3.4.2 (the reference jar, sha256 %s), %s, TZ=%s",
		hex.EncodeToString(h.Sum(nil))[:16]+"…", strings.TrimSpace(jvm), consolereplay.Zone), nil
}

// recordLang records one language's plan against a fresh database and
// admin and returns the number of scenarios written.
func recordLang(ctx context.Context, o options, jar, about, lang string) (int, error) {
	plan, ok := consolereplay.Gen342.PlanFor(lang)
	if !ok {
		return 0, fmt.Errorf("no 3.4.2 plan for language %q", lang)
	}
	scenarios, err := scenarioMap(time.Now())
	if err != nil {
		return 0, err
	}
	cfg, err := mysql.ParseDSN(o.dsn)
	if err != nil {
		return 0, fmt.Errorf("dsn: %w", err)
	}
	name := "rec342_" + strings.ToLower(lang)
	if err := mysqlExec(o.dsn, "DROP DATABASE IF EXISTS "+name, "CREATE DATABASE "+name+" DEFAULT CHARACTER SET utf8mb4"); err != nil {
		return 0, err
	}
	if !o.keep {
		defer func() { _ = mysqlExec(o.dsn, "DROP DATABASE IF EXISTS "+name) }()
	}
	jdbc := fmt.Sprintf("jdbc:mysql://%s/%s?serverTimezone=%s&useSSL=false&useUnicode=true&characterEncoding=UTF-8",
		cfg.Addr, name, consolereplay.Zone)
	db, err := consolereplay.OpenDB342(ctx, jdbc, cfg.User, cfg.Passwd)
	if err != nil {
		return 0, err
	}
	defer db.Close()
	version := "MariaDB"
	if err := db.SQL.QueryRowContext(ctx, "SELECT VERSION()").Scan(&version); err != nil {
		return 0, fmt.Errorf("database version: %w", err)
	}
	executor, err := consolereplay.StartFakeExecutorAt(consolereplay.Executor342, o.executor)
	if err != nil {
		return 0, err
	}
	defer executor.Close()
	fixtureAt := time.Now()
	if err := (consolereplay.Fixture342{At: fixtureAt, Executor: executor.Address()}).Load(ctx, db); err != nil {
		return 0, err
	}
	work, err := os.MkdirTemp("", "record342-")
	if err != nil {
		return 0, err
	}
	defer os.RemoveAll(work)
	logPath := filepath.Join(work, "admin.log")
	logFile, err := os.Create(logPath)
	if err != nil {
		return 0, err
	}
	defer logFile.Close()
	mailPort, err := freePort() // nothing listens there: no mail may be sent
	if err != nil {
		return 0, err
	}
	admin, err := javaadmin.Start(ctx, javaadmin.Java{Jar: jar}, javaadmin.Settings{DatasourceURL: jdbc,
		User: cfg.User, Password: cfg.Passwd, AccessToken: consolereplay.AccessToken, Lang: lang, MailPort: mailPort,
		WorkDir: work, ReadyPath: javaadmin.ReadyPath342}, logFile, 2*time.Minute)
	if err != nil {
		return 0, fmt.Errorf("%w (admin output: %s)", err, tail(logPath))
	}
	defer func() { _ = admin.Stop() }()
	loc, err := time.LoadLocation(consolereplay.Zone)
	if err != nil {
		return 0, err
	}
	r := &recorder{
		lang: lang, addr: strings.TrimPrefix(admin.BaseURL, "http://"), db: db, exec: executor,
		loc: loc, sessions: map[string]string{},
		setup: consolereplay.Setup{
			Admin:        about,
			AdminURL:     admin.BaseURL + "/",
			I18n:         lang,
			Database:     version + ": a fresh database, the 3.4.2 release's tables and seed rows (../shared/spec/schema-3.4.2.sql without its CREATE DATABASE/USE lines) + the fixture (README)",
			FakeExecutor: executor.Address() + " " + fakeExecutorInfo,
			FixtureAt:    fixtureAt.In(loc).Format(time.RFC3339Nano),
		},
	}
	n := 0
	for _, step := range plan.Steps {
		if err := consolereplay.RunHooks(ctx, db, step.Before); err != nil {
			return n, fmt.Errorf("before %s: %w", step.Scenario, err)
		}
		if step.Scenario == "" {
			continue
		}
		rec, err := r.run(ctx, scenarios[step.Scenario], step)
		if err != nil {
			return n, fmt.Errorf("%w (admin output: %s)", err, tail(logPath))
		}
		if err := write(o.out, rec); err != nil {
			return n, err
		}
		n++
	}
	return n, nil
}

func mysqlExec(dsn string, stmts ...string) error {
	db, err := sql.Open("mysql", dsn)
	if err != nil {
		return fmt.Errorf("open %s: %w", dsn, err)
	}
	defer db.Close()
	for _, s := range stmts {
		if _, err := db.Exec(s); err != nil {
			return fmt.Errorf("%s: %w", s, err)
		}
	}
	return nil
}

func freePort() (int, error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return 0, err
	}
	defer ln.Close()
	return ln.Addr().(*net.TCPAddr).Port, nil
}

// tail is the end of the admin's output, for errors.
func tail(path string) string {
	b, err := os.ReadFile(path)
	if err != nil {
		return err.Error()
	}
	lines := strings.Split(strings.TrimRight(string(b), "\n"), "\n")
	if len(lines) > 30 {
		lines = lines[len(lines)-30:]
	}
	return "\n" + strings.Join(lines, "\n")
}
