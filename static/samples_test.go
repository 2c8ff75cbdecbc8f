package static_test

import (
	"bytes"
	"fmt"
	"html/template"
	"io/fs"
	"strings"
	"testing"

	"github.com/xxl-admin-go/xxl-admin-go/compat/console"
	"github.com/xxl-admin-go/xxl-admin-go/compat/i18n"
	"github.com/xxl-admin-go/xxl-admin-go/static"
)

// The pages, as compat/console names them (view.go).
var pageNames = []string{"index", "jobinfo", "joblog", "joblog_detail", "jobgroup", "jobcode", "user", "help", "login", "error"}

var langs = []string{"en", "zh_CN", "zh_TC"}

// Markup planted in every user-controlled field of the samples: if any of it
// reached the DOM as HTML, alert() would open a native dialog (a problem the
// browser tests catch) or an <img>/<svg> would appear where only text may.
const (
	xssDesc     = `<img src=x onerror=alert('desc')>`
	xssAuthor   = `<b>author</b><script>alert('author')</script>`
	xssTitle    = `<svg onload=alert('title')>`
	xssUser     = `<i>bob</i>`
	xssMessage  = `java.lang.RuntimeException: <img src=x onerror=alert('msg')>`
	xssRemark   = `<b onmouseover=alert('remark')>v2</b>`
	xssSource   = "#!/bin/bash\necho \"</script><script>alert('source')</script>\"\n"
	staticV     = "/static/v/test"
	contextPath = "/xxl-job-admin"
)

var sampleGroups = []console.GroupOption{
	{ID: 2, AppName: "fake-executor", Title: "fake " + xssTitle},
	{ID: 3, AppName: "other-executor", Title: "其他执行器"},
}

func options(names ...string) []console.Option {
	out := make([]console.Option, 0, len(names))
	for _, n := range names {
		out = append(out, console.Option{Name: n, Title: strings.ToLower(strings.ReplaceAll(n, "_", " "))})
	}
	return out
}

// samplePage builds the page model the console would render for name.
func samplePage(name, lang string, admin bool) console.Page {
	p := console.Page{
		Name:   name,
		Title:  i18n.Load(lang).Text("admin_name"),
		Lang:   lang,
		I18n:   i18n.Load(lang).All(),
		Base:   contextPath,
		Static: contextPath + staticV,
		User:   &console.PageUser{Username: "admin", Admin: admin},
	}
	switch name {
	case "index":
		p.Data = console.IndexData{JobInfoCount: 8, JobLogCount: 7, JobLogSuccessCount: 3, ExecutorCount: 1}
	case "jobinfo":
		p.Data = console.JobInfoData{
			Groups:            sampleGroups,
			JobGroup:          2,
			RouteStrategies:   options("FIRST", "LAST", "ROUND", "SHARDING_BROADCAST"),
			GlueTypes:         []console.Option{{Name: "BEAN", Title: "BEAN"}, {Name: "GLUE_GROOVY", Title: "GLUE(Java)"}, {Name: "GLUE_SHELL", Title: "GLUE(Shell)"}, {Name: "GLUE_PYTHON", Title: "GLUE(Python)"}, {Name: "GLUE_PHP", Title: "GLUE(PHP)"}, {Name: "GLUE_NODEJS", Title: "GLUE(Nodejs)"}, {Name: "GLUE_POWERSHELL", Title: "GLUE(PowerShell)"}},
			BlockStrategies:   options("SERIAL_EXECUTION", "DISCARD_LATER", "COVER_EARLY"),
			ScheduleTypes:     []console.Option{{Name: "NONE", Title: "None"}, {Name: "CRON", Title: "Cron"}, {Name: "FIX_RATE", Title: "Fix rate"}},
			MisfireStrategies: options("DO_NOTHING", "FIRE_ONCE_NOW"),
		}
	case "joblog":
		p.Data = console.JobLogData{Groups: sampleGroups, Job: &console.JobRef{ID: 7, JobGroup: 2, JobDesc: xssDesc}}
	case "joblog_detail":
		p.Data = console.LogDetailData{LogID: 1, TriggerCode: 200, HandleCode: 200}
	case "jobcode":
		p.Data = console.JobCodeData{
			Job: console.JobCodeJob{ID: 4, JobDesc: xssDesc, GlueType: "GLUE_SHELL", GlueSource: xssSource, GlueRemark: xssRemark},
			Versions: []console.GlueVersion{
				{ID: 2, GlueType: "GLUE_SHELL", GlueSource: "echo v2\n", GlueRemark: xssRemark, UpdateTime: "2026-11-23 07:02:30"},
				{ID: 1, GlueType: "GLUE_SHELL", GlueSource: "echo v1\n", GlueRemark: "first version", UpdateTime: "2026-11-22 07:02:30"},
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

// parse parses layout.html with the page's file as compat/console's
// loadViews does.
func parse(name string) (*template.Template, error) {
	return console.ParsePage(static.Files(), "templates", name)
}

func parsePage(t testing.TB, name string) *template.Template {
	t.Helper()
	tpl, err := parse(name)
	if err != nil {
		t.Fatalf("parse %s: %v", name, err)
	}
	return tpl
}

// render executes the "layout" template of p.Name with p.
func render(p console.Page) (string, error) {
	tpl, err := parse(p.Name)
	if err != nil {
		return "", err
	}
	var b bytes.Buffer
	if err := tpl.ExecuteTemplate(&b, "layout", p); err != nil {
		return "", fmt.Errorf("render %s (%s): %w", p.Name, p.Lang, err)
	}
	return b.String(), nil
}

func renderPage(t testing.TB, p console.Page) string {
	t.Helper()
	out, err := render(p)
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// ownFiles lists our templates, scripts and styles (not vendor/).
func ownFiles(t testing.TB, dir, suffix string) []string {
	t.Helper()
	names, err := fs.Glob(static.Files(), dir+"/*"+suffix)
	if err != nil {
		t.Fatal(err)
	}
	if len(names) == 0 {
		t.Fatalf("no %s files in %s", suffix, dir)
	}
	return names
}
