package console

import (
	"crypto/sha256"
	"encoding/hex"
	"io/fs"
	"mime"
	"net/http"
	"path"
	"strings"
)

// staticFiles serves the embedded front-end files under <ctx>/static/.
// Pages link them through a versioned prefix, <ctx>/static/v/<hash>/…,
// whose hash covers every file, so they can be cached for a year; the
// plain paths are served too, with revalidation.
type staticFiles struct {
	files   fs.FS
	version string
	prefix  string // <ctx>/static/v/<version>
}

func newStaticFiles(files fs.FS, contextPath string) (*staticFiles, error) {
	h := sha256.New()
	err := fs.WalkDir(files, ".", func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !servable(p) {
			return err
		}
		b, err := fs.ReadFile(files, p)
		if err != nil {
			return err
		}
		h.Write([]byte(p))
		h.Write(b)
		return nil
	})
	if err != nil {
		return nil, err
	}
	v := hex.EncodeToString(h.Sum(nil))[:12]
	return &staticFiles{files: files, version: v, prefix: contextPath + "/static/v/" + v}, nil
}

// servable keeps templates and build files out of the static tree.
func servable(p string) bool {
	top, _, _ := strings.Cut(p, "/")
	switch top {
	case "vendor", "js", "css", "img":
		return true
	case "v3": // the 3.4.2 console's own scripts and styles, not its templates
		sub, _, _ := strings.Cut(strings.TrimPrefix(p, "v3/"), "/")
		return sub == "js" || sub == "css"
	}
	return false
}

func (s *staticFiles) serve(w http.ResponseWriter, r *http.Request, rel string) {
	immutable := false
	if v, rest, ok := strings.Cut(strings.TrimPrefix(rel, "v/"), "/"); ok && strings.HasPrefix(rel, "v/") {
		if v != s.version {
			http.NotFound(w, r) // a page of another build: never cache a wrong file forever
			return
		}
		rel, immutable = rest, true
	}
	rel = path.Clean("/" + rel)[1:]
	if !servable(rel) || (r.Method != http.MethodGet && r.Method != http.MethodHead) {
		http.NotFound(w, r)
		return
	}
	b, err := fs.ReadFile(s.files, rel)
	if err != nil {
		http.NotFound(w, r)
		return
	}
	if ct := mime.TypeByExtension(path.Ext(rel)); ct != "" {
		w.Header().Set("Content-Type", ct)
	}
	w.Header().Set("X-Content-Type-Options", "nosniff")
	if immutable {
		w.Header().Set("Cache-Control", "public, max-age=31536000, immutable")
	} else {
		w.Header().Set("Cache-Control", "no-cache")
		w.Header().Set("ETag", `"`+s.version+`"`)
		if r.Header.Get("If-None-Match") == `"`+s.version+`"` {
			w.WriteHeader(http.StatusNotModified)
			return
		}
	}
	if r.Method == http.MethodHead {
		return
	}
	_, _ = w.Write(b)
}
