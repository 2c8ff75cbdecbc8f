// Command benchcompare runs the scheduler benchmark (scripts/benchsched)
// against the real Java admins and ours, alternating on one MariaDB — Java,
// ours, Java, ours — at each job count and for each Java generation of
// -java: 242 runs the 2.4.2 jar and ours on a 2.x database, 342 the 3.4.2
// jar and ours on a 3.x database (where ours behaves as 3.4.2: the root
// context path, schedule updates batched as 3.4.2 batches them). It writes
// a side-by-side table to bench/out/compare.md (and every run's JSON
// beside it). Without java on PATH or without a jar, only ours runs for
// that generation and the table says so.
//
//	go run ./scripts/benchcompare [-jobs 1000,2000,4000,8000] [-java 242,342] [-rounds 2] [-seconds 60] [-warmup 10s]
package main

import (
	"bytes"
	"context"
	"database/sql"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"syscall"
	"time"

	_ "github.com/go-sql-driver/mysql" // the server's version for the table
)

func main() {
	if err := run(); err != nil {
		fmt.Fprintln(os.Stderr, "benchcompare:", err)
		os.Exit(1)
	}
}

// result is the part of a benchsched report the table shows.
type result struct {
	Admin          string  `json:"admin"`
	Schema         string  `json:"schema"`
	Jobs           int     `json:"jobs"`
	Seconds        int     `json:"seconds"`
	TriggersPerSec float64 `json:"triggers_per_s"`
	LatenessMs     struct {
		P50 float64 `json:"p50"`
		P99 float64 `json:"p99"`
		Max float64 `json:"max"`
	} `json:"lateness_ms"`
	Planned       int     `json:"planned"`
	Missed        int     `json:"missed"`
	Duplicates    int     `json:"duplicates"`
	LogOpen       int     `json:"log_rows_trigger_code_0"`
	LogLinesPerS  float64 `json:"admin_log_lines_per_s"`
	CPUPerTrigger float64 `json:"admin_cpu_ms_per_trigger"`
	DBCPUPerTrig  float64 `json:"mariadb_cpu_ms_per_trigger"`
	RSSMaxMiB     float64 `json:"rss_max_mib"`
	Health        struct {
		P99 float64 `json:"p99_ms"`
	} `json:"health_latency"`
	API struct {
		P99 float64 `json:"p99_ms"`
	} `json:"api_latency"`
	LoadAvgStart string `json:"loadavg_start"`
	Started      string `json:"started"`
	// BusyBefore and Settled: the machine's CPU share busy just before the
	// run, and how long the run waited for it to fall (settle).
	BusyBefore float64       `json:"-"`
	Settled    time.Duration `json:"-"`
}

