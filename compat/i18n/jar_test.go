package i18n

import (
	"archive/zip"
	"errors"
	"io"
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestJarBundles proves the embedded bundles are what the Java admins
// themselves read: each reference jar's i18n/message_*.properties is
// loaded by java.util.Properties (testdata/PropDump.java, run by the JDK)
// and compared key by key with Load / LoadFor(3, …).
func TestJarBundles(t *testing.T) {
	if os.Getenv("XXL_TEST_JAVA") != "1" {
		t.Skip("[suite-off] comparing with the reference jars needs XXL_TEST_JAVA=1 (and a JDK)")
	}
	java, err := exec.LookPath("java")
	if err != nil {
		t.Skip("[suite-off] comparing with the reference jars needs java on PATH (XXL_TEST_JAVA=1)")
	}
	dump, err := filepath.Abs("testdata/PropDump.java")
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		major    int
		env, jar string
	}{{2, "XXL_TEST_JAVA_ADMIN_JAR", "xxl-job-admin-2.4.2.jar"}, {3, "XXL_TEST_JAVA_ADMIN_JAR_342", "xxl-job-admin-3.4.2.jar"}} {
		jar := referenceJar(tc.env, tc.jar)
		for _, lang := range langs {
			file := extract(t, jar, "BOOT-INF/classes/i18n/message_"+lang+".properties")
			out, err := exec.Command(java, dump, file).Output()
			if err != nil {
				t.Fatalf("%s: java PropDump: %v", tc.jar, err)
			}
			want := parseDump(t, string(out))
			got := LoadFor(tc.major, lang).All()
			if len(want) == 0 || !maps.Equal(got, want) {
				for k, w := range want {
					if g, ok := got[k]; !ok || g != w {
						t.Errorf("%s %s %s: ours %q (present %v), Java %q", tc.jar, lang, k, g, ok, w)
					}
				}
				for k := range got {
					if _, ok := want[k]; !ok {
						t.Errorf("%s %s: key %s not in the jar's bundle", tc.jar, lang, k)
					}
				}
			}
		}
	}
}

// extract copies one entry of a jar into the test's temporary directory.
func extract(t *testing.T, jar, name string) string {
	t.Helper()
	zr, err := zip.OpenReader(jar)
	if err != nil {
		t.Fatalf("open reference jar: %v", err)
	}
	defer func() { _ = zr.Close() }()
	f, err := zr.Open(name)
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	defer func() { _ = f.Close() }()
	path := filepath.Join(t.TempDir(), filepath.Base(name))
	out, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := io.Copy(out, f); err != nil {
		t.Fatal(errors.Join(err, out.Close()))
	}
	if err := out.Close(); err != nil {
		t.Fatal(err)
	}
	return path
}

func parseDump(t *testing.T, out string) map[string]string {
	t.Helper()
	unescape := strings.NewReplacer(`\\`, `\`, `\t`, "\t", `\r`, "\r", `\n`, "\n").Replace
	m := map[string]string{}
	for line := range strings.SplitSeq(strings.TrimSuffix(out, "\n"), "\n") {
		k, v, ok := strings.Cut(line, "\t")
		if !ok {
			t.Fatalf("PropDump line %q", line)
		}
		m[unescape(k)] = unescape(v)
	}
	return m
}

// referenceJar is a released Java admin jar: the file the variable names
// (as conformance/javaadmin reads it), else the reference material beside
// the repository, where CI has it.
func referenceJar(env, name string) string {
	if p := os.Getenv(env); p != "" {
		return p
	}
	return filepath.Join("..", "..", "..", "shared", "reference", name)
}
