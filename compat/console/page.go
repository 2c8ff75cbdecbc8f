package console

import (
	"github.com/xxl-admin-go/xxl-admin-go/compat/schema"
	"net/http"
)

// contentSecurityPolicy lets pages run scripts from our files only: a
// planted <script> or onerror= in data never runs, whatever a template or
// page script gets wrong. Inline styles stay allowed (the trigger message
// markup colours text).
const contentSecurityPolicy = "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; " +
	"img-src 'self' data:; object-src 'none'; base-uri 'self'; frame-ancestors 'self'; form-action 'self'"

// page builds the model of a page for the current user.
func (c *Console) page(x *exchange, name string, data any) Page {
	title := c.text("admin_name")
	if c.gen3 {
		// 3.4.2's common.macro: "分布式任务调度平台｜XXL-JOB" (its GLUE IDE
		// keeps admin_name, the error page "Error").
		title = c.text("admin_name_full")
	}
	p := Page{Name: name, Title: title, Lang: c.texts.Lang(), I18n: c.texts.All(),
		Base: c.cfg.ContextPath, Static: c.static.prefix, Data: data}
	if c.cfg.Workflows != nil {
		p.WorkflowMenu = c.ours["wf_menu"]
	}
	if x.user != nil {
		p.User = &PageUser{Username: x.user.Username, Admin: x.user.Role == 1}
	}
	if ck, err := x.r.Cookie("xxljob_adminlte_settings"); err == nil && ck.Value == "off" {
		p.Collapsed = true
	}
	return p
}

// render writes a page with the security headers every page carries.
func (c *Console) render(x *exchange, p Page) {
	c.renderStatus(x, p, http.StatusOK)
}

// renderStatus is render with another status than 200 (error pages).
func (c *Console) renderStatus(x *exchange, p Page, status int) {
	h := x.w.Header()
	h.Set("Content-Security-Policy", contentSecurityPolicy)
	h.Set("X-Content-Type-Options", "nosniff")
	h.Set("X-Frame-Options", "SAMEORIGIN")
	h.Set("Referrer-Policy", "same-origin")
	c.views.render(x.w, p, status)
}

// renderError shows the error page (template common.exception in Java):
// HTTP 200, title "Error", the message.
func (c *Console) renderError(x *exchange, msg string) {
	p := c.page(x, "error", ErrorData{Message: msg})
	p.Title = "Error"
	c.render(x, p)
}

// groupOptions turns groups into select options.
func groupOptions(gs []schema.Group) []GroupOption {
	out := make([]GroupOption, 0, len(gs))
	for _, g := range gs {
		out = append(out, GroupOption{ID: g.ID, AppName: g.AppName, Title: g.Title})
	}
	return out
}
