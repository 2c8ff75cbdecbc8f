# xxl-admin-go: a drop-in for the xuxueli/xxl-job-admin image. Same interface:
# PARAMS (arguments, e.g. --spring.datasource.url=...), the -D options of
# JAVA_OPTS (JVM flags such as -Xmx512m are ignored with one info line), port
# 8080, a writable /data/applogs, TZ=PRC as in the Java image.
#
# No compiler stage: `make image` builds static binaries (CGO_ENABLED=0) into
# dist/bin/ and stages the rest of the context in dist/image/; this file only
# copies them into an empty base, so it builds offline, in seconds, for every
# platform without emulation.
FROM scratch

ARG TARGETOS=linux
ARG TARGETARCH=amd64
ARG VERSION=0.0.0-dev
ARG REVISION=unknown
ARG CREATED

LABEL org.opencontainers.image.title="xxl-admin-go" \
      org.opencontainers.image.description="Wire-compatible Go replacement for the xxl-job admin (scheduling center) 2.3/2.4" \
      org.opencontainers.image.version="${VERSION}" \
      org.opencontainers.image.revision="${REVISION}" \
      org.opencontainers.image.created="${CREATED}" \
      org.opencontainers.image.source="https://github.com/xxl-admin-go/xxl-admin-go" \
      org.opencontainers.image.licenses="Apache-2.0"

# CA certificates (SMTP over TLS, HTTPS webhooks), /etc/passwd and /etc/group
# naming uid 65532. Zone data is compiled into the binary (time/tzdata).
COPY dist/image/rootfs/ /
# /data holds the embedded SQLite default (./data/xxl-job.db from WORKDIR /)
# and applogs, as the Java image's volume; owned by the runtime user.
COPY --chown=65532:65532 dist/image/data/ /data/
COPY dist/bin/${TARGETOS}_${TARGETARCH}/xxl-admin-go /xxl-admin-go

# TZ=PRC as the Java image sets it: crons and report days run in
# Asia/Shanghai unless TZ is overridden.
ENV TZ=PRC \
    PARAMS="" \
    JAVA_OPTS=""
WORKDIR /
USER 65532:65532
EXPOSE 8080
HEALTHCHECK --interval=15s --timeout=5s --start-period=10s --retries=3 CMD ["/xxl-admin-go", "health"]
ENTRYPOINT ["/xxl-admin-go"]
