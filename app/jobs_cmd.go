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
	"github.com/xxl-admin-go/xxl-admin-go/core/jobs"
	"github.com/xxl-admin-go/xxl-admin-go/core/transfer"
)

// jobsUsage is printed for `xxl-admin-go jobs --help` and usage errors.
const jobsUsage = `usage:
  xxl-admin-go jobs export [--group APP] [--out FILE] [--key=value ...]
      Writes the executor groups and their jobs, GLUE source included, as a
      versioned JSON document (format xxl-admin-go/jobs, version 1) to stdout
      or FILE; --group limits it to one app name.
  xxl-admin-go jobs import [--mode merge|overwrite] [--dry-run] FILE [--key=value ...]
      Applies such a document (FILE "-" reads stdin) in one transaction: groups
      matched by app name, jobs by key or group + handler + description.
      merge (default) creates what is missing and keeps what exists; overwrite
      also updates what exists; nothing is deleted. --dry-run prints what would
      change and writes nothing. Exits 1 when the document is refused.
  The database is the server's: the same --key=value options, PARAMS,
  JAVA_OPTS, environment and application.properties (spring.datasource.*).`

// jobsArgs are the parsed words after "jobs".
type jobsArgs struct {
	action string // export or import
	group  string
	out    string
	mode   transfer.Mode
	dryRun bool
	file   string
	rest   []string // configuration options
}

var errJobsHelp = errors.New("help")

func parseJobsArgs(args []string) (jobsArgs, error) {
	p := jobsArgs{mode: transfer.Merge}
	if len(args) == 0 {
		return p, errors.New("say export or import")
	}
	switch args[0] {
	case "export", "import":
		p.action = args[0]
	case "-h", "--help", "help":
		return p, errJobsHelp
	default:
		return p, fmt.Errorf("unknown action %q: say export or import", args[0])
	}
	value := func(i *int, name string) (string, error) {
		a := args[*i]
		if v, ok := strings.CutPrefix(a, name+"="); ok {
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
			return p, errJobsHelp
		case a == "--group" || strings.HasPrefix(a, "--group="):
			p.group, err = value(&i, "--group")
		case a == "--out" || strings.HasPrefix(a, "--out="):
			p.out, err = value(&i, "--out")
		case a == "--mode" || strings.HasPrefix(a, "--mode="):
			var m string
			if m, err = value(&i, "--mode"); err == nil {
				p.mode, err = transfer.ParseMode(m)
			}
		case a == "--dry-run":
			p.dryRun = true
		case a == "--config" || a == "-config":
			p.rest = append(p.rest, a)
			if i+1 < len(args) {
				i++
				p.rest = append(p.rest, args[i])
			}
		case a == "-" || !strings.HasPrefix(a, "-") && !strings.HasSuffix(a, ".jar"):
			if p.file != "" {
				return p, fmt.Errorf("one document at a time (%q and %q)", p.file, a)
			}
			p.file = a
		default:
			p.rest = append(p.rest, a)
		}
		if err != nil {
			return p, err
		}
	}
	switch {
	case p.action == "import" && p.file == "":
		return p, errors.New("import needs the document's file name (- for stdin)")
	case p.action == "import" && p.group != "":
		return p, errors.New("--group is for export")
	case p.action == "export" && (p.file != "" || p.dryRun):
		return p, errors.New("export takes no file and no --dry-run (use --out)")
	}
	return p, nil
}

// runJobs is the `jobs` subcommand: export and import against the
// server's database. env turns the configuration options into the admin's
// configuration; stdin is read for the file "-".
func runJobs(args []string, env func(args []string) config.Env, stdin io.Reader, stdout, stderr io.Writer) int {
	p, err := parseJobsArgs(args)
	if errors.Is(err, errJobsHelp) {
		_, _ = fmt.Fprintln(stdout, jobsUsage)
		return 0
	}
	if err != nil {
		_, _ = fmt.Fprintf(stderr, "jobs: %v\n%s\n", err, jobsUsage)
		return 2
	}
	cfg, err := config.Load(env(p.rest))
	if err != nil {
		_, _ = fmt.Fprintf(stderr, "jobs: configuration: %v\n", err)
		return 2
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	log := newLogger(stderr, "warn")
	store, _, err := openStore(ctx, cfg, log)
	if err != nil {
		_, _ = fmt.Fprintf(stderr, "jobs: %v\n", err)
		return 1
	}
	defer store.Close()
	operator := jobs.AdminAccess("jobs " + p.action)
	if p.action == "export" {
		err = runExport(ctx, p, store, operator, cfg.Workflows, stdout)
	} else {
		gen := genOptions(store.Generation())
		svc := jobs.New(jobs.Config{Store: store, Texts: gen.texts(cfg.I18n), Rules: gen.jobRules, FixRate: gen.fixRate,
			Loc: time.Local, Log: log})
		err = runImport(ctx, p, svc, operator, cfg.Workflows, stdin, stdout, isTerminal(stdout), log)
	}
	if err != nil {
		_, _ = fmt.Fprintf(stderr, "jobs %s: %v\n", p.action, err)
		return 1
	}
	return 0
}
