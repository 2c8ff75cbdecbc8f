# The web console on a large xxl_job_log (issue 27): builds the data set
# itself in MariaDB (10M log rows over 27 days, 1 in 100 failed and
# alarmed, 50 jobs; one data set per schema generation), then times the
# console shapes of docs/benchmarks.md (median of 3 after a warm-up) on our
# binary and, when their jars are given and java is installed, the Java
# admins on the same data. Needs XXL_TEST_MYSQL_DSN; table in
# bench/out/growth.md. Never part of `make test`.
# make bench-growth BENCHGROWTH_ARGS="-rows 1000000 -jar ../shared/reference/xxl-job-admin-2.4.2.jar -jar342 ../shared/reference/xxl-job-admin-3.4.2.jar"
# A large set built once and measured again: -rows 75000000 -days 274 -schema 2.4
# -keep, then -reuse <the kept name> -schema 2.4; -monitors adds one idle pass of
# the fail and lost-job monitors and the log report.
.PHONY: bench-growth

bench-growth: build
	$(GO) run ./scripts/benchgrowth -ours ours=$(BIN) $(BENCHGROWTH_ARGS)
