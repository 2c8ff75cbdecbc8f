package static_test

import (
	"bytes"
	"encoding/json"
	"io/fs"
	"regexp"
	"strings"
	"testing"

	"github.com/xxl-admin-go/xxl-admin-go/compat/console"
	"github.com/xxl-admin-go/xxl-admin-go/compat/i18n"
	"github.com/xxl-admin-go/xxl-admin-go/static"
)

// The 3.4.2 console's templates (v3/templates) and scripts (v3/js) meet
// the rules of the 2.4.2 console's (pages_test.go): every page parses with
// the v3 layout and the shared partials, no inline code, no unsafe DOM
// construct, every static reference embedded, every i18n key in the 3.4.2
// bundles, and every page renders in every language with planted markup
// only ever escaped. Their behaviour is tested against our real admin in
// headless Chromium (conformance/browser, *34_test.go).

// pageNames34 are the pages the 3.x console renders (index34.go, pages34_*.go).
var pageNames34 = []string{"index", "dashboard", "help", "login", "error", "jobinfo", "joblog", "joblog_detail",
	"jobcode", "jobgroup", "user"}

// samplePage34 builds the page model the 3.x console would render for name.
func samplePage34(name, lang string, admin bool) console.Page {
	texts := i18n.LoadFor(3, lang)
	p := console.Page{Name: name, Title: texts.Text("admin_name"), Lang: lang, I18n: texts.All(), Base: contextPath,
		Static: contextPath + staticV, User: &console.PageUser{Username: xssUser, Admin: admin}}
	switch name {
	case "index":
		p.Data = console.FrameData{Menu: []console.MenuItem{{Name: "Run report", URL: "/dashboard", Icon: "fa-home"},
			{Name: "Job " + xssTitle, URL: "/jobinfo", Icon: "fa-clock-o"}}}
	case "dashboard":
		p.Data = console.IndexData{JobInfoCount: 8, JobLogCount: 7, JobLogSuccessCount: 3, ExecutorCount: 1}
	case "jobinfo":
		p.Data = console.JobInfoData34{Groups: sampleGroups, JobGroup: 2, RouteStrategies: options("FIRST", "LAST"),
			GlueTypes:         []console.Option{{Name: "BEAN", Title: "BEAN"}, {Name: "GLUE_PYTHON2", Title: "GLUE(Python2)"}},
			BlockStrategies:   options("SERIAL_EXECUTION"),
			ScheduleTypes:     []console.Option{{Name: "NONE", Title: "None"}, {Name: "CRON", Title: "Cron"}},
			MisfireStrategies: options("DO_NOTHING"), ExportPath: "/xxl-admin-go/jobinfo/export", ImportPath: "/xxl-admin-go/jobinfo/import"}
	case "joblog":
		p.Data = console.JobLogData34{Groups: sampleGroups, JobGroup: 2, JobID: 7,
			Jobs: []console.JobOption{{ID: 7, JobDesc: xssDesc}, {ID: 8, JobDesc: "none job"}}}
	case "joblog_detail":
		p.Data = console.LogDetailData34{LogID: 1, TriggerCode: 200, HandleCode: 200, JobDesc: xssDesc}
	case "jobcode":
		p.Data = console.JobCodeData{
			Job: console.JobCodeJob{ID: 4, JobDesc: xssDesc, GlueType: "GLUE_SHELL", GlueSource: xssSource, GlueRemark: xssRemark},
			Versions: []console.GlueVersion{
				{ID: 2, GlueType: "GLUE_SHELL", GlueSource: "echo v2\n", GlueRemark: xssRemark, UpdateTime: "2026-11-23 07:02:30"},
			},
			GlueTypes: []console.Option{{Name: "BEAN", Title: "BEAN"}, {Name: "GLUE_SHELL", Title: "GLUE(Shell)"}},
		}
	case "user":
		p.Data = console.UserData{Groups: sampleGroups}
	case "login":
		p.User = nil
	case "error":
		p.Title = "Error"
		p.User = nil
		p.Data = console.ErrorData{Message: xssMessage}
	}
	return p
}

func render34(t *testing.T, p console.Page) string {
	t.Helper()
	tpl, err := console.ParsePage(static.Files(), "v3/templates", p.Name)
	if err != nil {
		t.Fatalf("parse %s: %v", p.Name, err)
	}
	var b bytes.Buffer
	if err := tpl.ExecuteTemplate(&b, "layout", p); err != nil {
		t.Fatalf("render %s (%s): %v", p.Name, p.Lang, err)
	}
	return b.String()
}

// v3Files are the 3.x console's own files with a suffix under dir.
func v3Files(t *testing.T, dir, suffix string) []string {
	t.Helper()
	return ownFiles(t, "v3/"+dir, suffix)
}

func TestEveryPage34Parses(t *testing.T) {
	have := map[string]bool{}
	for _, path := range v3Files(t, "templates", ".html") {
		name := strings.TrimSuffix(strings.TrimPrefix(path, "v3/templates/"), ".html")
		if name == "layout" {
			continue
		}
		have[name] = true
		tpl, err := console.ParsePage(static.Files(), "v3/templates", name)
		if err != nil {
			t.Fatalf("parse %s: %v", name, err)
		}
		if tpl.Lookup("layout") == nil || tpl.Lookup("content") == nil {
			t.Errorf("%s: no layout or content template", name)
		}
	}
	for _, name := range pageNames34 {
		if !have[name] {
			t.Errorf("no v3/templates/%s.html", name)
		}
	}
}

