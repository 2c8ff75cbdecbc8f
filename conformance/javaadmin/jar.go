package javaadmin

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
)

// DefaultJar is the reference admin, kept beside the repository
// (<module root>/../shared/reference, README there); EnvJar overrides it.
const DefaultJar = "../shared/reference/xxl-job-admin-2.4.2.jar"

// EnvJar names the variable that points at the jar elsewhere.
const EnvJar = "XXL_TEST_JAVA_ADMIN_JAR"

// DefaultJar342 is the reference admin 3.4.2 (README beside it);
// EnvJar342 overrides it.
const DefaultJar342 = "../shared/reference/xxl-job-admin-3.4.2.jar"

// EnvJar342 names the variable that points at the 3.4.2 jar elsewhere.
const EnvJar342 = "XXL_TEST_JAVA_ADMIN_JAR_342"

// EnvEnabled switches the Java suites on (the same switch as the live Java
// executors: CI installs one JDK for both).
const EnvEnabled = "XXL_TEST_JAVA"

// ModuleRoot walks up from the working directory to go.mod.
func ModuleRoot() (string, error) {
	dir, err := os.Getwd()
	if err != nil {
		return "", fmt.Errorf("module root: %w", err)
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return dir, nil
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return "", errors.New("module root: no go.mod above the working directory")
		}
		dir = parent
	}
}

// JarPath is the jar to run: $XXL_TEST_JAVA_ADMIN_JAR, else DefaultJar
// under the module root. It checks that the file exists.
func JarPath() (string, error) { return jarPath(EnvJar, DefaultJar) }

// JarPath342 is JarPath for the 3.4.2 jar: $XXL_TEST_JAVA_ADMIN_JAR_342,
// else DefaultJar342 under the module root.
func JarPath342() (string, error) { return jarPath(EnvJar342, DefaultJar342) }

func jarPath(env, def string) (string, error) {
	jar := os.Getenv(env)
	if jar == "" {
		root, err := ModuleRoot()
		if err != nil {
			return "", err
		}
		jar = filepath.Join(root, filepath.FromSlash(def))
	}
	if _, err := os.Stat(jar); err != nil {
		return "", fmt.Errorf("reference admin jar (set %s to use another path): %w", env, err)
	}
	return jar, nil
}

// Require skips t with a [suite-off] message unless the Java suite is
// switched on and java is on PATH; it fails t when the jar is missing (CI
// has it) and returns its path.
func Require(t testing.TB) string {
	t.Helper()
	return require(t, JarPath)
}

// Require342 is Require for the 3.4.2 jar.
func Require342(t testing.TB) string {
	t.Helper()
	return require(t, JarPath342)
}

func require(t testing.TB, path func() (string, error)) string {
	t.Helper()
	if os.Getenv(EnvEnabled) != "1" {
		t.Skip("[suite-off] the Java admin needs " + EnvEnabled + "=1 (and a JDK)")
	}
	if _, err := exec.LookPath("java"); err != nil {
		t.Skip("[suite-off] the Java admin needs java on PATH (" + EnvEnabled + "=1)")
	}
	jar, err := path()
	if err != nil {
		t.Fatal(err)
	}
	return jar
}
