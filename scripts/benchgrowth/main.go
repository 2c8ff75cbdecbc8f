// Command benchgrowth measures the web console on a large xxl_job_log
// (issue 27): it builds the data set itself in MariaDB — rows log rows
// over -days days (27; one in 100 failed and already alarmed), 50 stopped jobs in
// 5 groups — for each schema generation of -schema, starts each admin of
// -ours (and the Java jars of -jar / -jar342 when given and java is
// installed) on it in turn, and times the console shapes a person uses
// (median of -runs after a warm-up). The table goes to bench/out/growth.md.
//
//	go run ./scripts/benchgrowth -ours after=bin/xxl-admin-go [-ours before=/path/old] [-rows 1000000]
//	    [-schema 2.4,3.4] [-jar …2.4.2.jar] [-jar342 …3.4.2.jar] [-runs 3] [-keep] [-postgres]
//	    [-days 27] [-reuse xxl_growth_24_… -schema 2.4]
//
// -days spreads the rows over that many days (issue 27's 100,000,000 rows
// are a year: -rows 100000000 -days 365). -reuse measures a database kept
// by -keep instead of building one.
//
// -postgres also builds each data set in PostgreSQL and times ours' list
// statements there through the store (no Java admin runs on PostgreSQL).
package main

import (
	"context"
	"crypto/rand"
	"database/sql"
	"encoding/hex"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"strings"
	"syscall"
	"time"

	"github.com/go-sql-driver/mysql"

	"github.com/xxl-admin-go/xxl-admin-go/compat/schema"
)

const envMySQL = "XXL_TEST_MYSQL_DSN"

// server is the MariaDB server the data sets live on.
type server struct {
	db               *sql.DB
	addr, user, pass string
}

func (s server) jdbc(name string) string {
	return "jdbc:mysql://" + s.addr + "/" + name + "?serverTimezone=UTC&useSSL=false&allowPublicKeyRetrieval=true"
}

func (s server) dsn(name string) string {
	c := mysql.NewConfig()
	c.Net, c.Addr, c.User, c.Passwd, c.DBName, c.ParseTime = "tcp", s.addr, s.user, s.pass, name, true
	return c.FormatDSN()
}

func main() {
	if err := run(); err != nil {
		fmt.Fprintln(os.Stderr, "benchgrowth:", err)
		os.Exit(1)
	}
}

// candidate is one admin measured on a data set.
type candidate struct {
	label string
	java  bool
	path  string // our binary, or the jar
}

