package console

import (
	"bytes"
	"fmt"
	"html/template"
	"io/fs"
	"net/http"
	"strings"
)

// Page is what every console template receives. Templates live in
// static/templates: layout.html defines the frame (head, header, sidebar,
// footer) around the blocks "content" and "scripts" of one page file; the
// login and error pages have no sidebar.
//
// User data reaches page scripts only through JSON data islands — the
// template writes {{.Data}} and {{.I18n}} inside <script type="application/json">
// elements, where html/template serialises them as JSON — and is put into
// the DOM as text, never as HTML. Pages carry no inline script or event
// handler: the Content-Security-Policy allows scripts from files only.
type Page struct {
	Name      string            // page template: index, jobinfo, joblog, joblog_detail, jobgroup, jobcode, user, help, login, error
	Title     string            // <title>: the admin_name text ("Error" on the error page)
	Lang      string            // en, zh_CN or zh_TC
	I18n      map[string]string // the whole bundle (console.md §8: every page embeds it)
	Base      string            // context path, e.g. /xxl-job-admin ("" at the root)
	Static    string            // versioned static prefix, e.g. /xxl-job-admin/static/v/1a2b3c4d
	User      *PageUser         // nil on the login and anonymous error pages
	Collapsed bool              // sidebar collapsed (cookie xxljob_adminlte_settings=off)
	Data      any               // the page's own model, below; also serialised to the data island
	// WorkflowMenu is the sidebar entry of the workflow pages (workflow.go),
	// "" when workflows are off.
	WorkflowMenu string
}

// PageUser is the logged-in user as pages show it.
type PageUser struct {
	Username string `json:"username"`
	Admin    bool   `json:"admin"`
}

// Option is one choice of a select: the stored name and its display title.
type Option struct {
	Name  string `json:"name"`
	Title string `json:"title"`
}

// GroupOption is an executor group in a select.
type GroupOption struct {
	ID      int    `json:"id"`
	AppName string `json:"appname"`
	Title   string `json:"title"`
}

// IndexData is the dashboard's model (console.md §3).
type IndexData struct {
	JobInfoCount       int `json:"jobInfoCount"`
	JobLogCount        int `json:"jobLogCount"`
	JobLogSuccessCount int `json:"jobLogSuccessCount"`
	ExecutorCount      int `json:"executorCount"`
}

// JobInfoData is the job list's model (console.md §5 /jobinfo).
type JobInfoData struct {
	Groups            []GroupOption `json:"groups"`   // permitted groups
	JobGroup          int           `json:"jobGroup"` // selected group (-1: the first)
	RouteStrategies   []Option      `json:"routeStrategies"`
	GlueTypes         []Option      `json:"glueTypes"`
	BlockStrategies   []Option      `json:"blockStrategies"`
	ScheduleTypes     []Option      `json:"scheduleTypes"`
	MisfireStrategies []Option      `json:"misfireStrategies"`
	// Zones is the add and edit form's time zone field, where the
	// database has per-job time zones (zone.go); nil elsewhere.
	Zones *ZoneChoice `json:"zones,omitempty"`
}

// JobLogData is the log list's model (console.md §6 /joblog).
type JobLogData struct {
	Groups []GroupOption `json:"groups"` // permitted groups; admins also get "All" (0)
	Job    *JobRef       `json:"job"`    // the job of ?jobId=, if any
}

// JobRef names a job.
type JobRef struct {
	ID       int    `json:"id"`
	JobGroup int    `json:"jobGroup"`
	JobDesc  string `json:"jobDesc"`
}

// LogDetailData is the rolling log page's model.
type LogDetailData struct {
	LogID       int64 `json:"logId"`
	TriggerCode int   `json:"triggerCode"`
	HandleCode  int   `json:"handleCode"`
}

// JobCodeData is the GLUE IDE's model (console.md §6 /jobcode).
type JobCodeData struct {
	Job       JobCodeJob    `json:"job"`
	Versions  []GlueVersion `json:"versions"` // newest first
	GlueTypes []Option      `json:"glueTypes"`
}

// JobCodeJob is the job shown in the GLUE IDE.
type JobCodeJob struct {
	ID         int    `json:"id"`
	JobDesc    string `json:"jobDesc"`
	GlueType   string `json:"glueType"`
	GlueSource string `json:"glueSource"`
	GlueRemark string `json:"glueRemark"`
}

