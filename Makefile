# xxl-admin-go — the two commands a fresh clone needs are `make run` and `make test`.
GO        ?= go
BIN       := bin/xxl-admin-go
PKGS      := ./...
TESTFLAGS ?=
FUZZTIME  ?= 3s
STATICCHECK_VERSION := v0.8.2

.PHONY: all build run test test-go lint vet fmt-check staticcheck fuzz bench bench-sched java clean

all: build

build:
	CGO_ENABLED=0 $(GO) build -trimpath -ldflags '$(LDFLAGS)' -o $(BIN) ./cmd/xxl-admin-go

# Serves http://127.0.0.1:8080/xxl-job-admin on the embedded SQLite store
# (./data/xxl-job.db, created with the seed rows; login admin / 123456).
# Extra arguments: make run ARGS="--server.port=9090"
run: build
	./$(BIN) $(ARGS)

# Unit, store, protocol and conformance tests with the race detector, plus a
# short run of every fuzz target. Suites needing MariaDB, Java, pyxxl or the
# image run when XXL_TEST_MYSQL_DSN / XXL_TEST_JAVA=1 / ... are set; the last
# line says which were skipped and how to switch them on.
TESTSUMMARY := bin/.test-summary
# The suites that count fires to the second against whole admin processes run
# after the others, one package at a time, so no other suite's CPU use makes
# their fires late (a 2-core CI machine).
CLOCKPKGS := ./conformance/cluster,./conformance/mixed,./conformance/galera,./conformance/dropin,./conformance/live,./core/schedule
test: lint test-go
	$(MAKE) --no-print-directory fuzz
	@cat $(TESTSUMMARY)

# The go test part of `make test` alone (no lint, no fuzz): CI runs it with
# every suite on after `make test` has passed on a clone with nothing beside
# it (.ci/fresh-clone.sh), where lint and fuzz, which no suite switches,
# already ran on the same commit.
test-go:
	@mkdir -p bin
	$(GO) run ./scripts/testsummary -summary $(TESTSUMMARY) -serial $(CLOCKPKGS) -- -race -count=1 $(TESTFLAGS) $(PKGS)

lint: fmt-check vet staticcheck

fmt-check:
	@out=$$(gofmt -l $$(git ls-files '*.go' 2>/dev/null || find . -name '*.go')); \
	if [ -n "$$out" ]; then echo "gofmt needed:"; echo "$$out"; exit 1; fi

vet:
	$(GO) vet $(PKGS)

# staticcheck runs when installed (CI installs it); locally: make staticcheck-install
staticcheck:
	@if command -v staticcheck >/dev/null 2>&1; then staticcheck $(PKGS); \
	elif [ -x "$$($(GO) env GOPATH)/bin/staticcheck" ]; then "$$($(GO) env GOPATH)/bin/staticcheck" $(PKGS); \
	else echo "staticcheck not installed: skipped (make staticcheck-install)"; fi

staticcheck-install:
	$(GO) install honnef.co/go/tools/cmd/staticcheck@$(STATICCHECK_VERSION)

# Each fuzz target for FUZZTIME (seed corpora also run in plain `go test`).
fuzz:
	@./scripts/fuzz.sh $(FUZZTIME)

# Benchmarks; results as JSON lines in bench/out/ (see docs/benchmarks.md).
bench: build
	@./scripts/bench.sh

# Scheduler throughput: N FIX_RATE-1s jobs on one admin process against a
# fake executor (MariaDB with XXL_TEST_MYSQL_DSN, else -db sqlite).
# make bench-sched BENCHSCHED_ARGS="-jobs 1000,5000 -seconds 60"
bench-sched: build
	$(GO) run ./scripts/benchsched -bin $(BIN) $(BENCHSCHED_ARGS)

# The Java executors used by the live conformance tests (needs java + mvn).
java:
	./conformance/java/build.sh

clean:
	rm -rf bin bench/out

# Further targets of individual parts (image, dist, assets, ...), one file each.
-include mk/*.mk
