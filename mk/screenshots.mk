# Screenshots of every console page (docs/console.md, "Screenshots"): our admin in
# headless Chromium, en and zh_CN, written to docs/screenshots/ as
# palette PNGs. Needs chromium, pngquant and a CJK font (.ci/packages.d/browser).

.PHONY: screenshots

screenshots:
	@GO="$(GO)" ./scripts/screenshots.sh
