# Switches the console page tests on (static/: pages in headless Chromium
# under the console's Content-Security-Policy).
command -v chromium >/dev/null || { echo "chromium missing after install"; exit 1; }
export XXL_TEST_CHROMIUM="$(command -v chromium)"
