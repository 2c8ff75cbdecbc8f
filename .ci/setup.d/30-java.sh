# Builds the Java executors from Maven Central; switches the live Java suites on.
command -v java >/dev/null || { echo "java missing after install"; exit 1; }
command -v mvn >/dev/null || { echo "mvn missing after install"; exit 1; }
./conformance/java/build.sh
export XXL_TEST_JAVA=1
