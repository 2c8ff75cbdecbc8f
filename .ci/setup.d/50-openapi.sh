# Installs openapi-spec-validator 0.9.0 (Python, from PyPI) into a
# virtualenv kept between runs; switches the job API document's check by
# the reference validator on.
command -v python3 >/dev/null || { echo "python3 missing after install"; exit 1; }
oasv_venv="${XDG_CACHE_HOME:-$HOME/.cache}/xxl-admin-go/openapi-spec-validator-0.9.0"
if ! "$oasv_venv/bin/openapi-spec-validator" --help >/dev/null 2>&1; then
  rm -rf "$oasv_venv"
  python3 -m venv "$oasv_venv"
  "$oasv_venv/bin/pip" install -q --disable-pip-version-check openapi-spec-validator==0.9.0
fi
"$oasv_venv/bin/python" -c 'import importlib.metadata as m; print("openapi-spec-validator", m.version("openapi-spec-validator"))'
export XXL_TEST_OPENAPI_VALIDATOR="$oasv_venv/bin/openapi-spec-validator"
