package app

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"strings"
	"syscall"
	"time"

	"github.com/xxl-admin-go/xxl-admin-go/compat/config"
	"github.com/xxl-admin-go/xxl-admin-go/compat/schema"
)

// dbUsage is printed for `xxl-admin-go db --help` and usage errors.
const dbUsage = `usage:
  xxl-admin-go db check [--key=value ...]
      Prints the database's schema generation and what the admin would warn
      of or refuse at start; changes nothing (creates no tables).
  xxl-admin-go db upgrade --to 3.4 [--dry-run] [--remove-duplicate-registrations]
                          [--idle DURATION] [--key=value ...]
      Upgrades a 2.x database (xxl-job 2.3/2.4, or 3.x lacking parts of
      3.4.2's tables) in place to the 3.4.2 schema, printing each step, its
      SQL and its time. --dry-run prints the plan and changes nothing.
      Registrations that break 3.4.2's unique key are counted and removed
      only with --remove-duplicate-registrations. Users whose password is a
      2.x MD5 hash are listed with the statement that sets a new one.
      Refused while an admin (Java or ours) is scheduling on the database:
      a fire, a schedule round or a registration within --idle (default 1m),
      or the schedule lock or the jobs' next times moving for 3 s.
      Exits 0 when done (or nothing to do), 1 when refused or failed.
  xxl-admin-go db tune [--apply] [--key=value ...]
      Prints the indexes xxl-job 3.4.2 added to xxl_job_log (I_jobid,
      I_jobgroup) that this database lacks, with their DDL (online where the
      database has it: MariaDB/MySQL ALGORITHM=INPLACE, LOCK=NONE;
      PostgreSQL CREATE INDEX CONCURRENTLY) and a rough time for the
      table's size; changes nothing. --apply builds them one by one,
      showing progress. The admin itself never alters a table.
  The database is the server's: the same --key=value options, PARAMS,
  JAVA_OPTS, environment and application.properties (spring.datasource.*).`

// dbArgs are the parsed words after "db".
type dbArgs struct {
	action      string // check, upgrade or tune
	apply       bool   // tune --apply
	to          schema.Generation
	dryRun      bool
	removeDupes bool
	idle        time.Duration
	rest        []string // configuration options
}

var errDBHelp = errors.New("help")

func parseDBArgs(args []string) (dbArgs, error) {
	p := dbArgs{idle: schema.DefaultIdle}
	if len(args) == 0 {
		return p, errors.New("say check, upgrade or tune")
	}
	switch args[0] {
	case "check", "upgrade", "tune":
		p.action = args[0]
	case "-h", "--help", "help":
		return p, errDBHelp
	default:
		return p, fmt.Errorf("unknown action %q: say check, upgrade or tune", args[0])
	}
	value := func(i *int, name string) (string, error) {
		if v, ok := strings.CutPrefix(args[*i], name+"="); ok {
			return v, nil
		}
		if *i+1 >= len(args) {
			return "", fmt.Errorf("%s needs a value", name)
		}
		*i++
		return args[*i], nil
	}
	for i := 1; i < len(args); i++ {
		a := args[i]
		var err error
		switch {
		case a == "-h" || a == "--help":
			return p, errDBHelp
		case a == "--to" || strings.HasPrefix(a, "--to="):
			var v string
			if v, err = value(&i, "--to"); err == nil {
				p.to, err = schema.ParseGeneration(v)
			}
		case a == "--idle" || strings.HasPrefix(a, "--idle="):
			var v string
			if v, err = value(&i, "--idle"); err == nil {
				p.idle, err = time.ParseDuration(v)
				if err == nil && p.idle < 0 {
					err = errors.New("--idle cannot be negative")
				}
			}
		case a == "--dry-run":
			p.dryRun = true
		case a == "--apply":
			p.apply = true
		case a == "--remove-duplicate-registrations":
			p.removeDupes = true
		case a == "--config" || a == "-config":
			p.rest = append(p.rest, a)
			if i+1 < len(args) {
				i++
				p.rest = append(p.rest, args[i])
			}
		default:
			p.rest = append(p.rest, a)
		}
		if err != nil {
			return p, err
		}
	}
	switch {
	case p.action == "upgrade" && p.to == "":
		return p, errors.New("upgrade needs --to 3.4")
	case p.action == "upgrade" && p.to != schema.Gen3:
		return p, fmt.Errorf("--to %s: the only upgrade is to 3.4", p.to)
	case p.action == "check" && (p.to != "" || p.dryRun || p.removeDupes || p.apply):
		return p, errors.New("check takes no --to, --dry-run, --apply or --remove-duplicate-registrations")
	case p.action == "upgrade" && p.apply:
		return p, errors.New("upgrade takes no --apply (it applies unless --dry-run)")
	case p.action == "tune" && (p.to != "" || p.dryRun || p.removeDupes):
		return p, errors.New("tune takes only --apply (without it, it prints and changes nothing)")
	}
	return p, nil
}

