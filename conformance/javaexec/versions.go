package javaexec

// Versions lists the xxl-job-core versions conformance/java/build.sh builds by default.
// 3.3.2 is the newest 3.x published on Maven Central when this was written (3.4.x exists as a
// source tag only), so it stands in for the 3.x generation.
func Versions() []string {
	return []string{"2.3.1", "2.4.2", "3.3.2"}
}

// EnvEnabled is the environment variable that opts a test run into starting Java executors.
const EnvEnabled = "XXL_TEST_JAVA"

// EnvJarDir overrides the directory JarPath looks in for executor-<version>.jar files.
const EnvJarDir = "XXL_TEST_JAVA_DIR"
