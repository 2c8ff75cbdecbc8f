package console

import (
	"context"
	"net/http"
	"net/url"
	"strconv"
	"time"

	"github.com/xxl-admin-go/xxl-admin-go/core/workflow"
)

// The workflow pages (new: no Java admin has workflows; docs/workflows.md,
// "The console"). They exist only when Config.Workflows is set
// (xxl.job.workflows.enabled): with it unset no route, menu entry or text
// of theirs is served and every other page is what it was.
//
// Each page is a form the server renders and answers, so that every
// action works with scripts off; the page script (js/workflow-graph.js)
// adds the graph, laid out by the vendored dagre, and drawing edges by
// clicking nodes. On a 2.x database the pages are under <ctx>/workflow,
// on a 3.x one under <ctx>/xxl-admin-go/workflow (routes34.go says why).
//
// One file per page action: workflow_list.go, workflow_edit.go,
// workflow_save.go, workflow_runs.go, workflow_run.go, workflow_action.go.

// Workflows is what the workflow pages need of the engine.
type Workflows interface {
	StartRun(ctx context.Context, workflowID int, req workflow.StartRequest) (int64, error)
	StopRunKilling(ctx context.Context, runID int64, kill workflow.Killer) (workflow.Stopped, error)
	RetryRun(ctx context.Context, runID int64) error
	SkipNode(ctx context.Context, runID int64, nodeID int) error
	MarkSucceeded(ctx context.Context, runID int64, nodeID int) error
}

// wfPath is where the workflow pages are on the console's generation.
func (c *Console) wfPath() string {
	if c.gen3 {
		return "/xxl-admin-go/workflow"
	}
	return "/workflow"
}

// workflowRoutes adds the workflow pages to a route table when workflows
// are on.
func (c *Console) workflowRoutes(table map[string]endpoint) {
	if c.cfg.Workflows == nil {
		return
	}
	p := c.wfPath()
	table[p] = endpoint{access: member, page: true, serve: (*Console).workflowList}
	table[p+"/edit"] = endpoint{access: member, page: true, serve: (*Console).workflowEdit}
	table[p+"/save"] = endpoint{access: member, page: true, post: true, writes: true, serve: (*Console).workflowSave}
	table[p+"/runs"] = endpoint{access: member, page: true, serve: (*Console).workflowRuns}
	table[p+"/run"] = endpoint{access: member, page: true, serve: (*Console).workflowRun}
	table[p+"/action"] = endpoint{access: member, page: true, post: true, writes: true, serve: (*Console).workflowAction}
}

// wfPage is a workflow page's model: its texts (Java's bundle and ours)
// and where the pages are.
func (c *Console) wfPage(x *exchange, name string, data any) Page {
	p := c.page(x, name, data)
	p.I18n = c.ours
	return p
}

// WfLinks are the paths a workflow page links to, under the context
// path.
type WfLinks struct {
	Base   string `json:"base"`   // the workflow pages
	LogURL string `json:"logUrl"` // the log detail page, ?id= follows
}

func (c *Console) wfLinks() WfLinks {
	return WfLinks{Base: c.cfg.ContextPath + c.wfPath(), LogURL: c.cfg.ContextPath + "/joblog/logDetailPage"}
}

// wfRedirect answers a POST with a 303 to a workflow page (post, redirect,
// get: a reload does not repeat the action).
func (c *Console) wfRedirect(x *exchange, page string, q url.Values) {
	to := c.cfg.ContextPath + c.wfPath() + page
	if len(q) > 0 {
		to += "?" + q.Encode()
	}
	http.Redirect(x.w, x.r, to, http.StatusSeeOther)
}

// wfTime shows a time in the admin's zone ("" for the zero time).
func (c *Console) wfTime(t time.Time) string {
	if t.IsZero() {
		return ""
	}
	return t.In(c.cfg.Loc).Format(time.DateTime)
}

// WfPager is a list page's paging: the page shown (from 1), how many in
// all, and the queries of the pages before and after ("" when none).
type WfPager struct {
	Page  int    `json:"page"`
	Total int    `json:"total"`
	Prev  string `json:"prev"`
	Next  string `json:"next"`
}

const wfPageSize = 20

func wfPager(q url.Values, page, total int) WfPager {
	p := WfPager{Page: page, Total: total}
	at := func(n int) string {
		v := url.Values{}
		for k, vs := range q {
			v[k] = vs
		}
		v.Set("page", strconv.Itoa(n))
		return "?" + v.Encode()
	}
	if page > 1 {
		p.Prev = at(page - 1)
	}
	if page*wfPageSize < total {
		p.Next = at(page + 1)
	}
	return p
}