// runDB is the `db` subcommand: check or upgrade the server's database.
func runDB(args []string, env func(args []string) config.Env, stdout, stderr io.Writer) int {
	p, err := parseDBArgs(args)
	if errors.Is(err, errDBHelp) {
		_, _ = fmt.Fprintln(stdout, dbUsage)
		return 0
	}
	if err != nil {
		_, _ = fmt.Fprintf(stderr, "db: %v\n%s\n", err, dbUsage)
		return 2
	}
	cfg, err := config.Load(env(p.rest))
	if err != nil {
		_, _ = fmt.Fprintf(stderr, "db: configuration: %v\n", err)
		return 2
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	store, target, err := openUnprepared(ctx, cfg)
	if err != nil {
		_, _ = fmt.Fprintf(stderr, "db: %v\n", err)
		return 1
	}
	defer store.Close()
	_, _ = fmt.Fprintf(stdout, "database: %s %s (zone %s)\n", target.Backend, target.Display, target.Loc)
	switch p.action {
	case "check":
		err = runDBCheck(ctx, store, cfg, stdout)
	case "tune":
		err = runDBTune(ctx, store, p.apply, isTerminal(stdout), stdout)
	default:
		err = runDBUpgrade(ctx, store, p, cfg, isTerminal(stdout), stdout)
	}
	if err != nil {
		_, _ = fmt.Fprintf(stderr, "db %s: %v\n", p.action, err)
		return 1
	}
	return 0
}

// openUnprepared opens the configured database without Prepare, which
// would create tables on an empty database and refuses a half-upgraded one
// (the very database an upgrade is for). Two connections are all it uses.
func openUnprepared(ctx context.Context, cfg *config.Config) (*schema.Store, schema.Target, error) {
	target, err := schema.ParseJDBC(cfg.Datasource.URL, cfg.Datasource.Username, cfg.Datasource.Password)
	if err != nil {
		return nil, target, err
	}
	openCtx, cancel := context.WithTimeout(ctx, max(cfg.Datasource.ConnTimeout, time.Second))
	defer cancel()
	store, err := schema.Open(openCtx, target, schema.PoolSettings{MaxOpen: 2, MaxIdle: 2})
	return store, target, err
}

func runDBCheck(ctx context.Context, store *schema.Store, cfg *config.Config, w io.Writer) error {
	res, err := store.CheckSchema(ctx, schema.PrepareOptions{AllowUnknownColumns: cfg.AllowUnknownColumns})
	if res.Generation != "" {
		_, _ = fmt.Fprintf(w, "schema: %s (the admin behaves as %s)\n", res.Generation, javaRelease(res.Generation))
	}
	if err != nil {
		return err
	}
	if res.ScheduleTimezone {
		_, _ = fmt.Fprintln(w, "per-job time zones: xxl_job_info has the schedule_timezone column")
	}
	if len(res.Warnings) == 0 {
		_, _ = fmt.Fprintln(w, "warnings: none")
	}
	for _, warn := range res.Warnings {
		_, _ = fmt.Fprintln(w, "warning: "+warn)
	}
	if res.Generation == schema.Gen2 {
		_, _ = fmt.Fprintln(w, "upgrade: `xxl-admin-go db upgrade --to 3.4 --dry-run` shows what an upgrade in place to xxl-job 3.4.2's tables would do")
	}
	return nil
}
