#!/usr/bin/env bash
# Writes the console's screenshots under docs/screenshots/ (docs/console.md,
# "Screenshots"), in en and zh_CN, as 256-colour palette PNGs:
#   - docs/screenshots/*.png: the 2.4.2 console of our admin (login,
#     dashboard, job list, job add dialog, log list, log detail, GLUE IDE,
#     executor list, user list), the set the Java admin's screenshots in
#     shared/conformance/screenshots/java-admin-2.4.2 have;
#   - docs/screenshots/v3/*.png: the 3.4.2 console of our admin, the same
#     pages (the list pages in the frame's tabs);
#   - docs/screenshots{,/v3}/workflow_{editor,run}.en.png: the workflow
#     pages (docs/workflows.md), in English;
#   - with the argument java342 (needs a JDK, the 3.4.2 jar and MariaDB:
#     XXL_TEST_JAVA=1, XXL_TEST_MYSQL_DSN), docs/screenshots/java-admin-3.4.2/
#     too: the 3.4.2 jar's pages, taken by the same script on the same
#     fixture, for the comparison.
# Run by `make screenshots` (`make screenshots-java342` for the jar's too).
#
# The pages come from the browser suite (conformance/browser:
# TestEveryPageLoads for 2.x, TestScreenshots34 and TestScreenshotsJava342
# for 3.x: headless Chromium at 1400x900 in Asia/Shanghai, the recordings'
# fixtures), which saves them when XXL_PAGES_SCREENSHOTS names a directory;
# pngquant then reduces each to a 256-colour palette (a tenth of the size,
# no visible change for these flat pages). Needs chromium, pngquant and a
# CJK font (Debian: chromium pngquant fonts-wqy-zenhei; .ci/packages.d/browser).
set -euo pipefail
cd "$(dirname "$0")/.."
GO=${GO:-go}
chromium=${XXL_TEST_CHROMIUM:-$(command -v chromium || true)}
[ -n "$chromium" ] || { echo "screenshots: chromium not found (apt-get install chromium)" >&2; exit 1; }
command -v pngquant >/dev/null || { echo "screenshots: pngquant not found (apt-get install pngquant)" >&2; exit 1; }
fc-list :lang=zh 2>/dev/null | grep -q . || { echo "screenshots: no CJK font (apt-get install fonts-wqy-zenhei)" >&2; exit 1; }

run='TestEveryPageLoads/(en|zh_CN)$|TestScreenshots34/(en|zh_CN)$'
sets=". v3"
if [ "${1:-}" = java342 ]; then
  [ "${XXL_TEST_JAVA:-}" = 1 ] && [ -n "${XXL_TEST_MYSQL_DSN:-}" ] ||
    { echo "screenshots: the 3.4.2 jar's set needs XXL_TEST_JAVA=1 and XXL_TEST_MYSQL_DSN" >&2; exit 1; }
  run="$run|TestScreenshotsJava342/(en|zh_CN)$"
  sets="$sets java-admin-3.4.2"
fi

raw=$(mktemp -d)
trap 'rm -rf "$raw"' EXIT
XXL_TEST_CHROMIUM=$chromium XXL_PAGES_SCREENSHOTS=$raw \
  "$GO" test -count=1 -run "$run" ./conformance/browser/
# The workflow pages (docs/workflows.md): the ETL example's editor and run
# page on both looks, in English (compat/console TestWorkflowScreens).
XXL_TEST_CHROMIUM=$chromium XXL_PAGES_SCREENSHOTS=$raw \
  "$GO" test -count=1 -run 'TestWorkflowScreens' ./compat/console/

missing=0
for set in $sets; do
  out=docs/screenshots/$set
  mkdir -p "$out"
  for page in login dashboard job_list job_add_dialog log_list log_detail glue_ide executor_list user_list; do
    for lang in en zh_CN; do
      name=$page.$lang.png
      if [ ! -f "$raw/$set/$name" ]; then
        echo "screenshots: the tests saved no $set/$name" >&2
        missing=1
        continue
      fi
      pngquant --quality=65-90 --speed 1 --strip --force --output "$out/$name" "$raw/$set/$name"
    done
  done
done
for set in . v3; do
  for page in workflow_editor workflow_run; do
    if [ ! -f "$raw/$set/${page}_etl.en.png" ]; then
      echo "screenshots: the tests saved no $set/${page}_etl.en.png" >&2
      missing=1
      continue
    fi
    pngquant --quality=65-90 --speed 1 --strip --force --output "docs/screenshots/$set/$page.en.png" "$raw/$set/${page}_etl.en.png"
  done
done
[ "$missing" = 0 ] || exit 1
du -ch docs/screenshots/*.png docs/screenshots/*/*.png 2>/dev/null | tail -1
