package javaexec

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
)

// jarDirInModule is where build.sh writes the jars, relative to the Go module root.
const jarDirInModule = "conformance/java/target"

// JarPath returns the path of the executor jar for version. It looks in $XXL_TEST_JAVA_DIR if set,
// else in conformance/java/target under the module root found by walking up from the working
// directory to go.mod (go test runs in the package directory, so this works from any package).
func JarPath(version string) (string, error) {
	dir := os.Getenv(EnvJarDir)
	if dir == "" {
		wd, err := os.Getwd()
		if err != nil {
			return "", fmt.Errorf("javaexec: working directory: %w", err)
		}
		root, err := findModuleRoot(wd)
		if err != nil {
			return "", err
		}
		dir = filepath.Join(root, filepath.FromSlash(jarDirInModule))
	}
	return jarIn(dir, version)
}

// jarIn returns dir/executor-<version>.jar if it is a regular file.
func jarIn(dir, version string) (string, error) {
	if version == "" {
		return "", errors.New("javaexec: empty executor version")
	}
	p := filepath.Join(dir, "executor-"+version+".jar")
	st, err := os.Stat(p)
	if err != nil {
		return "", fmt.Errorf("javaexec: executor jar for %s not found (run conformance/java/build.sh %s): %w",
			version, version, err)
	}
	if !st.Mode().IsRegular() {
		return "", fmt.Errorf("javaexec: %s is not a regular file", p)
	}
	return p, nil
}

// findModuleRoot walks up from dir to the first directory holding go.mod.
func findModuleRoot(dir string) (string, error) {
	dir, err := filepath.Abs(dir)
	if err != nil {
		return "", fmt.Errorf("javaexec: absolute path of %s: %w", dir, err)
	}
	for {
		if st, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil && st.Mode().IsRegular() {
			return dir, nil
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return "", errors.New("javaexec: no go.mod above the working directory; set " + EnvJarDir)
		}
		dir = parent
	}
}
