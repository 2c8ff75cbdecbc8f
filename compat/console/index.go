package console

import (
	"bytes"
	"errors"
	"net"
	"net/http"
	"strings"
	"time"

	"github.com/xxl-admin-go/xxl-admin-go/compat/schema"
)

// index is the dashboard (console.md §3): counts rendered server-side.
func (c *Console) index(x *exchange) error {
	counts, err := c.dashboardCounts(x)
	if err != nil {
		return err
	}
	c.render(x, c.page(x, "index", counts))
	return nil
}

// dashboardCounts are the dashboard's numbers (dashboardInfo in Java):
// jobs, logs and successful logs of the report, distinct executor
// addresses of all groups.
func (c *Console) dashboardCounts(x *exchange) (IndexData, error) {
	jobs, exact, err := c.store.JobCountBounded(x.ctx, c.cfg.ListBounds.Count)
	if err != nil {
		return IndexData{}, err
	}
	total, err := c.store.ReportTotal(x.ctx)
	if err != nil {
		return IndexData{}, err
	}
	groups, err := c.store.GroupFindAll(x.ctx)
	if err != nil {
		return IndexData{}, err
	}
	addresses := map[string]bool{}
	for _, g := range groups {
		for _, a := range registryList(g.AddressList) {
			addresses[a] = true
		}
	}
	return IndexData{JobInfoCount: jobs, JobInfoCountEstimated: !exact, JobLogCount: total.Running + total.Success + total.Fail,
		JobLogSuccessCount: total.Success, ExecutorCount: len(addresses)}, nil
}

// help is the tutorial page.
func (c *Console) help(x *exchange) error {
	c.render(x, c.page(x, "help", nil))
	return nil
}

// toLogin shows the login page, or sends a logged-in user home with a 303.
func (c *Console) toLogin(x *exchange) error {
	if x.user != nil {
		x.w.Header().Set("Location", c.cfg.ContextPath+"/")
		x.w.Header().Set("Content-Language", "en")
		x.w.Header().Set("Content-Length", "0")
		x.w.WriteHeader(http.StatusSeeOther)
		return nil
	}
	c.render(x, c.page(x, "login", nil))
	return nil
}

// login checks the credentials and sets the login cookie (console.md §2).
// Wrong passwords slow further attempts on the same name or address.
func (c *Console) login(x *exchange) error {
	name, password := x.form.str("userName"), x.form.str("password")
	if blankStr(name) || blankStr(password) {
		fail(x.w, c.text("login_param_empty"))
		return nil
	}
	keys := []string{"u:" + strings.ToLower(*name), "a:" + clientAddress(x.r)}
	if d := c.throttle.delay(keys...); d > 0 {
		t := time.NewTimer(d)
		select {
		case <-t.C:
		case <-x.ctx.Done():
			t.Stop()
			return x.ctx.Err()
		}
	}
	hash := PasswordHash(*password)
	u, err := c.store.UserLoadByName(x.ctx, *name)
	if err != nil && !isNotFound(err) {
		return err
	}
	if err != nil || u.Password != hash {
		c.throttle.failed(keys...)
		c.log.Info().Str("username", clip(*name, 64)).Str("address", clientAddress(x.r)).Msg("login refused")
		fail(x.w, c.text("login_param_unvalid"))
		return nil
	}
	c.throttle.succeeded(keys[0])
	c.sessions.setLoginCookie(x.w, c.sessions.issue(u), x.form.text("ifRemember") == "on")
	ok(x.w, nil)
	return nil
}

// logout clears the login cookie when there is one.
func (c *Console) logout(x *exchange) error {
	if ck, err := x.r.Cookie(CookieName); err == nil && ck.Value != "" {
		clearLoginCookie(x.w)
	}
	ok(x.w, nil)
	return nil
}

// chart is the dashboard report of a date range (console.md §3): one
// entry per report row in the range, or the last 7 days with zeros when
// there is none. Both consoles answer it; each writes it its own way.
type chart struct {
	TriggerDayList             []string `json:"triggerDayList"`
	TriggerDayCountRunningList []int    `json:"triggerDayCountRunningList"`
	TriggerDayCountSucList     []int    `json:"triggerDayCountSucList"`
	TriggerDayCountFailList    []int    `json:"triggerDayCountFailList"`
	TriggerCountRunningTotal   int      `json:"triggerCountRunningTotal"`
	TriggerCountSucTotal       int      `json:"triggerCountSucTotal"`
	TriggerCountFailTotal      int      `json:"triggerCountFailTotal"`
}

