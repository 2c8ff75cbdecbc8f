# Container image (Dockerfile at the root; docs/docker.md, issue 15).
#
# make image: static binaries for IMAGE_PLATFORMS, a staged build context
# (CA bundle, /etc/passwd, /data/applogs) and the image: with `docker build`
# when a Docker engine answers, else with buildah (no daemon; CI), which also
# writes the multi-platform OCI layout dist/oci/ that conformance/image runs.
IMAGE           ?= ghcr.io/xxl-admin-go/xxl-admin-go
IMAGE_PLATFORMS ?= linux/amd64 linux/arm64
# Docker tags cannot hold '+'.
IMAGE_TAG       ?= $(subst +,-,$(VERSION))
# auto | docker | buildah
IMAGE_BUILDER   ?= auto

.PHONY: image

image:
	@GO="$(GO)" LDFLAGS="$(LDFLAGS)" VERSION="$(VERSION)" COMMIT="$(COMMIT)" DATE="$(DATE)" \
		SOURCE_DATE_EPOCH="$(SOURCE_DATE_EPOCH)" IMAGE="$(IMAGE)" IMAGE_TAG="$(IMAGE_TAG)" \
		IMAGE_BUILDER="$(IMAGE_BUILDER)" ./scripts/image.sh $(IMAGE_PLATFORMS)