func TestTemplates34HaveNoInlineCode(t *testing.T) {
	for _, path := range v3Files(t, "templates", ".html") {
		data, err := fs.ReadFile(static.Files(), path)
		if err != nil {
			t.Fatal(err)
		}
		checkMarkup(t, path, string(data))
	}
}

func TestScripts34AvoidUnsafeConstructs(t *testing.T) {
	forbidden := []*regexp.Regexp{
		regexp.MustCompile(`\beval\s*\(`), regexp.MustCompile(`\bnew\s+Function\b`),
		regexp.MustCompile(`set(Timeout|Interval)\s*\(\s*['"]`), regexp.MustCompile(`(?i)javascript:`),
		regexp.MustCompile(`(?i)<[a-z][^>]*\son[a-z]+\s*=`), regexp.MustCompile(`\.html\s*\(`),
		regexp.MustCompile(`innerHTML`), regexp.MustCompile(`insertAdjacentHTML`), regexp.MustCompile(`document\.write`),
		regexp.MustCompile(`\.parseHTML\(`),
	}
	for _, path := range v3Files(t, "js", ".js") {
		data, err := fs.ReadFile(static.Files(), path)
		if err != nil {
			t.Fatal(err)
		}
		for i, line := range strings.Split(string(data), "\n") {
			trimmed := strings.TrimSpace(line)
			if strings.HasPrefix(trimmed, "*") || strings.HasPrefix(trimmed, "//") || strings.HasPrefix(trimmed, "/*") {
				continue
			}
			for _, re := range forbidden {
				if re.MatchString(line) {
					t.Errorf("%s:%d: %s: %s", path, i+1, re, trimmed)
				}
			}
		}
	}
}

// A list cell's markup is built from escaped values only: every formatter
// of the v3 lists returns XJ.esc(…) parts (a value concatenated raw into
// markup would be an injection point bootstrap-table renders as HTML).
func TestListFormattersEscape(t *testing.T) {
	raw := regexp.MustCompile(`'\s*\+\s*(value|row\.[A-Za-z]+|s)\s*\+\s*'`)
	for _, path := range v3Files(t, "js", ".js") {
		data, err := fs.ReadFile(static.Files(), path)
		if err != nil {
			t.Fatal(err)
		}
		for i, line := range strings.Split(string(data), "\n") {
			if raw.MatchString(line) {
				t.Errorf("%s:%d: a value goes into markup unescaped: %s", path, i+1, strings.TrimSpace(line))
			}
		}
	}
}

func TestStaticReferences34Resolve(t *testing.T) {
	seen := 0
	for _, path := range v3Files(t, "templates", ".html") {
		data, err := fs.ReadFile(static.Files(), path)
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range staticRefRe.FindAllStringSubmatch(string(data), -1) {
			seen++
			if _, err := fs.Stat(static.Files(), strings.TrimPrefix(m[1], "/")); err != nil {
				t.Errorf("%s: %s is not embedded: %v", path, m[1], err)
			}
		}
	}
	if seen < 20 {
		t.Errorf("found only %d static references; the pattern no longer matches the templates", seen)
	}
}

// Every key the v3 templates and scripts ask for is in the three 3.4.2
// bundles.
func TestI18nKeys34Exist(t *testing.T) {
	res := []*regexp.Regexp{
		regexp.MustCompile(`\{\{t \$?\.I18n "([^"]+)"\}\}`),
		regexp.MustCompile(`"(?:Title|Add|Edit|Submit)" "([^"]+)"`),
		regexp.MustCompile(`XJ\.t\('([A-Za-z0-9_]+)'\)`),
	}
	used := map[string]string{}
	for _, dir := range []string{"templates", "js"} {
		suffix := ".html"
		if dir == "js" {
			suffix = ".js"
		}
		for _, path := range v3Files(t, dir, suffix) {
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
	if len(used) < 80 {
		t.Errorf("found only %d keys; the patterns no longer match", len(used))
	}
	for _, lang := range langs {
		texts := i18n.LoadFor(3, lang).All()
		for key, path := range used {
			if _, ok := texts[key]; !ok {
				t.Errorf("%s: key %q is not in the 3.4.2 %s bundle", path, key, lang)
			}
		}
	}
}

// Every page renders in every language; planted markup (job, group and
// user names, remarks, sources, messages) appears only escaped.
func TestPages34Render(t *testing.T) {
	for _, lang := range langs {
		for _, name := range pageNames34 {
			t.Run(name+"/"+lang, func(t *testing.T) {
				out := render34(t, samplePage34(name, lang, true))
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
				for _, raw := range []string{xssDesc, xssAuthor, xssTitle, xssUser, xssMessage, xssRemark, "<script>alert"} {
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

// Admin-only pages are in the frame's menu only as the server lists them
// (index34.go); the job list offers the import to admins only.
func TestJobList34Import(t *testing.T) {
	admin := render34(t, samplePage34("jobinfo", "en", true))
	normal := render34(t, samplePage34("jobinfo", "en", false))
	if !strings.Contains(admin, `id="xj-import-modal"`) || strings.Contains(normal, `id="xj-import-modal"`) {
		t.Error("the import dialog is not for admins only")
	}
	if !strings.Contains(normal, `href="`+contextPath+`/xxl-admin-go/jobinfo/export?jobGroup=2"`) {
		t.Error("no export link of the selected group under /xxl-admin-go/")
	}
}
