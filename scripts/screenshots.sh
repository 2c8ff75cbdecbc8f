#!/usr/bin/env bash
# Writes docs/screenshots/: a PNG of every console page of our admin (login,
# dashboard, job list, job add dialog, log list, log detail, GLUE IDE,
# executor list, user list) in en and zh_CN, the set the Java admin's
# screenshots in shared/conformance/screenshots/java-admin-2.4.2 have. Run by
# `make screenshots`.
#
# The pages come from the browser suite's page test
# (conformance/browser TestEveryPageLoads: our admin on SQLite with the
# recordings' fixture, headless Chromium at 1400x900 in Asia/Shanghai), which
# saves them when XXL_PAGES_SCREENSHOTS names a directory; pngquant then
# reduces each to a 256-colour palette (a tenth of the size, no visible
# change for these flat pages). Needs chromium, pngquant and a CJK font
# (Debian: chromium pngquant fonts-wqy-zenhei; .ci/packages.d/browser).
set -euo pipefail
cd "$(dirname "$0")/.."
GO=${GO:-go}
chromium=${XXL_TEST_CHROMIUM:-$(command -v chromium || true)}
[ -n "$chromium" ] || { echo "screenshots: chromium not found (apt-get install chromium)" >&2; exit 1; }
command -v pngquant >/dev/null || { echo "screenshots: pngquant not found (apt-get install pngquant)" >&2; exit 1; }
fc-list :lang=zh 2>/dev/null | grep -q . || { echo "screenshots: no CJK font (apt-get install fonts-wqy-zenhei)" >&2; exit 1; }

raw=$(mktemp -d)
trap 'rm -rf "$raw"' EXIT
XXL_TEST_CHROMIUM=$chromium XXL_PAGES_SCREENSHOTS=$raw \
  "$GO" test -count=1 -run 'TestEveryPageLoads/(en|zh_CN)$' ./conformance/browser/

out=docs/screenshots
mkdir -p "$out"
missing=0
for page in login dashboard job_list job_add_dialog log_list log_detail glue_ide executor_list user_list; do
  for lang in en zh_CN; do
    name=$page.$lang.png
    if [ ! -f "$raw/$name" ]; then
      echo "screenshots: the test saved no $name" >&2
      missing=1
      continue
    fi
    pngquant --quality=65-90 --speed 1 --strip --force --output "$out/$name" "$raw/$name"
  done
done
[ "$missing" = 0 ] || exit 1
du -ch "$out"/*.png | tail -1
