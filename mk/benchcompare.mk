# Scheduler throughput side by side with the real Java admin (issue 11):
# alternating runs (Java, ours, Java, ours) on one MariaDB at each job count,
# table in bench/out/compare.md. Needs XXL_TEST_MYSQL_DSN; the Java admin
# runs when java is installed (../shared/reference/xxl-job-admin-2.4.2.jar).
# make bench-compare BENCHCOMPARE_ARGS="-jobs 1000,8000 -rounds 3 -seconds 30"
.PHONY: bench-compare

bench-compare: build
	$(GO) run ./scripts/benchcompare -bin $(BIN) $(BENCHCOMPARE_ARGS)
