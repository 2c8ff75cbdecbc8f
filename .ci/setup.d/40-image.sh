# Builds the container image with buildah (no Docker engine here): static
# binaries for linux/amd64 and linux/arm64, then the OCI layout dist/oci;
# switches the image tests on (conformance/image runs it unpacked).
command -v buildah >/dev/null || { echo "buildah missing after install"; exit 1; }
image_started=$(date +%s)
make --no-print-directory image IMAGE_BUILDER=buildah
export XXL_TEST_IMAGE="$PWD/dist/oci"
echo "image built in $(( $(date +%s) - image_started ))s"
