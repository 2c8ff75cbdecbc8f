// Package static holds the web console's static files, embedded in the binary.
//
// templates/ holds the console's pages (html/template: layout.html and one
// file per page); js/ and css/ our own page scripts and styles, which run
// under a Content-Security-Policy that allows scripts from files only.
//
// vendor/ holds the third-party front-end libraries (jQuery, Bootstrap 3,
// AdminLTE 2, DataTables, ECharts, CodeMirror, ...), copied from pinned npm
// packages by `make assets` and committed, so building needs no Node.
// vendor/MANIFEST.json lists each file with its package, version, license and
// sha256; vendor/README.md says what a page includes and in which order.
package static

import (
	"embed"
	"io/fs"
)

//go:embed all:vendor templates/*.html templates/shared/*.html js/*.js css/*.css v3/templates/*.html v3/js/*.js v3/css/*.css
var files embed.FS

// Files returns the embedded tree; paths start with the top directory
// ("vendor/jquery/jquery.min.js", "js/common.js", "templates/layout.html"). The tree is read-only.
func Files() fs.FS {
	return files
}
