# Switches the browser suites on: static/ (the pages against a fake console)
# and conformance/browser (our admin binary, the scenario, XSS and
# CSRF attacks), both in headless Chromium under the console's CSP.
command -v chromium >/dev/null || { echo "chromium missing after install"; exit 1; }
export XXL_TEST_CHROMIUM="$(command -v chromium)"
