package javaexec

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestJarIn(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "executor-2.4.2.jar"), []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Mkdir(filepath.Join(dir, "executor-9.9.9.jar"), 0o755); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name    string
		version string
		want    string
		wantErr string
	}{
		{"present", "2.4.2", filepath.Join(dir, "executor-2.4.2.jar"), ""},
		{"missing names build.sh", "3.3.2", "", "build.sh 3.3.2"},
		{"empty version", "", "", "empty executor version"},
		{"directory", "9.9.9", "", "not a regular file"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, err := jarIn(dir, tc.version)
			if tc.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tc.wantErr) {
					t.Fatalf("jarIn(%q) error = %v, want containing %q", tc.version, err, tc.wantErr)
				}
				return
			}
			if err != nil || got != tc.want {
				t.Fatalf("jarIn(%q) = %q, %v; want %q", tc.version, got, err, tc.want)
			}
		})
	}
}

func TestFindModuleRoot(t *testing.T) {
	root := t.TempDir()
	nested := filepath.Join(root, "a", "b", "c")
	if err := os.MkdirAll(nested, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(root, "go.mod"), []byte("module x\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, start := range []string{root, nested, filepath.Join(root, "a")} {
		got, err := findModuleRoot(start)
		if err != nil || got != root {
			t.Errorf("findModuleRoot(%q) = %q, %v; want %q", start, got, err, root)
		}
	}
}

func TestJarPathDefaultsToThisModule(t *testing.T) {
	t.Setenv(EnvJarDir, "")
	_, err := JarPath("0.0.0-never-built")
	// The error names the path it tried: conformance/java/target inside this module.
	want := filepath.Join("conformance", "java", "target", "executor-0.0.0-never-built.jar")
	if err == nil || !strings.Contains(err.Error(), want) {
		t.Fatalf("JarPath error = %v, want it to mention %q", err, want)
	}
}

func TestJarPathHonoursEnv(t *testing.T) {
	dir := t.TempDir()
	jar := filepath.Join(dir, "executor-1.2.3.jar")
	if err := os.WriteFile(jar, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	t.Setenv(EnvJarDir, dir)
	got, err := JarPath("1.2.3")
	if err != nil || got != jar {
		t.Fatalf("JarPath = %q, %v; want %q", got, err, jar)
	}
}
