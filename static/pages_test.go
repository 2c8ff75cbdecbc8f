package static_test

import (
	"encoding/json"
	"fmt"
	"html"
	"io/fs"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/xxl-admin-go/xxl-admin-go/compat/i18n"
	"github.com/xxl-admin-go/xxl-admin-go/static"
)

// Every page file parses with layout.html, and there is one for each page
// compat/console renders (view.go).
func TestEveryPageParses(t *testing.T) {
	have := map[string]bool{}
	for _, path := range ownFiles(t, "templates", ".html") {
		name := strings.TrimSuffix(strings.TrimPrefix(path, "templates/"), ".html")
		if name == "layout" {
			continue
		}
		have[name] = true
		tpl := parsePage(t, name)
		if tpl.Lookup("layout") == nil || tpl.Lookup("content") == nil {
			t.Errorf("%s: no layout or content template", name)
		}
	}
	for _, name := range pageNames {
		if !have[name] {
			t.Errorf("no templates/%s.html", name)
		}
	}
}

var (
	tagRe       = regexp.MustCompile(`<[a-zA-Z][^>]*>`)
	handlerRe   = regexp.MustCompile(`(?i)\son[a-z]+\s*=`)
	scriptRe    = regexp.MustCompile(`(?is)<script\b([^>]*)>(.*?)</script>`)
	srcAttrRe   = regexp.MustCompile(`(?i)\ssrc\s*=`)
	jsonTypeRe  = regexp.MustCompile(`(?i)\stype\s*=\s*"application/json"`)
	titleRe     = regexp.MustCompile(`<title>([^<]*)</title>`)
	langAttrRe  = regexp.MustCompile(`<html lang="([^"]+)">`)
	errorMsgRe  = regexp.MustCompile(`<p class="error-message">([^<]*)</p>`)
	staticRefRe = regexp.MustCompile(`\{\{\s*\$?\.Static\s*\}\}(/[^"'\s<>]+)`)
)

// checkMarkup reports inline code in HTML: event-handler attributes,
// javascript: URLs, and <script> elements that are neither a file nor one of
// the two JSON data islands.
func checkMarkup(t *testing.T, where, doc string) {
	t.Helper()
	for _, tag := range tagRe.FindAllString(doc, -1) {
		if handlerRe.MatchString(tag) {
			t.Errorf("%s: inline event handler in %s", where, tag)
		}
	}
	if strings.Contains(strings.ToLower(doc), "javascript:") {
		t.Errorf("%s: contains a javascript: URL", where)
	}
	for _, m := range scriptRe.FindAllStringSubmatch(doc, -1) {
		attrs, body := m[1], strings.TrimSpace(m[2])
		switch {
		case srcAttrRe.MatchString(attrs):
			if body != "" {
				t.Errorf("%s: <script src> with a body: %.80s", where, body)
			}
		case jsonTypeRe.MatchString(attrs):
			if !strings.Contains(attrs, `id="page-data"`) && !strings.Contains(attrs, `id="i18n"`) {
				t.Errorf("%s: JSON script other than the page-data/i18n islands: %s", where, attrs)
			}
		default:
			t.Errorf("%s: inline <script%s>", where, attrs)
		}
	}
}

// No template contains inline JavaScript (the CSP would block it anyway;
// this keeps it from being written).
func TestTemplatesHaveNoInlineCode(t *testing.T) {
	for _, path := range ownFiles(t, "templates", ".html") {
		data, err := fs.ReadFile(static.Files(), path)
		if err != nil {
			t.Fatal(err)
		}
		checkMarkup(t, path, string(data))
		for _, m := range scriptRe.FindAllStringSubmatch(string(data), -1) {
			if jsonTypeRe.MatchString(m[1]) && !slices.Contains([]string{"{{.Data}}", "{{.I18n}}"}, strings.TrimSpace(m[2])) {
				t.Errorf("%s: a data island holds %q; only {{.Data}} and {{.I18n}} are serialised safely", path, m[2])
			}
		}
	}
}

