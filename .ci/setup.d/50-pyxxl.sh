# Installs pyxxl 0.4.8 (a third-party Python executor, from PyPI) into a
# virtualenv kept between runs; switches the pyxxl live test on.
command -v python3 >/dev/null || { echo "python3 missing after install"; exit 1; }
pyxxl_venv="${XDG_CACHE_HOME:-$HOME/.cache}/xxl-admin-go/pyxxl-0.4.8"
if ! "$pyxxl_venv/bin/python" -c 'import pyxxl' >/dev/null 2>&1; then
  rm -rf "$pyxxl_venv"
  python3 -m venv "$pyxxl_venv"
  "$pyxxl_venv/bin/pip" install -q --disable-pip-version-check pyxxl==0.4.8
fi
"$pyxxl_venv/bin/python" -c 'import importlib.metadata as m; print("pyxxl", m.version("pyxxl"))'
export XXL_TEST_PYXXL="$pyxxl_venv/bin/python"
