# The linter `make test` runs (skipped by the Makefile where not installed).
make --no-print-directory staticcheck-install
