# Builds the Java executors (xxl-job-core 2.3.1, 2.4.2 and 3.3.2 from Maven Central; 3.4.2, which
# Maven Central does not serve here, installed into ~/.m2 first from ../shared/reference/maven-3.4.2);
# switches the live Java suites on.
command -v java >/dev/null || { echo "java missing after install"; exit 1; }
command -v mvn >/dev/null || { echo "mvn missing after install"; exit 1; }
if [ ! -f "$HOME/.m2/repository/com/xuxueli/xxl-job-core/3.4.2/xxl-job-core-3.4.2.jar" ]; then
  install342=../shared/reference/maven-3.4.2/install.sh
  [ -f "$install342" ] || { echo "$install342 missing: xxl-job-core 3.4.2 cannot be installed"; exit 1; }
  bash "$install342"
fi
./conformance/java/build.sh
export XXL_TEST_JAVA=1
