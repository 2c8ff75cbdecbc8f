# Scheduler throughput side by side with the real Java admins (issue 11;
# issue 20 for 3.4.2): alternating runs (Java, ours, Java, ours) on one
# MariaDB at each job count, for each Java generation of -java (242: the
# 2.4.2 jar and ours on a 2.x database; 342: the 3.4.2 jar and ours on a
# 3.x database), table in bench/out/compare.md. Needs XXL_TEST_MYSQL_DSN;
# the Java admins run when java is installed
# (../shared/reference/xxl-job-admin-{2.4.2,3.4.2}.jar).
# make bench-compare BENCHCOMPARE_ARGS="-jobs 1000,8000 -java 242,342 -rounds 3 -seconds 30"
.PHONY: bench-compare

bench-compare: build
	$(GO) run ./scripts/benchcompare -bin $(BIN) $(BENCHCOMPARE_ARGS)
