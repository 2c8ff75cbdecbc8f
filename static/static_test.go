package static

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"io/fs"
	"os"
	"slices"
	"strings"
	"testing"
)

// manifest mirrors vendor/MANIFEST.json, written by scripts/assets-manifest.js.
type manifest struct {
	TotalBytes int64 `json:"total_bytes"`
	Packages   []struct {
		Name         string   `json:"name"`
		Version      string   `json:"version"`
		License      string   `json:"license"`
		LicenseFiles []string `json:"license_files"`
		CSS          []string `json:"css"`
		JS           []string `json:"js"`
		Files        []struct {
			Path   string `json:"path"`
			Role   string `json:"role"`
			Size   int64  `json:"size"`
			SHA256 string `json:"sha256"`
		} `json:"files"`
	} `json:"packages"`
}

func loadManifest(t *testing.T) manifest {
	t.Helper()
	data, err := fs.ReadFile(Files(), "vendor/MANIFEST.json")
	if err != nil {
		t.Fatalf("read manifest: %v", err)
	}
	var m manifest
	if err := json.Unmarshal(data, &m); err != nil {
		t.Fatalf("decode manifest: %v", err)
	}
	if len(m.Packages) == 0 {
		t.Fatal("manifest lists no packages")
	}
	return m
}

// Every listed file is embedded with the listed size and sha256: the committed
// tree is what `make assets` produced, not a hand-edited copy.
func TestManifestFilesEmbedded(t *testing.T) {
	m := loadManifest(t)
	var total int64
	for _, p := range m.Packages {
		t.Run(p.Name, func(t *testing.T) {
			if len(p.Files) == 0 {
				t.Fatal("no files")
			}
			for _, f := range p.Files {
				if !strings.HasPrefix(f.Path, p.Name+"/") {
					t.Errorf("%s: not under %s/", f.Path, p.Name)
				}
				data, err := fs.ReadFile(Files(), "vendor/"+f.Path)
				if err != nil {
					t.Errorf("%s: %v", f.Path, err)
					continue
				}
				sum := sha256.Sum256(data)
				if got := hex.EncodeToString(sum[:]); got != f.SHA256 {
					t.Errorf("%s: sha256 %s, manifest says %s", f.Path, got, f.SHA256)
				}
				if int64(len(data)) != f.Size {
					t.Errorf("%s: %d bytes, manifest says %d", f.Path, len(data), f.Size)
				}
				total += f.Size
			}
		})
	}
	if total != m.TotalBytes {
		t.Errorf("files add up to %d bytes, manifest total_bytes is %d", total, m.TotalBytes)
	}
}

// Every package ships its license text next to its files (echarts also its
// NOTICE and the licenses of the code it bundles).
func TestEveryPackageHasLicense(t *testing.T) {
	for _, p := range loadManifest(t).Packages {
		if p.License == "" {
			t.Errorf("%s: no license name", p.Name)
		}
		licensed := false
		for _, lf := range p.LicenseFiles {
			data, err := fs.ReadFile(Files(), "vendor/"+lf)
			if err != nil {
				t.Errorf("%s: license file: %v", p.Name, err)
				continue
			}
			if len(data) == 0 {
				t.Errorf("%s: %s is empty", p.Name, lf)
			}
			licensed = licensed || strings.Contains(strings.ToLower(string(data)), "license")
		}
		if !licensed {
			t.Errorf("%s: none of its license files %v states a license", p.Name, p.LicenseFiles)
		}
	}
}

// Nothing is embedded that the manifest does not list (the vendor tree stays
// lean and fully accounted for), and every css/js a page includes is a file
// of its package.
func TestNoUnlistedFiles(t *testing.T) {
	m := loadManifest(t)
	listed := map[string]bool{"MANIFEST.json": true, "README.md": true}
	for _, p := range m.Packages {
		for _, f := range p.Files {
			listed[f.Path] = true
		}
		for _, inc := range slices.Concat(p.CSS, p.JS) {
			if !listed[inc] {
				t.Errorf("%s: include %s is not one of its files", p.Name, inc)
			}
		}
	}
	sub, err := fs.Sub(Files(), "vendor")
	if err != nil {
		t.Fatal(err)
	}
	err = fs.WalkDir(sub, ".", func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		if !listed[path] {
			t.Errorf("vendor/%s is embedded but not in MANIFEST.json", path)
		}
		return nil
	})
	if err != nil {
		t.Fatalf("walk vendor: %v", err)
	}
}

// The manifest was generated from the committed lock file: same packages as
// package.json's dependencies, at the locked versions.
func TestManifestMatchesLock(t *testing.T) {
	var pkg struct {
		Dependencies map[string]string `json:"dependencies"`
	}
	var lock struct {
		Packages map[string]struct {
			Version string `json:"version"`
		} `json:"packages"`
	}
	for name, v := range map[string]any{"package.json": &pkg, "package-lock.json": &lock} {
		data, err := os.ReadFile(name)
		if err != nil {
			t.Fatalf("read %s: %v", name, err)
		}
		if err := json.Unmarshal(data, v); err != nil {
			t.Fatalf("decode %s: %v", name, err)
		}
	}
	seen := map[string]bool{}
	for _, p := range loadManifest(t).Packages {
		seen[p.Name] = true
		locked := lock.Packages["node_modules/"+p.Name].Version
		if p.Version != locked {
			t.Errorf("%s: manifest version %q, package-lock.json has %q", p.Name, p.Version, locked)
		}
		if want := pkg.Dependencies[p.Name]; want != p.Version {
			t.Errorf("%s: manifest version %q, package.json pins %q", p.Name, p.Version, want)
		}
	}
	for name := range pkg.Dependencies {
		if !seen[name] {
			t.Errorf("package.json depends on %s, but vendor/ has none of its files", name)
		}
	}
}
