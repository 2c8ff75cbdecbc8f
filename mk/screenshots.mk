# Screenshots of every console page (docs/console.md, "Screenshots"): our admin in
# headless Chromium, both consoles (2.4.2 in docs/screenshots/, 3.4.2 in
# docs/screenshots/v3/), en and zh_CN, as palette PNGs; screenshots-java342 also
# takes the 3.4.2 jar's pages (docs/screenshots/java-admin-3.4.2/; needs a JDK and
# MariaDB). Needs chromium, pngquant and a CJK font (.ci/packages.d/browser).

.PHONY: screenshots screenshots-java342

screenshots:
	@GO="$(GO)" ./scripts/screenshots.sh

screenshots-java342:
	@GO="$(GO)" XXL_TEST_JAVA=1 XXL_TEST_MYSQL_DSN="$${XXL_TEST_MYSQL_DSN:-xxl:xxl_pwd@tcp(127.0.0.1:3306)/}" ./scripts/screenshots.sh java342
