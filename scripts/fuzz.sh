#!/usr/bin/env bash
# Runs every Go fuzz target in the module for a short time each.
set -euo pipefail
fuzztime=${1:-3s}
cd "$(dirname "$0")/.."
mapfile -t files < <(git ls-files '*_test.go' 2>/dev/null || find . -name '*_test.go')
count=0
for f in "${files[@]}"; do
  dir=$(dirname "$f")
  while read -r name; do
    [ -n "$name" ] || continue
    echo "fuzz ${dir}: ${name} (${fuzztime})"
    go test -run '^$' -fuzz "^${name}\$" -fuzztime "$fuzztime" "./${dir#./}" > /tmp/fuzz.$$.log 2>&1 || { cat /tmp/fuzz.$$.log; exit 1; }
    count=$((count + 1))
  done < <(grep -oE '^func (Fuzz[A-Za-z0-9_]+)\(' "$f" | sed -E 's/^func (Fuzz[A-Za-z0-9_]+)\(/\1/')
done
rm -f /tmp/fuzz.$$.log
echo "fuzz: ${count} targets ran ${fuzztime} each without a failure"
