# Switches the 3-node Galera test on (conformance/galera). The test starts
# its own three mariadbd nodes on free loopback ports and data directories
# of its own; the server on 3306 is not touched.
for p in "${XXL_TEST_GALERA_PROVIDER:-}" /usr/lib/galera/libgalera_smm.so /usr/lib/libgalera_smm.so; do
  [ -n "$p" ] && [ -f "$p" ] && galera_provider=$p && break
done
[ -n "${galera_provider:-}" ] || { echo "libgalera_smm.so missing after install (galera-4)"; exit 1; }
command -v rsync >/dev/null || { echo "rsync missing after install"; exit 1; }
echo "galera provider: $galera_provider"
export XXL_TEST_GALERA_PROVIDER="$galera_provider"
export XXL_TEST_GALERA=1
# The test's default is the short form for CI: a 40 s run with node 3
# SIGKILLed and rejoined, about 75–90 s in all (XXL_TEST_GALERA_SECONDS=60
# for the longer run behind the figures of docs/topologies.md).
