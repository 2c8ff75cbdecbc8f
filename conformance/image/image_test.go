package image

import (
	"crypto/x509"
	"debug/elf"
	"encoding/pem"
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// EnvImage names the OCI layout `make image` writes (dist/oci); it switches
// the image tests on. CI's setup step (.ci/setup.d/40-image.sh) builds it.
const EnvImage = "XXL_TEST_IMAGE"

// maxImageBytes is the size limit for the unpacked image.
const maxImageBytes = 30_000_000

// uidRuntime is the image's user (Dockerfile USER).
const uidRuntime = 65532

func openLayout(t *testing.T) *Layout {
	t.Helper()
	dir := os.Getenv(EnvImage)
	if dir == "" {
		t.Skip("[suite-off] " + EnvImage + " not set: `make image` writes the OCI layout dist/oci; run with " + EnvImage + "=$PWD/dist/oci")
	}
	l, err := OpenLayout(dir)
	if err != nil {
		t.Fatalf("%s=%s: %v", EnvImage, dir, err)
	}
	return l
}

func images(t *testing.T, l *Layout) map[string]Image {
	t.Helper()
	imgs, err := l.Images()
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]Image{}
	for _, img := range imgs {
		out[img.Platform.String()] = img
	}
	return out
}

// TestImageConfig: both platforms are in the layout and their configuration
// is what the Dockerfile says — entrypoint, a non-root user, port 8080, the
// Java image's variables (PARAMS, JAVA_OPTS, TZ=PRC) — with the OCI labels
// for version, revision and source filled in by `make image`.
func TestImageConfig(t *testing.T) {
	l := openLayout(t)
	df, err := ParseDockerfile("../../Dockerfile")
	if err != nil {
		t.Fatal(err)
	}
	imgs := images(t, l)
	for _, p := range []string{"linux/amd64", "linux/arm64"} {
		img, ok := imgs[p]
		if !ok {
			t.Fatalf("no %s image in the layout (have %v)", p, slices.Sorted(maps.Keys(imgs)))
		}
		c := img.Config
		if !slices.Equal(c.Entrypoint, df.Entrypoint) || len(c.Cmd) != 0 {
			t.Errorf("%s: Entrypoint %q Cmd %q, want %q and no Cmd", p, c.Entrypoint, c.Cmd, df.Entrypoint)
		}
		uid, _, err := resolveUser(c.User, "")
		if c.User != df.User || err != nil || uid == 0 {
			t.Errorf("%s: User %q (uid %d, %v): want the Dockerfile's non-root %q", p, c.User, uid, err, df.User)
		}
		if _, ok := c.ExposedPorts["8080/tcp"]; !ok || len(c.ExposedPorts) != 1 {
			t.Errorf("%s: ExposedPorts %v, want only 8080/tcp", p, c.ExposedPorts)
		}
		env := envMap(c.Env)
		for k, v := range df.Env {
			if got, ok := env[k]; !ok || got != v {
				t.Errorf("%s: Env %s=%q, want %q", p, k, got, v)
			}
		}
		if env["TZ"] != "PRC" || env["PARAMS"] != "" || env["JAVA_OPTS"] != "" {
			t.Errorf("%s: Env %q: want TZ=PRC and empty PARAMS, JAVA_OPTS as the Java image", p, c.Env)
		}
		if c.WorkingDir != "/" {
			t.Errorf("%s: WorkingDir %q, want / (the SQLite default ./data/xxl-job.db is /data/xxl-job.db)", p, c.WorkingDir)
		}
		lb := c.Labels
		if !regexp.MustCompile(`^[0-9a-f]{40}$`).MatchString(lb["org.opencontainers.image.revision"]) {
			t.Errorf("%s: revision label %q, want a commit", p, lb["org.opencontainers.image.revision"])
		}
		if !regexp.MustCompile(`^\d+\.\d+\.\d+`).MatchString(lb["org.opencontainers.image.version"]) {
			t.Errorf("%s: version label %q", p, lb["org.opencontainers.image.version"])
		}
		if src := lb["org.opencontainers.image.source"]; src == "" || src != df.Labels["org.opencontainers.image.source"] {
			t.Errorf("%s: source label %q, want the Dockerfile's %q", p, src, df.Labels["org.opencontainers.image.source"])
		}
		if lb["org.opencontainers.image.created"] == "" {
			t.Errorf("%s: no created label", p)
		}
	}
}

