package app

import (
	"context"
	"fmt"
	"io"
	"os"
	"os/signal"
	"syscall"
	"time"

	"github.com/xxl-admin-go/xxl-admin-go/compat/config"
	"github.com/xxl-admin-go/xxl-admin-go/core/cron"
)

// Main is the whole command line: `xxl-admin-go [--key=value ...]` runs the
// admin; `cron ...` evaluates a cron expression, `health` probes a running
// admin, `jobs export|import` moves groups and jobs between databases,
// `db check|upgrade` checks or upgrades the database's schema in place,
// `--version` prints the build. It returns the process exit code.
func Main(args []string, stdout, stderr io.Writer) int {
	started := time.Now()
	if len(args) > 0 {
		switch args[0] {
		case "cron":
			return cron.RunCLI(args[1:], stdout, stderr)
		case "health":
			return runHealth(args[1:], config.OSEnv, stdout, stderr)
		case "jobs":
			return runJobs(args[1:], config.OSEnv, os.Stdin, stdout, stderr)
		case "db":
			return runDB(args[1:], config.OSEnv, stdout, stderr)
		case "version", "--version", "-version":
			return printVersion(stdout)
		case "-h", "--help", "help":
			fmt.Fprintln(stdout, usage)
			return 0
		}
	}
	cfg, err := config.Load(config.OSEnv(args))
	if err != nil {
		fmt.Fprintf(stderr, "xxl-admin-go: configuration: %v\n", err)
		return 2
	}
	log := newLogger(stderr, cfg.LogLevel)
	b := Build()
	log.Info().Str("version", b.Version).Str("commit", b.Commit).Str("go", b.Go).Msg("xxl-admin-go starting")
	if len(cfg.IgnoredJVMFlags) > 0 {
		log.Info().Strs("flags", cfg.IgnoredJVMFlags).Msg("JAVA_OPTS: JVM flags ignored (no JVM here; -D options are read)")
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	if err := Run(ctx, cfg, log, Options{Started: started}); err != nil {
		log.Error().Err(err).Msg("xxl-admin-go failed")
		return 1
	}
	return 0
}

const usage = `xxl-admin-go: a drop-in replacement for the xxl-job admin (2.3/2.4)

Usage:
  xxl-admin-go [--key=value ...] [--config FILE]
      Runs the admin. Keys are those of the Java admin's application.properties
      (server.port, spring.datasource.url, xxl.job.accessToken, ...), also read
      from PARAMS, JAVA_OPTS -D options, environment variables (SERVER_PORT,
      SPRING_DATASOURCE_URL, ...) and ./application.properties.
  xxl-admin-go cron [--tz ZONE] [--from RFC3339] [--count N] 'EXPR'
      Prints the next fire times of a Quartz cron expression as JSON.
  xxl-admin-go health [--url URL] [--timeout 3s] [--key=value ...]
      Exits 0 when the admin answers (default: this configuration's
      http://127.0.0.1:<server.port><context-path>/actuator/health), else 1.
      For Docker HEALTHCHECK and Kubernetes exec probes.
  xxl-admin-go jobs export [--group APP] [--out FILE] [--key=value ...]
  xxl-admin-go jobs import [--mode merge|overwrite] [--dry-run] FILE [--key=value ...]
      Exports groups and jobs (GLUE source included) as versioned JSON, or
      imports such a file, against this configuration's database.
  xxl-admin-go db check [--key=value ...]
  xxl-admin-go db upgrade --to 3.4 [--dry-run] [--remove-duplicate-registrations] [--key=value ...]
      Prints the database's schema generation and warnings, or upgrades a
      2.x database in place to xxl-job 3.4.2's tables (see db --help).
  xxl-admin-go --version
      Prints the version, commit, build date and Go version.`