// Our scripts use no eval-like construct, no javascript: URL, no inline
// handler in markup strings, and never parse strings as HTML into the page
// (.html(), innerHTML, insertAdjacentHTML, document.write): data goes in as
// text, and the one whitelisted HTML (trigger_msg) through DOMParser.
func TestScriptsAvoidUnsafeConstructs(t *testing.T) {
	forbidden := []struct {
		re   *regexp.Regexp
		what string
	}{
		{regexp.MustCompile(`\beval\s*\(`), "eval"},
		{regexp.MustCompile(`\bnew\s+Function\b`), "new Function"},
		{regexp.MustCompile(`set(Timeout|Interval)\s*\(\s*['"]`), "string timer"},
		{regexp.MustCompile(`(?i)javascript:`), "javascript: URL"},
		{regexp.MustCompile(`(?i)<[a-z][^>]*\son[a-z]+\s*=`), "inline handler in markup"},
		{regexp.MustCompile(`\.html\s*\(`), ".html()"},
		{regexp.MustCompile(`innerHTML`), "innerHTML"},
		{regexp.MustCompile(`outerHTML\s*=[^=]`), "outerHTML assignment"},
		{regexp.MustCompile(`insertAdjacentHTML`), "insertAdjacentHTML"},
		{regexp.MustCompile(`document\.write`), "document.write"},
		{regexp.MustCompile(`\$\.parseHTML|\.parseHTML\(`), "parseHTML"},
	}
	for _, path := range ownFiles(t, "js", ".js") {
		data, err := fs.ReadFile(static.Files(), path)
		if err != nil {
			t.Fatal(err)
		}
		for i, line := range strings.Split(string(data), "\n") {
			trimmed := strings.TrimSpace(line)
			if strings.HasPrefix(trimmed, "*") || strings.HasPrefix(trimmed, "//") || strings.HasPrefix(trimmed, "/*") {
				continue // comments may name what is avoided
			}
			for _, f := range forbidden {
				if f.re.MatchString(line) {
					t.Errorf("%s:%d: %s: %s", path, i+1, f.what, trimmed)
				}
			}
		}
	}
}

// Every {{.Static}}/... file a template includes is embedded.
func TestStaticReferencesResolve(t *testing.T) {
	seen := 0
	for _, path := range ownFiles(t, "templates", ".html") {
		data, err := fs.ReadFile(static.Files(), path)
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range staticRefRe.FindAllStringSubmatch(string(data), -1) {
			seen++
			ref := strings.TrimPrefix(m[1], "/")
			if _, err := fs.Stat(static.Files(), ref); err != nil {
				t.Errorf("%s: %s is not embedded: %v", path, m[1], err)
			}
		}
	}
	if seen < 20 {
		t.Errorf("found only %d static references; the pattern no longer matches the templates", seen)
	}
}

// Every i18n key the templates and scripts ask for exists in all three
// bundles (a typo would show the key instead of a text).
func TestI18nKeysExist(t *testing.T) {
	keyRes := map[string][]*regexp.Regexp{
		"templates": {
			regexp.MustCompile(`\{\{t \$?\.I18n "([^"]+)"\}\}`),
			// the workflow pages' partials name the texts $I
			regexp.MustCompile(`\{\{t \$I "([^"]+)"\}\}`),
			// keys handed to the layout's partials: (args … "Title" "key" …), (or .Submit "key")
			regexp.MustCompile(`"(?:Title|Add|Edit|Submit)" "([^"]+)"`),
			regexp.MustCompile(`\(or \.[A-Za-z]+ "([a-z0-9_]+)"\)`),
		},
		"js": {regexp.MustCompile(`XJ\.t\('([A-Za-z0-9_]+)'\)`)},
	}
	used := map[string]string{}
	for dir, res := range keyRes {
		suffix := ".html"
		if dir == "js" {
			suffix = ".js"
		}
		for _, path := range ownFiles(t, dir, suffix) {
			data, err := fs.ReadFile(static.Files(), path)
			if err != nil {
				t.Fatal(err)
			}
			for _, re := range res {
				for _, m := range re.FindAllStringSubmatch(string(data), -1) {
					used[m[1]] = path
				}
			}
		}
	}
	if len(used) < 100 {
		t.Errorf("found only %d keys; the patterns no longer match", len(used))
	}
	for _, lang := range langs {
		java := i18n.Load(lang).All()
		ours := i18n.Ours(lang) // the workflow pages' texts (wf_*), in a bundle of ours
		for key, path := range used {
			texts := java
			if strings.HasPrefix(key, "wf_") {
				texts = ours
			}
			if _, ok := texts[key]; !ok {
				t.Errorf("%s: key %q is not in the %s bundle", path, key, lang)
			}
		}
	}
}

