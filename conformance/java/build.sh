#!/usr/bin/env bash
# Builds the conformance executor jars (target/executor-<version>.jar) from the published
# com.xuxueli:xxl-job-core artifacts. Usage: build.sh [version ...]   (default: all supported)
# Offline first (default ~/.m2 cache), online only when something is missing from the cache.
# A version whose jar is newer than pom.xml, this script and every source file is skipped.
set -euo pipefail

DEFAULT_VERSIONS="2.3.1 2.4.2 3.3.2 3.4.2"
if [ "$#" -gt 0 ]; then
    versions="$*"
else
    versions="${XXL_JAVA_VERSIONS:-$DEFAULT_VERSIONS}"
fi

if ! command -v java >/dev/null 2>&1; then
    echo "build.sh: 'java' not found on PATH; install a JDK 17+ (e.g. apt-get install openjdk-17-jdk-headless)" >&2
    exit 2
fi
if ! command -v mvn >/dev/null 2>&1; then
    echo "build.sh: 'mvn' not found on PATH; install Maven (e.g. apt-get install maven)" >&2
    exit 2
fi

cd "$(dirname -- "${BASH_SOURCE[0]}")"

# Newest modification time among the inputs of every build.
newest_input() {
    find pom.xml build.sh src -type f -printf '%T@\n' | sort -n | tail -1
}

up_to_date() {
    local jar="target/executor-$1.jar"
    [ -f "$jar" ] || return 1
    local jar_time input_time
    jar_time=$(stat -c '%Y' "$jar")
    input_time=$(newest_input)
    # compare whole seconds; an input touched in the same second as the jar counts as newer
    [ "$jar_time" -gt "${input_time%.*}" ]
}

mvn_args=(-q -B -Dstyle.color=never)
status=0
for v in $versions; do
    if up_to_date "$v"; then
        echo "build.sh: executor-$v.jar is up to date"
        continue
    fi
    echo "build.sh: building executor-$v.jar"
    log="target/build-$v.log"
    mkdir -p target
    if mvn -o "${mvn_args[@]}" "-Dxxljob.version=$v" package >"$log" 2>&1; then
        :
    elif mvn "${mvn_args[@]}" "-Dxxljob.version=$v" package >"$log" 2>&1; then
        :
    else
        echo "build.sh: FAILED to build executor-$v.jar; Maven output follows ($log):" >&2
        tail -50 "$log" >&2
        status=1
        continue
    fi
    if [ ! -f "target/executor-$v.jar" ]; then
        echo "build.sh: Maven succeeded but target/executor-$v.jar is missing" >&2
        status=1
    fi
done
exit "$status"
