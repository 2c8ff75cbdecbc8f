# Build identity and release archives (docs/docker.md, issue 9 / 15).
#
# VERSION, COMMIT and DATE are stamped into `xxl-admin-go --version` by
# LDFLAGS, which `make build`, `make image` and `make dist` share. DATE is the
# commit time, not the build time, so one commit always gives the same bytes.
# Override on the command line: make dist VERSION=1.2.0
MODULE            := github.com/xxl-admin-go/xxl-admin-go
VERSION           ?= $(shell ./scripts/dist.sh version)
COMMIT            ?= $(shell git rev-parse HEAD 2>/dev/null || echo unknown)
SOURCE_DATE_EPOCH ?= $(shell git log -1 --format=%ct 2>/dev/null || echo 0)
DATE              ?= $(shell TZ=UTC git log -1 --date=format-local:%Y-%m-%dT%H:%M:%SZ --format=%cd 2>/dev/null || echo unknown)
# Evaluate each once per make run (the ?= above are recursive).
VERSION           := $(VERSION)
COMMIT            := $(COMMIT)
SOURCE_DATE_EPOCH := $(SOURCE_DATE_EPOCH)
DATE              := $(DATE)
LDFLAGS           := -s -w -X $(MODULE)/app.version=$(VERSION) -X $(MODULE)/app.commit=$(COMMIT) -X $(MODULE)/app.date=$(DATE)

DIST_PLATFORMS ?= linux/amd64 linux/arm64 darwin/arm64 windows/amd64

.PHONY: dist version

# Versioned archives in dist/release/ (binary, LICENSE, README.md, example
# application.properties) and a SHA-256 sums file.
dist:
	@GO="$(GO)" LDFLAGS="$(LDFLAGS)" VERSION="$(VERSION)" SOURCE_DATE_EPOCH="$(SOURCE_DATE_EPOCH)" \
		./scripts/dist.sh release $(DIST_PLATFORMS)

version:
	@echo "$(VERSION) $(COMMIT) $(DATE)"

.PHONY: clean-dist
clean: clean-dist
clean-dist:
	rm -rf dist