// GlueVersion is one stored GLUE source version.
type GlueVersion struct {
	ID         int    `json:"id"`
	GlueType   string `json:"glueType"`
	GlueSource string `json:"glueSource"`
	GlueRemark string `json:"glueRemark"`
	UpdateTime string `json:"updateTime"` // yyyy-MM-dd HH:mm:ss in the admin's zone
}

// UserData is the user list's model: every group, for the permission picker.
type UserData struct {
	Groups []GroupOption `json:"groups"`
}

// ErrorData is the error page's model (console.md §1.3).
type ErrorData struct {
	Message string `json:"message"`
}

// views holds the parsed templates, one set per page, parsed once.
type views struct {
	pages map[string]*template.Template
}

// TemplateFuncs are the functions the page templates call.
func TemplateFuncs() template.FuncMap {
	return template.FuncMap{
		// t is the text of an i18n key: {{t $.I18n "jobinfo_name"}}.
		"t": func(texts map[string]string, key string) string { return texts[key] },
		// args names the arguments of a partial, in pairs:
		// {{template "modal-foot" (args "I18n" $.I18n "Cols" "col-sm-9")}}.
		"args": func(pairs ...any) (map[string]any, error) {
			if len(pairs)%2 != 0 {
				return nil, fmt.Errorf("args: %d values, want name/value pairs", len(pairs))
			}
			m := make(map[string]any, len(pairs)/2)
			for i := 0; i < len(pairs); i += 2 {
				name, ok := pairs[i].(string)
				if !ok {
					return nil, fmt.Errorf("args: name %v is not a string", pairs[i])
				}
				m[name] = pairs[i+1]
			}
			return m, nil
		},
	}
}

// templateDir is where a generation's page templates are: the 2.4.2
// console's in templates/, the 3.4.2 console's in v3/templates/.
func templateDir(gen3 bool) string {
	if gen3 {
		return "v3/templates"
	}
	return "templates"
}

// sharedTemplates are partials both consoles' pages may use.
const sharedTemplates = "templates/shared/*.html"

// ParsePage parses one page of a template directory (templates for the
// 2.4.2 console, v3/templates for the 3.4.2 one) with its layout and the
// shared partials, as the console does once at start.
func ParsePage(files fs.FS, dir, name string) (*template.Template, error) {
	shared, err := fs.Glob(files, sharedTemplates)
	if err != nil {
		return nil, err
	}
	return template.New(name).Funcs(TemplateFuncs()).ParseFS(files, append([]string{dir + "/layout.html", dir + "/" + name + ".html"}, shared...)...)
}

// loadViews parses layout.html and the shared partials with each page
// template of dir.
func loadViews(files fs.FS, dir string) (*views, error) {
	v := &views{pages: map[string]*template.Template{}}
	names, err := fs.Glob(files, dir+"/*.html")
	if err != nil {
		return nil, err
	}
	for _, path := range names {
		name := strings.TrimSuffix(strings.TrimPrefix(path, dir+"/"), ".html")
		if name == "layout" {
			continue
		}
		t, err := ParsePage(files, dir, name)
		if err != nil {
			return nil, fmt.Errorf("parse template %s: %w", name, err)
		}
		v.pages[name] = t
	}
	return v, nil
}

// render writes a page with the status (200 also for Java's error page
// of a failed request: it renders errors with 200 too).
func (v *views) render(w http.ResponseWriter, p Page, status int) {
	t, ok := v.pages[p.Name]
	if !ok {
		http.Error(w, "no template "+p.Name, http.StatusInternalServerError)
		return
	}
	var b bytes.Buffer
	if err := t.ExecuteTemplate(&b, "layout", p); err != nil {
		http.Error(w, "render "+p.Name+": "+err.Error(), http.StatusInternalServerError)
		return
	}
	h := w.Header()
	h.Set("Content-Type", "text/html;charset=UTF-8")
	h.Set("Content-Language", "en") // what the Java admin's Tomcat sends (recordings pages_admin)
	h.Set("Cache-Control", "no-store")
	w.WriteHeader(status)
	_, _ = w.Write(b.Bytes())
}
