#!/usr/bin/env bash
# Builds the container image from prebuilt static binaries (run by `make image`,
# which passes the variables below). No compiler runs inside the build, so it
# is offline and takes seconds:
#
#   1. dist/bin/linux_ARCH/xxl-admin-go for each platform (scripts/dist.sh)
#   2. dist/image/: the rest of the build context — the host's CA bundle,
#      /etc/passwd and /etc/group naming uid 65532, an empty /data/applogs
#   3. the image, tagged IMAGE:IMAGE_TAG:
#      - docker build (host platform, loaded into the engine, also tagged
#        :latest) when a Docker engine answers and IMAGE_BUILDER is not buildah;
#      - otherwise buildah without a daemon: every platform in one manifest
#        list, written as the OCI layout dist/oci/ (tag IMAGE_TAG), which
#        conformance/image unpacks and runs. Publish it with
#        `skopeo copy --all oci:dist/oci:TAG docker://REGISTRY/NAME:TAG`.
#
# Usage: scripts/image.sh OS/ARCH...   (e.g. linux/amd64 linux/arm64)
set -euo pipefail
cd "$(dirname "$0")/.."
: "${IMAGE:?}" "${IMAGE_TAG:?}" "${VERSION:?}" "${COMMIT:?}" "${DATE:?}" "${SOURCE_DATE_EPOCH:?}"
IMAGE_BUILDER=${IMAGE_BUILDER:-auto}
CA_BUNDLE=${CA_BUNDLE:-/etc/ssl/certs/ca-certificates.crt}
[ $# -gt 0 ] || { echo "usage: $0 OS/ARCH..." >&2; exit 2; }
platforms=("$@")
started=$(date +%s%N)

./scripts/dist.sh binaries "${platforms[@]}"

rm -rf dist/image
mkdir -p dist/image/rootfs/etc/ssl/certs dist/image/data/applogs
if [ ! -s "$CA_BUNDLE" ]; then
  echo "image: no CA bundle at $CA_BUNDLE (apt-get install ca-certificates, or set CA_BUNDLE)" >&2
  exit 1
fi
install -m 0644 "$CA_BUNDLE" dist/image/rootfs/etc/ssl/certs/ca-certificates.crt
# A name for uid/gid 65532 (the image's USER), so tools inside and outside
# the container show one; the home is the data directory.
printf 'root:x:0:0:root:/:/sbin/nologin\nnonroot:x:65532:65532:xxl-admin-go:/data:/sbin/nologin\n' >dist/image/rootfs/etc/passwd
printf 'root:x:0:\nnonroot:x:65532:\n' >dist/image/rootfs/etc/group
chmod 0644 dist/image/rootfs/etc/passwd dist/image/rootfs/etc/group
chmod -R u=rwX,go=rX dist/image

build_args=(--build-arg "VERSION=$VERSION" --build-arg "REVISION=$COMMIT" --build-arg "CREATED=$DATE")

use_docker=false
case "$IMAGE_BUILDER" in
  docker) use_docker=true ;;
  buildah) ;;
  auto) command -v docker >/dev/null && timeout 10 docker info >/dev/null 2>&1 && use_docker=true ;;
  *) echo "image: IMAGE_BUILDER must be auto, docker or buildah" >&2; exit 2 ;;
esac

if $use_docker; then
  host="linux/$("${GO:-go}" env GOARCH)"
  echo "image: docker build --platform $host"
  docker build --platform "$host" "${build_args[@]}" -t "$IMAGE:$IMAGE_TAG" -t "$IMAGE:latest" .
else
  command -v buildah >/dev/null || {
    echo "image: no Docker engine answers and buildah is not installed (apt-get install buildah)" >&2
    exit 1
  }
  # A private, throw-away store: each build starts clean, and vfs needs no
  # kernel overlay support. The OCI layout is the result.
  store=(--root "$PWD/dist/buildah/root" --runroot "$PWD/dist/buildah/run" --storage-driver vfs)
  rm -rf dist/buildah dist/oci
  list="$IMAGE:$IMAGE_TAG"
  # One platform after the other (a run with all of them builds in parallel
  # and lists them in finishing order), so one commit gives one digest.
  for p in "${platforms[@]}"; do
    echo "image: buildah bud --platform $p"
    buildah "${store[@]}" bud --quiet --isolation chroot --format docker --platform "$p" \
      --manifest "$list" --timestamp "$SOURCE_DATE_EPOCH" "${build_args[@]}" -f Dockerfile . >/dev/null
  done
  buildah "${store[@]}" manifest push --quiet --all "$list" "oci:$PWD/dist/oci:$IMAGE_TAG"
  rm -rf dist/buildah
fi

ms=$(( ($(date +%s%N) - started) / 1000000 ))
echo "image: $IMAGE:$IMAGE_TAG built in ${ms} ms$($use_docker || echo "; OCI layout dist/oci ($(du -sh dist/oci | cut -f1))")"
