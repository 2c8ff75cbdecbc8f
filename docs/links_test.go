package docs

import (
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// TestLinks: every relative link and image in README.md and docs/*.md
// points at a file of the repository, and every #anchor into a Markdown
// file at one of its headings, by GitHub's rules.
func TestLinks(t *testing.T) {
	pages, err := filepath.Glob("*.md")
	if err != nil {
		t.Fatal(err)
	}
	if len(pages) == 0 {
		t.Fatal("no docs/*.md pages")
	}
	files := []string{"README.md"}
	for _, p := range pages {
		files = append(files, path.Join("docs", p))
	}
	problems, err := checkLinks(os.DirFS(".."), files)
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range problems {
		t.Error(p)
	}
}

// TestLinksFindsBrokenOnes runs the checker over a small tree with one
// link of each kind it must refuse and of each kind it must accept.
func TestLinksFindsBrokenOnes(t *testing.T) {
	dir := t.TempDir()
	write := func(name, body string) {
		t.Helper()
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("README.md", strings.Join([]string{
		"# Top",
		"[ok page](docs/a.md) [ok anchor](docs/a.md#second-part-ha) [ok self](#top)",
		"[ok dir](docs) [ok image](docs/shot.png) [ok web](https://example.com/x.md#nowhere)",
		"[ok escaped](docs/with%20space.md) [ok line](docs/code.go#L3)",
		"[missing page](docs/gone.md)",
		"[missing anchor](docs/a.md#third-part)",
		"[missing self anchor](#bottom)",
		"![missing image](docs/none.png)",
		"[outside](../elsewhere.md)",
		"```",
		"[in code](docs/gone-too.md)",
		"```",
		"`[in code span](docs/gone-three.md)`",
		"",
	}, "\n"))
	write("docs/a.md", "# Page A\n\n## Second part (HA)\n\n[back](../README.md#top) [bad back](../README.md#Top)\n")
	write("docs/shot.png", "png")
	write("docs/with space.md", "# Spaced\n")
	write("docs/code.go", "package docs\n")

	problems, err := checkLinks(os.DirFS(dir), []string{"README.md", "docs/a.md"})
	if err != nil {
		t.Fatal(err)
	}
	want := []string{
		`README.md:5: "docs/gone.md": no such file`,
		`README.md:6: "docs/a.md#third-part": no heading "third-part" in docs/a.md`,
		`README.md:7: "#bottom": no heading "bottom" in README.md`,
		`README.md:8: "docs/none.png": no such file`,
		`README.md:9: "../elsewhere.md": leaves the repository`,
		`docs/a.md:5: "../README.md#Top": no heading "Top" in README.md`,
	}
	if !slices.Equal(problems, want) {
		t.Errorf("problems:\n%s\nwant:\n%s", strings.Join(problems, "\n"), strings.Join(want, "\n"))
	}
}

// TestSlug holds slug to what GitHub makes of these headings (the anchors
// github.com gives them; the rules are github-slugger's: lower case, drop
// what is not a letter, mark, number, '_', '-' or space, spaces to '-').
func TestSlug(t *testing.T) {
	for _, c := range []struct{ heading, want string }{
		{"Two commands", "two-commands"},
		{"Several admins on one database (HA)", "several-admins-on-one-database-ha"},
		{"E-mail (same keys as the Java admin)", "e-mail-same-keys-as-the-java-admin"},
		{"Webhooks (new; the Java admin ignores these keys)", "webhooks-new-the-java-admin-ignores-these-keys"},
		{"Scheduler throughput, side by side", "scheduler-throughput-side-by-side"},
		{"Foo & Bar", "foo--bar"},
		{"It's 3.x", "its-3x"},
		{"snake_case and `<ctx>`", "snake_case-and-ctx"},
		{"Привет non-latin 你好", "привет-non-latin-你好"},
		{"Arrows → and × signs", "arrows--and--signs"},
	} {
		if got := slug(c.heading); got != c.want {
			t.Errorf("slug(%q) = %q, want %q", c.heading, got, c.want)
		}
	}
}
