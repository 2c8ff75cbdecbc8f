package console

import (
	"net/http"
)

// The 3.4.2 IndexController: the frame (menu and tabs) at /, the pages
// it opens in tabs (/dashboard, /help), the report (/chartInfo) and the
// error page.

// MenuItem is one entry of the 3.4.2 frame's sidebar.
type MenuItem struct {
	Name string `json:"name"` // i18n text
	URL  string `json:"url"`  // under the context path
	Icon string `json:"icon"` // Font Awesome class
}

// FrameData is the 3.4.2 frame's model: the menu the user may see.
type FrameData struct {
	Menu []MenuItem `json:"menu"`
}

// frame renders / with the menu of IndexController.findResourceList:
// executor and user management only for admins.
func (c *Console) frame(x *exchange) error {
	items := []struct {
		key, url, icon string
		admin          bool
	}{
		{"job_dashboard_name", "/dashboard", "fa-home", false},
		{"jobinfo_name", "/jobinfo", "fa-clock-o", false},
		{"joblog_name", "/joblog", "fa-database", false},
		{"jobgroup_name", "/jobgroup", "fa-cloud", true},
		{"user_manage", "/user", "fa-users", true},
		{"admin_help", "/help", "fa-book", false},
	}
	var menu []MenuItem
	for _, it := range items {
		if it.admin && x.user.Role != 1 {
			continue
		}
		menu = append(menu, MenuItem{Name: c.text(it.key), URL: it.url, Icon: it.icon})
		if it.url == "/joblog" && c.cfg.Workflows != nil {
			menu = append(menu, MenuItem{Name: c.ours["wf_menu"], URL: c.wfPath(), Icon: "fa-sitemap"})
		}
	}
	c.render(x, c.page(x, "index", FrameData{Menu: menu}))
	return nil
}

// dashboard is the run report page opened in the frame's first tab.
func (c *Console) dashboard(x *exchange) error {
	counts, err := c.dashboardCounts(x)
	if err != nil {
		return err
	}
	c.render(x, c.page(x, "dashboard", counts))
	return nil
}

// chartInfo34 answers the report in a Response (members sorted, as the
// 3.4.2 admin's Jackson writes them). Both dates are required there
// (@RequestParam Date): a missing or malformed one is Spring's 400.
func (c *Console) chartInfo34(x *exchange) error {
	start, err := c.formDate(x.form, "startDate")
	if err != nil {
		return err
	}
	end, err := c.formDate(x.form, "endDate")
	if err != nil {
		return err
	}
	if start == nil || end == nil {
		return errBadNumber
	}
	ch, err := c.chartData(x, start, end)
	if err != nil {
		return err
	}
	ok34(x.w, ch)
	return nil
}

// help34 is the user guide page.
func (c *Console) help34(x *exchange) error {
	c.render(x, c.page(x, "help", nil))
	return nil
}

// errorPage serves /errorpage: "HTTP Status Code: " and the response's
// status, which is 200 when the page is asked for directly.
func (c *Console) errorPage(x *exchange) error {
	c.errorPage34(x, http.StatusOK)
	return nil
}
