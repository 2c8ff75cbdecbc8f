package javaexec

// Versions lists the xxl-job-core versions conformance/java/build.sh builds by default. 3.3.2 is the
// newest 3.x on Maven Central; 3.4.2 is not published there and is installed into the local Maven
// repository by the reference material's maven-3.4.2/install.sh (../shared/reference/maven-3.4.2 in CI,
// run by .ci/setup.d/30-java.sh) before the build.
func Versions() []string {
	return []string{"2.3.1", "2.4.2", "3.3.2", "3.4.2"}
}

// EnvEnabled is the environment variable that opts a test run into starting Java executors.
const EnvEnabled = "XXL_TEST_JAVA"

// EnvJarDir overrides the directory JarPath looks in for executor-<version>.jar files.
const EnvJarDir = "XXL_TEST_JAVA_DIR"