func run() error {
	rows := flag.Int("rows", 10_000_000, "xxl_job_log rows to build")
	flag.IntVar(&days, "days", days, "days the log rows span, ending now (365 with -rows 100000000: a year of one trigger every 0.3 s)")
	schemas := flag.String("schema", "2.4,3.4", "schema generations to build and measure")
	var ours multiFlag
	flag.Var(&ours, "ours", "label=path of one of our binaries (repeatable; default after=bin/xxl-admin-go)")
	jar := flag.String("jar", "", "the Java admin 2.4.2 jar (measured on the 2.4 data set)")
	jar342 := flag.String("jar342", "", "the Java admin 3.4.2 jar (measured on the 3.4 data set)")
	runs := flag.Int("runs", 3, "timed runs per shape after one warm-up")
	keep := flag.Bool("keep", false, "keep the databases (their names are printed)")
	monitors := flag.Bool("monitors", false, "also time one idle pass of ours' fail monitor, lost-job monitor and log report through the store on each MariaDB data set")
	monJava := flag.Bool("monitors-java", false, "with -monitors, also Java's statements for the same work once each (minutes at 100M rows)")
	reuse := flag.String("reuse", "", "measure this kept database (-keep) instead of building one; -schema names its generation")
	out := flag.String("out", "bench/out/growth.md", "where the table goes")
	maria := flag.Bool("mariadb", true, "build and measure the MariaDB data sets (false with -postgres: PostgreSQL only)")
	pg := flag.Bool("postgres", false, "also build the data sets in PostgreSQL ("+envPostgres+") and time ours' list statements there")
	store := flag.Bool("store", false, "on MariaDB also time ours' list statements through the store (no HTTP; as -postgres does)")
	mo := modeFlags()
	flag.Parse()
	if len(ours) == 0 && !*store {
		ours = multiFlag{"after=bin/xxl-admin-go"}
	}
	dsn := os.Getenv(envMySQL)
	if dsn == "" {
		return fmt.Errorf("needs %s (a MariaDB server with the SEQUENCE engine)", envMySQL)
	}
	cfg, err := mysql.ParseDSN(dsn)
	if err != nil {
		return fmt.Errorf("%s: %w", envMySQL, err)
	}
	db, err := sql.Open("mysql", dsn)
	if err != nil {
		return err
	}
	defer db.Close()
	srv := server{db: db, addr: cfg.Addr, user: cfg.User, pass: cfg.Passwd}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	var version string
	_ = db.QueryRowContext(ctx, "SELECT VERSION()").Scan(&version)
	work, err := os.MkdirTemp("", "benchgrowth")
	if err != nil {
		return err
	}
	defer os.RemoveAll(work)
	if mo.mode != "" {
		return runMode(ctx, srv, mo, *rows, *keep, *jar, ours, *out, work)
	}

	var reused *dataset
	if *reuse != "" {
		if strings.Contains(*schemas, ",") {
			return fmt.Errorf("-reuse %s: -schema must name its one generation (2.4 or 3.4)", *reuse)
		}
		ds, n, err := reuseData(ctx, srv, *reuse)
		if err != nil {
			return err
		}
		reused, *rows, days = &ds, ds.rows, n
	}
	var table strings.Builder
	fmt.Fprintf(&table, "MariaDB %s, %d xxl_job_log rows over %d days (1 in 100 failed and alarmed), %d jobs in %d groups, nothing firing; median of %d after a warm-up, %s.\n",
		version, *rows, days, jobs, groups, *runs, time.Now().UTC().Format("2006-01-02 15:04 UTC"))
	for _, sc := range strings.Split(*schemas, ",") {
		gen := schema.Gen2
		j := *jar
		if sc == "3.4" {
			gen, j = schema.Gen3, *jar342
		}
		var cands []candidate
		if j != "" {
			if _, err := exec.LookPath("java"); err == nil {
				cands = append(cands, candidate{label: "Java " + map[string]string{"2.4": "2.4.2", "3.4": "3.4.2"}[sc], java: true, path: j})
			}
		}
		for _, o := range ours {
			label, path, _ := strings.Cut(o, "=")
			abs, _ := filepath.Abs(path)
			cands = append(cands, candidate{label: label, path: abs})
		}
		if !*maria {
			if err := measurePostgres(ctx, &table, gen, *rows, *runs, *keep); err != nil {
				return fmt.Errorf("postgres %s: %w", sc, err)
			}
			continue
		}
		var ds dataset
		if reused != nil {
			ds = *reused
		} else {
			b := make([]byte, 4)
			_, _ = rand.Read(b)
			name := "xxl_growth_" + strings.ReplaceAll(sc, ".", "") + "_" + hex.EncodeToString(b)
			began := time.Now()
			ds, err = buildData(ctx, srv, name, gen, *rows)
			if !*keep {
				defer func() { _, _ = db.Exec("DROP DATABASE IF EXISTS " + name) }()
			} else {
				fmt.Fprintln(os.Stderr, "benchgrowth: keeping database", name)
			}
			if err != nil {
				return err
			}
			fmt.Fprintf(os.Stderr, "benchgrowth: %s built in %s\n", name, time.Since(began).Round(time.Second))
		}
		if *store {
			if err := timeMariaDB(ctx, &table, srv, ds, gen, *runs); err != nil {
				return err
			}
		}
		res := map[string][]result{}
		for _, c := range cands {
			r, err := measureAdmin(ctx, srv, ds, gen, c, *runs, work)
			if err != nil {
				return fmt.Errorf("%s on %s: %w", c.label, sc, err)
			}
			res[c.label] = r
		}
		if len(cands) > 0 {
			writeTable(&table, sc, ds, cands, res)
		}
		if *monitors {
			if err := measureMonitors(ctx, &table, srv, ds, gen, *runs, *monJava); err != nil {
				return fmt.Errorf("monitors on %s: %w", sc, err)
			}
		}
		if *pg {
			if err := measurePostgres(ctx, &table, gen, *rows, *runs, *keep); err != nil {
				return fmt.Errorf("postgres %s: %w", sc, err)
			}
		}
	}
	fmt.Print(table.String())
	if err := os.MkdirAll(filepath.Dir(*out), 0o755); err != nil {
		return err
	}
	return os.WriteFile(*out, []byte(table.String()), 0o644)
}

type multiFlag []string

func (m *multiFlag) String() string     { return strings.Join(*m, ",") }
func (m *multiFlag) Set(v string) error { *m = append(*m, v); return nil }