// Every page renders in every language with the sample models: the title is
// Page.Title, <html lang> follows Page.Lang, the data islands hold valid
// JSON, the output has no inline code, and the planted markup only ever
// appears escaped.
func TestPagesRender(t *testing.T) {
	htmlLang := map[string]string{"en": "en", "zh_CN": "zh-CN", "zh_TC": "zh-Hant"}
	for _, lang := range langs {
		for _, name := range pageNames {
			t.Run(name+"/"+lang, func(t *testing.T) {
				p := samplePage(name, lang, true)
				out := renderPage(t, p)
				if m := titleRe.FindStringSubmatch(out); m == nil || html.UnescapeString(m[1]) != p.Title {
					t.Errorf("title %v, want %q", m, p.Title)
				}
				if m := langAttrRe.FindStringSubmatch(out); m == nil || m[1] != htmlLang[lang] {
					t.Errorf("html lang %v, want %q", m, htmlLang[lang])
				}
				checkMarkup(t, name, out)
				for _, id := range []string{"page-data", "i18n"} {
					re := regexp.MustCompile(`(?s)<script type="application/json" id="` + id + `">(.*?)</script>`)
					m := re.FindStringSubmatch(out)
					if m == nil {
						t.Fatalf("no %s island", id)
					}
					var v any
					if err := json.Unmarshal([]byte(m[1]), &v); err != nil {
						t.Errorf("%s island is not JSON: %v", id, err)
					}
				}
				for _, raw := range []string{xssDesc, xssAuthor, xssTitle, xssMessage, xssRemark, "<script>alert"} {
					if strings.Contains(out, raw) {
						t.Errorf("planted markup %q appears unescaped", raw)
					}
				}
				if strings.Contains(out, "{{") || strings.Contains(out, "%!") {
					t.Errorf("template residue in output")
				}
			})
		}
	}
}

// The error page shows "System Error", the message in p.error-message (as
// text) and a Back link to the context root.
func TestErrorPage(t *testing.T) {
	out := renderPage(t, samplePage("error", "en", false))
	if !strings.Contains(out, "System Error") {
		t.Error("no System Error heading")
	}
	m := errorMsgRe.FindStringSubmatch(out)
	if m == nil || html.UnescapeString(m[1]) != xssMessage {
		t.Errorf("error message %v, want %q", m, xssMessage)
	}
	if !strings.Contains(out, fmt.Sprintf(`<a href="%s/" class="btn btn-primary">Back</a>`, contextPath)) {
		t.Error("no Back link to the context root")
	}
}

// Admin-only navigation is rendered for admins only; the active entry
// follows the page name; a collapsed sidebar comes from Page.Collapsed.
func TestSidebar(t *testing.T) {
	admin := renderPage(t, samplePage("jobinfo", "en", true))
	normal := renderPage(t, samplePage("jobinfo", "en", false))
	for _, path := range []string{"/jobgroup", "/user"} {
		link := `href="` + contextPath + path + `"`
		if !strings.Contains(admin, link) {
			t.Errorf("admin page lacks %s", path)
		}
		if strings.Contains(normal, link) {
			t.Errorf("normal user's page links %s", path)
		}
	}
	if !strings.Contains(admin, `<li class="active"><a href="`+contextPath+`/jobinfo">`) {
		t.Error("Job Manage is not marked active on the job page")
	}
	p := samplePage("index", "en", true)
	p.Collapsed = true
	if !strings.Contains(renderPage(t, p), "sidebar-collapse") {
		t.Error("Collapsed page is not rendered collapsed")
	}
}

// The log page offers "All" (0) to admins only, and preselects the group of
// the ?jobId= job.
func TestJobLogGroupSelect(t *testing.T) {
	groupSelect := regexp.MustCompile(`(?s)<select class="form-control" id="xj-filter-group">(.*?)</select>`)
	sel := func(admin bool) string {
		m := groupSelect.FindStringSubmatch(renderPage(t, samplePage("joblog", "en", admin)))
		if m == nil {
			t.Fatal("no group select")
		}
		return m[1]
	}
	all := `<option value="0"`
	admin := sel(true)
	if !strings.Contains(admin, all) {
		t.Error("admin has no All option")
	}
	if !strings.Contains(admin, `<option value="2" selected>`) {
		t.Error("the job's group is not preselected")
	}
	if strings.Contains(sel(false), all) {
		t.Error("normal user is offered All")
	}
}
