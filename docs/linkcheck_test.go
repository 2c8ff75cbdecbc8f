package docs

// The link checker of TestLinks: Markdown parsed by goldmark (CommonMark
// and GFM, as GitHub renders it), anchors by GitHub's heading slugs.

import (
	"bytes"
	"fmt"
	"io/fs"
	"net/url"
	"path"
	"strings"
	"unicode"

	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/extension"
	"github.com/yuin/goldmark/text"
)

// checkLinks reads the Markdown files (slash paths in fsys) and returns one
// line per broken link, "file:line: destination: reason".
func checkLinks(fsys fs.FS, files []string) ([]string, error) {
	anchors := map[string]map[string]bool{} // Markdown file -> its heading slugs
	headingsOf := func(name string) (map[string]bool, error) {
		if a, ok := anchors[name]; ok {
			return a, nil
		}
		src, err := fs.ReadFile(fsys, name)
		if err != nil {
			return nil, fmt.Errorf("read %s: %w", name, err)
		}
		a := map[string]bool{}
		for _, s := range headingSlugs(parse(src), src) {
			a[s] = true
		}
		anchors[name] = a
		return a, nil
	}

	var problems []string
	for _, file := range files {
		src, err := fs.ReadFile(fsys, file)
		if err != nil {
			return nil, fmt.Errorf("read %s: %w", file, err)
		}
		for _, l := range links(parse(src), src) {
			reason, err := checkLink(fsys, file, l.dest, headingsOf)
			if err != nil {
				return nil, err
			}
			if reason != "" {
				problems = append(problems, fmt.Sprintf("%s:%d: %q: %s", file, l.line, l.dest, reason))
			}
		}
	}
	return problems, nil
}

// checkLink says what is wrong with one destination written in file, or "".
func checkLink(fsys fs.FS, file, dest string, headingsOf func(string) (map[string]bool, error)) (string, error) {
	u, err := url.Parse(dest)
	if err != nil {
		return fmt.Sprintf("not a URL: %v", err), nil
	}
	if u.Scheme != "" || u.Host != "" {
		return "", nil // the web (and mailto:) is not this test's business
	}
	target := file
	if u.Path != "" {
		if strings.HasPrefix(u.Path, "/") {
			return "absolute path (GitHub resolves it against the site, not the repository)", nil
		}
		target = path.Join(path.Dir(file), u.Path)
		if target == ".." || strings.HasPrefix(target, "../") {
			return "leaves the repository", nil
		}
		if _, err := fs.Stat(fsys, target); err != nil {
			return "no such file", nil
		}
	}
	if u.Fragment == "" || !strings.HasSuffix(target, ".md") {
		return "", nil // line anchors (#L3) of source files are GitHub's own
	}
	heads, err := headingsOf(target)
	if err != nil {
		return "", err
	}
	if !heads[u.Fragment] {
		return fmt.Sprintf("no heading %q in %s", u.Fragment, target), nil
	}
	return "", nil
}

// parse reads Markdown as GitHub does: CommonMark with the GFM extensions
// (tables, so links in table cells count; autolinks).
func parse(src []byte) ast.Node {
	md := goldmark.New(goldmark.WithExtensions(extension.GFM))
	return md.Parser().Parse(text.NewReader(src))
}

type link struct {
	dest string
	line int
}

// links lists the links and images of a document; code blocks and code
// spans hold none, as on GitHub.
func links(doc ast.Node, src []byte) []link {
	var out []link
	_ = ast.Walk(doc, func(n ast.Node, entering bool) (ast.WalkStatus, error) {
		if !entering {
			return ast.WalkContinue, nil
		}
		switch n := n.(type) {
		case *ast.Link:
			out = append(out, link{string(n.Destination), lineOf(n, src)})
		case *ast.Image:
			out = append(out, link{string(n.Destination), lineOf(n, src)})
		}
		return ast.WalkContinue, nil
	})
	return out
}

// headingSlugs lists the anchors GitHub gives a document's headings, in
// order: a repeated slug gets -1, -2, ... as github-slugger numbers them.
func headingSlugs(doc ast.Node, src []byte) []string {
	seen := map[string]int{}
	var out []string
	_ = ast.Walk(doc, func(n ast.Node, entering bool) (ast.WalkStatus, error) {
		h, ok := n.(*ast.Heading)
		if !entering || !ok {
			return ast.WalkContinue, nil
		}
		base := slug(plainText(h, src))
		s := base
		for {
			if _, taken := seen[s]; !taken {
				break
			}
			seen[base]++
			s = fmt.Sprintf("%s-%d", base, seen[base])
		}
		seen[s] = 0
		out = append(out, s)
		return ast.WalkSkipChildren, nil
	})
	return out
}

// plainText is a heading's text as rendered: code spans and link texts
// count, markup and raw HTML tags do not.
func plainText(n ast.Node, src []byte) string {
	var b strings.Builder
	_ = ast.Walk(n, func(c ast.Node, entering bool) (ast.WalkStatus, error) {
		if !entering {
			return ast.WalkContinue, nil
		}
		switch c := c.(type) {
		case *ast.Text:
			b.Write(c.Value(src))
		case *ast.String:
			b.Write(c.Value)
		case *ast.RawHTML:
			return ast.WalkSkipChildren, nil
		}
		return ast.WalkContinue, nil
	})
	return b.String()
}

// slug is GitHub's anchor for a heading text (github-slugger): lower case,
// every character that is not a letter, mark, number, connector ('_'),
// '-' or space dropped, then each space made a '-'.
func slug(heading string) string {
	var b strings.Builder
	for _, r := range strings.ToLower(heading) {
		switch {
		case r == ' ':
			b.WriteByte('-')
		case r == '-' || unicode.IsLetter(r) || unicode.IsMark(r) || unicode.IsNumber(r) || unicode.Is(unicode.Pc, r):
			b.WriteRune(r)
		}
	}
	return b.String()
}

// lineOf is the line of the source a link starts on: that of its first
// text, else of the block holding it.
func lineOf(n ast.Node, src []byte) int {
	pos := -1
	_ = ast.Walk(n, func(c ast.Node, entering bool) (ast.WalkStatus, error) {
		if t, ok := c.(*ast.Text); ok && entering {
			pos = t.Segment.Start
			return ast.WalkStop, nil
		}
		return ast.WalkContinue, nil
	})
	for p := n.Parent(); pos < 0 && p != nil; p = p.Parent() {
		if p.Type() == ast.TypeBlock && p.Lines().Len() > 0 {
			pos = p.Lines().At(0).Start
		}
	}
	if pos < 0 {
		return 0
	}
	return bytes.Count(src[:pos], []byte("\n")) + 1
}
