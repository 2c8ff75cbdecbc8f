# Workflows against plain child jobs on the same box (issue 28): our
# binary with workflows on and a fake executor in the harness; node-to-node
# latency of A → B as a workflow edge and as child_jobid (p50/p99/max,
# alternated), and the highest start rate of a 10-node fan-out/fan-in
# workflow at which no node is late, beside the same jobs as a child-job
# tree. MariaDB by default (XXL_TEST_MYSQL_DSN); -db mysql,postgres,sqlite
# for more. Table in bench/out/workflow.md. Never part of `make test`.
# make bench-workflow BENCHWORKFLOW_ARGS="-db mysql,postgres,sqlite -n 500 -rates 1,2,5,10,20,50 -seconds 20"
.PHONY: bench-workflow

bench-workflow: build
	$(GO) run ./scripts/benchworkflow -bin $(BIN) $(BENCHWORKFLOW_ARGS)
