#!/usr/bin/env bash
# Build identity, cross-compiled static binaries and release archives.
#
#   scripts/dist.sh version            prints the release version (see below)
#   scripts/dist.sh binaries OS/ARCH…  builds dist/bin/OS_ARCH/xxl-admin-go[.exe]
#   scripts/dist.sh release OS/ARCH…   binaries + dist/release/ archives + SHA256SUMS
#
# The Makefile (mk/dist.mk) passes GO, LDFLAGS, VERSION and SOURCE_DATE_EPOCH.
# Every binary is CGO_ENABLED=0: static, no ELF interpreter, so it runs in an
# empty image and on any Linux. Archives are reproducible: file times are the
# commit time, owners are 0, names are sorted.
set -euo pipefail
cd "$(dirname "$0")/.."

GO=${GO:-go}
LDFLAGS=${LDFLAGS:-}

# version: the nearest v* tag without its "v" (v1.2.0 → 1.2.0; commits past
# it give 1.2.0-3-gabc1234), else 0.0.0-dev; "-dirty" when the work tree has
# uncommitted changes.
version() {
  local v dirty=""
  if v=$(git describe --tags --match 'v[0-9]*' --dirty 2>/dev/null); then
    echo "${v#v}"
    return
  fi
  if git rev-parse --git-dir >/dev/null 2>&1 && ! git diff --quiet HEAD -- 2>/dev/null; then
    dirty="-dirty"
  fi
  echo "0.0.0-dev${dirty}"
}

binaries() {
  local p os arch out
  for p in "$@"; do
    os=${p%/*} arch=${p#*/}
    out="dist/bin/${os}_${arch}/xxl-admin-go"
    [ "$os" = windows ] && out="$out.exe"
    echo "build $out"
    CGO_ENABLED=0 GOOS=$os GOARCH=$arch "$GO" build -trimpath -ldflags "$LDFLAGS" -o "$out" ./cmd/xxl-admin-go
  done
}

# zipdir ARCHIVE DIR: zip when installed, else Python's zipfile module.
zipdir() {
  local archive=$1 dir=$2
  if command -v zip >/dev/null; then
    (cd "$(dirname "$dir")" && find "$(basename "$dir")" | LC_ALL=C sort | zip -q -X "$archive" -@)
  elif command -v python3 >/dev/null; then
    (cd "$(dirname "$dir")" && python3 -m zipfile -c "$archive" "$(basename "$dir")")
  else
    echo "dist: need zip or python3 for the windows archive (apt-get install zip)" >&2
    exit 1
  fi
}

release() {
  local version=${VERSION:?VERSION not set} epoch=${SOURCE_DATE_EPOCH:-0} p os arch name stage bin
  binaries "$@"
  rm -rf dist/release && mkdir -p dist/release/stage
  for p in "$@"; do
    os=${p%/*} arch=${p#*/}
    name="xxl-admin-go_${version}_${os}_${arch}"
    stage="dist/release/stage/$name"
    mkdir -p "$stage"
    bin=xxl-admin-go
    [ "$os" = windows ] && bin=xxl-admin-go.exe
    cp "dist/bin/${os}_${arch}/$bin" "$stage/"
    cp LICENSE README.md "$stage/"
    cp deploy/application.properties "$stage/application.properties"
    find "$stage" -exec touch -h -d "@$epoch" {} +
    if [ "$os" = windows ]; then
      zipdir "$PWD/dist/release/$name.zip" "$stage"
    else
      tar --sort=name --mtime="@$epoch" --owner=0 --group=0 --numeric-owner \
        -C dist/release/stage -cf - "$name" | gzip -n -9 >"dist/release/$name.tar.gz"
    fi
    echo "archive dist/release/$(ls dist/release | grep -F "$name.")"
  done
  rm -rf dist/release/stage
  (cd dist/release && sha256sum -- *.tar.gz *.zip 2>/dev/null >"xxl-admin-go_${version}_SHA256SUMS")
  echo "sums    dist/release/xxl-admin-go_${version}_SHA256SUMS"
}

cmd=${1:-}
shift || true
case "$cmd" in
  version) version ;;
  binaries) binaries "$@" ;;
  release) release "$@" ;;
  *) echo "usage: $0 version | binaries OS/ARCH... | release OS/ARCH..." >&2; exit 2 ;;
esac
