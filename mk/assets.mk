# Third-party front-end files of the web console (static/vendor/, committed).
# Rebuild after changing static/package.json: needs Node 20 + npm and the npm
# registry; `make run` and `go build` never need it.
.PHONY: assets

assets:
	./scripts/assets.sh