func run() error {
	jobs := flag.String("jobs", "1000,2000,4000,8000", "comma-separated job counts")
	rounds := flag.Int("rounds", 2, "runs per admin and job count, alternating Java and ours")
	seconds := flag.Int("seconds", 60, "measured seconds per run")
	warmUp := flag.Duration("warmup", 10*time.Second, "fired but not measured")
	jar := flag.String("jar", "../shared/reference/xxl-job-admin-2.4.2.jar", "the Java admin 2.4.2 jar")
	jar342 := flag.String("jar342", "../shared/reference/xxl-job-admin-3.4.2.jar", "the Java admin 3.4.2 jar")
	javaGens := flag.String("java", "242,342", "the Java generations to compare with: 242 and/or 342")
	bin := flag.String("bin", "bin/xxl-admin-go", "our admin binary")
	out := flag.String("out", "bench/out", "directory for compare.md and the runs' JSON")
	flag.Parse()
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()

	runs := filepath.Join(*out, "compare")
	if err := os.MkdirAll(runs, 0o755); err != nil {
		return err
	}
	tmp, err := os.MkdirTemp("", "benchcompare-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(tmp)
	sched := filepath.Join(tmp, "benchsched")
	if b, err := exec.CommandContext(ctx, "go", "build", "-o", sched, "./scripts/benchsched").CombinedOutput(); err != nil {
		return fmt.Errorf("build benchsched: %v\n%s", err, b)
	}
	var gens []generation
	var notes []string
	for _, g := range strings.Split(*javaGens, ",") {
		gen, ok := generations[strings.TrimSpace(g)]
		if !ok {
			return fmt.Errorf("-java: %q is not 242 or 342", g)
		}
		gen.jar = *jar
		if gen.name == "3.4.2" {
			gen.jar = *jar342
		}
		gen.runs = []invocation{{admin: gen.javaAdmin, label: "java " + gen.name}, {admin: "ours", label: "ours (" + gen.schema + " db)"}}
		note := ""
		if _, err := exec.LookPath("java"); err != nil {
			note = "java is not on PATH: the Java admin " + gen.name + " was not run."
		} else if _, err := os.Stat(gen.jar); err != nil {
			note = "the Java admin jar " + gen.jar + " is missing: it was not run."
		}
		if note != "" {
			fmt.Fprintln(os.Stderr, "benchcompare:", note)
			notes = append(notes, note)
			gen.runs = gen.runs[1:]
		}
		gens = append(gens, gen)
	}
	javaNote := strings.Join(notes, " ")

	var results []result
	for _, s := range strings.Split(*jobs, ",") {
		n, err := strconv.Atoi(strings.TrimSpace(s))
		if err != nil || n <= 0 {
			return fmt.Errorf("-jobs: %q is not a positive count", s)
		}
		for _, gen := range gens {
			for r := 1; r <= *rounds; r++ {
				for _, ru := range gen.runs {
					tag := "-r" + strconv.Itoa(r)
					args := []string{"-admin", ru.admin, "-schema", gen.schema, "-jobs", strconv.Itoa(n),
						"-seconds", strconv.Itoa(*seconds), "-warmup", warmUp.String(), "-out", runs, "-tag", tag,
						"-jar", gen.jar, "-bin", *bin}
					busy, waited, err := settle(ctx)
					if err != nil {
						return fmt.Errorf("wait for a quiet machine: %w", err)
					}
					fmt.Fprintf(os.Stderr, "benchcompare: %s, %d jobs, round %d (machine %.0f%% busy after %s of settling)\n",
						ru.label, n, r, busy*100, waited.Round(time.Second))
					cmd := exec.CommandContext(ctx, sched, args...)
					cmd.Stdout, cmd.Stderr = os.Stderr, os.Stderr
					if err := cmd.Run(); err != nil {
						return fmt.Errorf("%s, %d jobs, round %d: %w", ru.label, n, r, err)
					}
					b, err := os.ReadFile(filepath.Join(runs, fmt.Sprintf("sched-%s-%d%s.json", fileLabel(ru.admin, gen.schema), n, tag)))
					if err != nil {
						return err
					}
					var res result
					if err := json.Unmarshal(b, &res); err != nil {
						return err
					}
					res.Admin = ru.label
					res.BusyBefore, res.Settled = busy, waited
					results = append(results, res)
				}
			}
		}
	}
	md := table(ctx, results, javaNote)
	path := filepath.Join(*out, "compare.md")
	if err := os.WriteFile(path, md, 0o644); err != nil {
		return err
	}
	fmt.Fprintln(os.Stderr, "benchcompare: wrote", path)
	os.Stdout.Write(md)
	return nil
}

// table renders the results with the machine they came from.
func table(ctx context.Context, results []result, note string) []byte {
	var b bytes.Buffer
	fmt.Fprintf(&b, "# Scheduler throughput: the Java admins and ours, side by side\n\n")
	fmt.Fprintf(&b, "`make bench-compare`, %s. N jobs at FIX_RATE 1 s, all due on the same whole seconds, one admin, "+
		"a fake executor in the harness's process, MariaDB on the same box; runs alternate Java, ours, Java, ours. "+
		"Each Java generation runs on its own tables: 2.4.2 on a 2.x database, 3.4.2 on a 3.x one (its tables), "+
		"and ours beside it on the same kind of database, where it behaves as that generation (on 3.x: the root "+
		"context path, trigger_next_time updates batched per round as 3.4.2's xxl.job.schedule.batchsize does).\n\n",
		time.Now().UTC().Format("2006-01-02 15:04 MST"))
	fmt.Fprintf(&b, "Machine: %s\n\n", machine(ctx))
	if note != "" {
		fmt.Fprintf(&b, "**%s**\n\n", note)
	}
	b.WriteString("| jobs | admin | run | CPU busy before (settled) | runs/s | missed | dup | lateness p50 / p99 / max ms | admin CPU ms/trigger | MariaDB CPU ms/trigger | RSS MiB | health / API p99 ms | log lines/s | rows at code 0 |\n")
	b.WriteString("|---:|---|---:|---|---:|---:|---:|---|---:|---:|---:|---|---:|---:|\n")
	round := map[string]int{}
	for _, r := range results {
		key := r.Admin + strconv.Itoa(r.Jobs)
		round[key]++
		fmt.Fprintf(&b, "| %s | %s | %d | %.0f %% (%s) | %s | %s | %s | %s / %s / %s | %.3f | %.3f | %.0f | %s / %s | %.1f | %s |\n",
			num(float64(r.Jobs)), r.Admin, round[key], r.BusyBefore*100, r.Settled.Round(time.Second), num(r.TriggersPerSec), num(float64(r.Missed)),
			num(float64(r.Duplicates)), num(r.LatenessMs.P50), num(r.LatenessMs.P99), num(r.LatenessMs.Max),
			r.CPUPerTrigger, r.DBCPUPerTrig, r.RSSMaxMiB, num(r.Health.P99), num(r.API.P99), r.LogLinesPerS, num(float64(r.LogOpen)))
	}
	b.WriteString(`
- CPU busy before: the share of both cores busy over the 2 s before the run started; each run waits (up to
  90 s, the time in brackets) until it is at most 10 %, so other work on a shared box stays out of the runs.
- runs/s: /run calls the executor received per second over the measured seconds (after the warm-up).
- missed: planned (job, second) slots of the measured seconds with no run; dup: runs beyond one per job and
  planned second over the whole run. A run counts for a planned second it arrived at most 5 s after.
- lateness: receipt at the executor − the planned second.
- CPU per trigger: the process's user+system time over the measured seconds / runs received; MariaDB's
  counts every client of the server (other work on the box shows up there).
- health / API: GET <ctx>/actuator/health and POST <ctx>/api/registry, each every 100 ms during the run.
- rows at code 0: log rows never given a trigger result, counted after the admin stopped.
`)
	return b.Bytes()
}

// num prints a number with thousands separators, no decimals.
func num(v float64) string {
	s := strconv.FormatInt(int64(v+0.5), 10)
	neg := strings.HasPrefix(s, "-")
	s = strings.TrimPrefix(s, "-")
	var out []byte
	for i := range s {
		if i > 0 && (len(s)-i)%3 == 0 {
			out = append(out, ',')
		}
		out = append(out, s[i])
	}
	if neg {
		return "-" + string(out)
	}
	return string(out)
}

// machine describes the box: CPU, cores, memory, kernel, MariaDB, Java, Go.
func machine(ctx context.Context) string {
	cpu := "?"
	if b, err := os.ReadFile("/proc/cpuinfo"); err == nil {
		for _, line := range strings.Split(string(b), "\n") {
			if k, v, ok := strings.Cut(line, ":"); ok && strings.TrimSpace(k) == "model name" {
				cpu = strings.TrimSpace(v)
				break
			}
		}
	}
	mem := "?"
	if b, err := os.ReadFile("/proc/meminfo"); err == nil {
		var kb int64
		if _, err := fmt.Sscanf(string(b), "MemTotal: %d kB", &kb); err == nil {
			mem = fmt.Sprintf("%.0f GiB RAM", float64(kb)/(1<<20))
		}
	}
	first := func(name string, args ...string) string {
		out, err := exec.CommandContext(ctx, name, args...).CombinedOutput()
		if err != nil {
			return "?"
		}
		return strings.TrimSpace(strings.SplitN(string(out), "\n", 2)[0])
	}
	server := "MariaDB ?"
	if db, err := sql.Open("mysql", os.Getenv("XXL_TEST_MYSQL_DSN")); err == nil {
		var v string
		if db.QueryRowContext(ctx, "SELECT VERSION()").Scan(&v) == nil {
			server = "server " + v
		}
		db.Close()
	}
	return fmt.Sprintf("%s, %d cores, %s, Linux %s; %s; %s; %s", cpu, runtime.NumCPU(), mem, first("uname", "-r"),
		server, first("java", "-version"), runtime.Version())
}

// generation is one Java admin release to compare with, and the runs of
// each round: its jar, then ours, on a database of its generation.
type generation struct {
	name, schema, javaAdmin string // "2.4.2", "2.4", "java"
	jar                     string
	runs                    []invocation
}

// invocation is one benchsched run of a round.
type invocation struct{ admin, label string }

// generations are the -java values.
var generations = map[string]generation{
	"242": {name: "2.4.2", schema: "2.4", javaAdmin: "java"},
	"342": {name: "3.4.2", schema: "3.4", javaAdmin: "java342"},
}

// fileLabel is the name benchsched gives a run's JSON (its options.label).
func fileLabel(admin, schema string) string {
	if admin == "ours" && schema == "3.4" {
		return "ours342"
	}
	return admin
}