func (c *Console) chartData(x *exchange, start, end *time.Time) (chart, error) {
	var rows []schema.LogReport
	if start != nil && end != nil {
		var err error
		if rows, err = c.store.ReportQuery(x.ctx, *start, *end); err != nil {
			return chart{}, err
		}
	}
	ch := chart{TriggerDayList: []string{}, TriggerDayCountRunningList: []int{}, TriggerDayCountSucList: []int{}, TriggerDayCountFailList: []int{}}
	for _, r := range rows {
		if r.TriggerDay == nil {
			continue
		}
		ch.TriggerDayList = append(ch.TriggerDayList, r.TriggerDay.In(c.cfg.Loc).Format(time.DateOnly))
		ch.TriggerDayCountRunningList = append(ch.TriggerDayCountRunningList, r.RunningCount)
		ch.TriggerDayCountSucList = append(ch.TriggerDayCountSucList, r.SucCount)
		ch.TriggerDayCountFailList = append(ch.TriggerDayCountFailList, r.FailCount)
		ch.TriggerCountRunningTotal += r.RunningCount
		ch.TriggerCountSucTotal += r.SucCount
		ch.TriggerCountFailTotal += r.FailCount
	}
	if len(ch.TriggerDayList) == 0 {
		today := c.now().In(c.cfg.Loc)
		for i := 6; i >= 0; i-- {
			ch.TriggerDayList = append(ch.TriggerDayList, today.AddDate(0, 0, -i).Format(time.DateOnly))
			ch.TriggerDayCountRunningList = append(ch.TriggerDayCountRunningList, 0)
			ch.TriggerDayCountSucList = append(ch.TriggerDayCountSucList, 0)
			ch.TriggerDayCountFailList = append(ch.TriggerDayCountFailList, 0)
		}
	}
	return ch, nil
}

// chartInfo answers the report in the 2.4.2 admin's ReturnT, with the keys
// in its HashMap's order.
func (c *Console) chartInfo(x *exchange) error {
	start, err := c.formDate(x.form, "startDate")
	if err != nil {
		return err
	}
	end, err := c.formDate(x.form, "endDate")
	if err != nil {
		return err
	}
	ch, err := c.chartData(x, start, end)
	if err != nil {
		return err
	}
	var b bytes.Buffer
	b.WriteString(`{"code":200,"msg":null,"content":{"triggerCountFailTotal":`)
	b.Write(jackson(ch.TriggerCountFailTotal))
	for _, kv := range []struct {
		k string
		v any
	}{{"triggerDayList", ch.TriggerDayList}, {"triggerDayCountRunningList", ch.TriggerDayCountRunningList},
		{"triggerCountSucTotal", ch.TriggerCountSucTotal}, {"triggerDayCountFailList", ch.TriggerDayCountFailList},
		{"triggerCountRunningTotal", ch.TriggerCountRunningTotal}, {"triggerDayCountSucList", ch.TriggerDayCountSucList}} {
		b.WriteString(`,"` + kv.k + `":`)
		b.Write(jackson(kv.v))
	}
	b.WriteString(`}}`)
	writeBody(x.w, http.StatusOK, typeJSON, b.Bytes())
	return nil
}

// formDate reads a yyyy-MM-dd HH:mm:ss parameter in the admin's zone: nil
// when absent or empty; anything else that does not parse is a 400.
func (c *Console) formDate(f form, name string) (*time.Time, error) {
	s := f.text(name)
	if s == "" {
		return nil, nil
	}
	t, err := time.ParseInLocation(time.DateTime, s, c.cfg.Loc)
	if err != nil {
		return nil, errBadNumber
	}
	return &t, nil
}

// blankStr is Java's `s == null || s.trim().length() == 0`.
func blankStr(s *string) bool {
	return s == nil || strings.TrimFunc(*s, func(r rune) bool { return r <= ' ' }) == ""
}

// clientAddress is the caller's address for throttling: the connection's
// host plus the first forwarded hop, so clients behind one proxy are told
// apart and a forged header only adds a key.
func clientAddress(r *http.Request) string {
	host, _, err := net.SplitHostPort(r.RemoteAddr)
	if err != nil {
		host = r.RemoteAddr
	}
	if fwd := r.Header.Get("X-Forwarded-For"); fwd != "" {
		host += "|" + strings.TrimSpace(strings.Split(fwd, ",")[0])
	}
	return host
}

// clip shortens a value for a log line.
func clip(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n] + "…"
}

// registryList is a group's address_list split on commas (Java's
// getRegistryList: null when empty).
func registryList(list *string) []string {
	if blankStr(list) {
		return nil
	}
	parts := strings.Split(*list, ",")
	for len(parts) > 0 && parts[len(parts)-1] == "" {
		parts = parts[:len(parts)-1] // String.split drops trailing empty items
	}
	return parts
}

func isNotFound(err error) bool { return errors.Is(err, schema.ErrNotFound) }