// TestImageFiles unpacks each platform and checks what is inside: a static
// binary of the right architecture (no ELF interpreter, no shared
// libraries), a CA bundle that parses, /etc/passwd naming the user, /data
// and /data/applogs owned and writable by it, and the size limit.
func TestImageFiles(t *testing.T) {
	l := openLayout(t)
	machines := map[string]elf.Machine{"amd64": elf.EM_X86_64, "arm64": elf.EM_AARCH64}
	for p, img := range images(t, l) {
		t.Run(strings.ReplaceAll(p, "/", "_"), func(t *testing.T) {
			u, err := l.Unpack(img, t.TempDir(), false)
			if err != nil {
				t.Fatal(err)
			}
			t.Logf("%s: %d bytes unpacked (%.1f MB), layers %d bytes (%.1f MB) compressed",
				p, u.FileBytes, float64(u.FileBytes)/1e6, u.Compressed, float64(u.Compressed)/1e6)
			if u.FileBytes >= maxImageBytes {
				t.Errorf("image is %d bytes unpacked, limit %d", u.FileBytes, maxImageBytes)
			}

			bin := filepath.Join(u.RootFS, "xxl-admin-go")
			checkStatic(t, bin, machines[img.Platform.Architecture])
			if img.Platform.Architecture == runtime.GOARCH {
				if ldd, err := exec.LookPath("ldd"); err == nil {
					out, _ := exec.Command(ldd, bin).CombinedOutput()
					if !strings.Contains(string(out), "not a dynamic executable") {
						t.Errorf("ldd %s: %s", bin, out)
					}
				}
			}

			pemBytes, err := os.ReadFile(filepath.Join(u.RootFS, "etc/ssl/certs/ca-certificates.crt"))
			if err != nil {
				t.Fatalf("CA bundle: %v (Go reads /etc/ssl/certs/ca-certificates.crt first on Linux)", err)
			}
			if n := countCerts(t, pemBytes); n < 50 {
				t.Errorf("CA bundle holds %d certificates", n)
			}
			if pool := x509.NewCertPool(); !pool.AppendCertsFromPEM(pemBytes) {
				t.Error("CA bundle does not load into a certificate pool")
			}

			uid, gid, err := resolveUser(img.Config.User, u.RootFS)
			if err != nil || uid != uidRuntime || gid != uidRuntime {
				t.Errorf("USER %q resolves to %d:%d (%v), want %d:%d", img.Config.User, uid, gid, err, uidRuntime, uidRuntime)
			}
			passwd, _ := os.ReadFile(filepath.Join(u.RootFS, "etc/passwd"))
			if !strings.Contains(string(passwd), ":"+strconv.Itoa(uidRuntime)+":"+strconv.Itoa(uidRuntime)+":") {
				t.Errorf("/etc/passwd has no line for %d: %q", uidRuntime, passwd)
			}
			for _, dir := range []string{"/data", "/data/applogs"} {
				e, ok := u.Entries[dir]
				if !ok || !e.Mode.IsDir() || e.UID != uidRuntime || e.Mode.Perm()&0o700 != 0o700 {
					t.Errorf("%s: %+v, want a directory owned and writable by %d", dir, e, uidRuntime)
				}
			}
			if e := u.Entries["/xxl-admin-go"]; e.UID != 0 || e.Mode.Perm()&0o022 != 0 {
				t.Errorf("/xxl-admin-go: %+v, want root-owned and not writable by the runtime user", e)
			}
		})
	}
}

// checkStatic: CGO_ENABLED=0 gives an ELF without PT_INTERP and without a
// dynamic section, so it runs in an empty image (issue 9).
func checkStatic(t *testing.T, file string, machine elf.Machine) {
	t.Helper()
	f, err := elf.Open(file)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if f.Machine != machine || f.Class != elf.ELFCLASS64 || f.Type != elf.ET_EXEC {
		t.Errorf("%s: machine %v class %v type %v, want %v ELFCLASS64 ET_EXEC", file, f.Machine, f.Class, f.Type, machine)
	}
	for _, p := range f.Progs {
		if p.Type == elf.PT_INTERP || p.Type == elf.PT_DYNAMIC {
			t.Errorf("%s: has %v: dynamically linked", file, p.Type)
		}
	}
	if libs, _ := f.ImportedLibraries(); len(libs) > 0 {
		t.Errorf("%s: needs %v", file, libs)
	}
}

func countCerts(t *testing.T, b []byte) int {
	t.Helper()
	n := 0
	for {
		var blk *pem.Block
		blk, b = pem.Decode(b)
		if blk == nil {
			return n
		}
		if _, err := x509.ParseCertificate(blk.Bytes); err != nil {
			t.Errorf("CA bundle certificate %d: %v", n, err)
		}
		n++
	}
}

func envMap(env []string) map[string]string {
	m := map[string]string{}
	for _, kv := range env {
		k, v, _ := strings.Cut(kv, "=")
		m[k] = v
	}
	return m
}

// versionLine is the output of `xxl-admin-go --version`.
var versionLine = regexp.MustCompile(`^xxl-admin-go (\S+) \(commit (\S+), built (\S+), (go\S+) linux/(\w+)\)\n$`)

func parseVersion(t *testing.T, out string) (version, commit, date, goVersion, arch string) {
	t.Helper()
	m := versionLine.FindStringSubmatch(out)
	if m == nil {
		t.Fatalf("--version printed %q", out)
	}
	return m[1], m[2], m[3], m[4], m[5]
}
