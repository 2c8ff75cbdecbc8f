#!/usr/bin/env bash
# make bench: start-up/RSS measurement and every Go benchmark, as JSON under bench/out/.
# MariaDB benchmarks run when XXL_TEST_MYSQL_DSN is set. BENCHTIME (default 1s) and
# BENCH (regexp, default .) narrow the run.
set -euo pipefail
cd "$(dirname "$0")/.."
mkdir -p bench/out
echo "start-up and idle RSS (bench/out/startup.json)"
go run ./scripts/benchstart -bin bin/xxl-admin-go | tee bench/out/startup.json
# The retention benchmark seeds this many rows (the 1,000,000-row figures in the
# notes come from XXL_BENCH_RETENTION_ROWS=1000000 XXL_BENCH_RETENTION_BATCHES=500,1000,5000).
export XXL_BENCH_RETENTION_ROWS="${XXL_BENCH_RETENTION_ROWS:-100000}"
export XXL_BENCH_RETENTION_BATCHES="${XXL_BENCH_RETENTION_BATCHES:-1000}"
echo "go benchmarks (bench/out/go.json; summary in bench/out/go.txt)"
go test -run '^$' -bench "${BENCH:-.}" -benchtime "${BENCHTIME:-1s}" -benchmem -json ./... > bench/out/go.json
grep -o '"Output":"Benchmark[^"]*' bench/out/go.json | sed 's/"Output":"//; s/\\t/\t/g; s/\\n//' | tee bench/out/go.txt
# The scheduler at 1,000 and 8,000 jobs (issue 11's goals), on MariaDB only;
# BENCH_SCHED_JOBS / BENCH_SCHED_SECONDS change it, BENCH_SCHED_JOBS= skips it.
if [ -n "${XXL_TEST_MYSQL_DSN:-}" ] && [ -n "${BENCH_SCHED_JOBS-1000,8000}" ]; then
  echo "scheduler throughput (bench/out/sched-ours-N.json)"
  go run ./scripts/benchsched -bin bin/xxl-admin-go -jobs "${BENCH_SCHED_JOBS-1000,8000}" -seconds "${BENCH_SCHED_SECONDS:-30}" > bench/out/sched.json
  grep -E '"(jobs|triggers_per_s|p50|p99|missed|duplicates|admin_cpu_ms_per_trigger|mariadb_cpu_ms_per_trigger|rss_max_mib|loadavg_start)"' bench/out/sched.json
fi
