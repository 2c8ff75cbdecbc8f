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
	jobs, err := c.store.JobFindAllCount(x.ctx)
	if err != nil {
		return err
	}
	total, err := c.store.ReportTotal(x.ctx)
	if err != nil {
		return err
	}
	groups, err := c.store.GroupFindAll(x.ctx)
	if err != nil {
		return err
	}
	addresses := map[string]bool{}
	for _, g := range groups {
		for _, a := range registryList(g.AddressList) {
			addresses[a] = true
		}
	}
	c.render(x, c.page(x, "index", IndexData{JobInfoCount: jobs, JobLogCount: total.Running + total.Success + total.Fail,
		JobLogSuccessCount: total.Success, ExecutorCount: len(addresses)}))
	return nil
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

// chartInfo is the dashboard report (console.md §3): one entry per report
// row in the range, or the last 7 days with zeros when there is none. The
// keys are written in the Java admin's HashMap order.
func (c *Console) chartInfo(x *exchange) error {
	start, err := c.formDate(x.form, "startDate")
	if err != nil {
		return err
	}
	end, err := c.formDate(x.form, "endDate")
	if err != nil {
		return err
	}
	var rows []schema.LogReport
	if start != nil && end != nil {
		if rows, err = c.store.ReportQuery(x.ctx, *start, *end); err != nil {
			return err
		}
	}
	days, running, suc, fails := []string{}, []int{}, []int{}, []int{}
	var tr, ts, tf int
	for _, r := range rows {
		if r.TriggerDay == nil {
			continue
		}
		days = append(days, r.TriggerDay.In(c.cfg.Loc).Format(time.DateOnly))
		running, suc, fails = append(running, r.RunningCount), append(suc, r.SucCount), append(fails, r.FailCount)
		tr, ts, tf = tr+r.RunningCount, ts+r.SucCount, tf+r.FailCount
	}
	if len(days) == 0 {
		today := c.now().In(c.cfg.Loc)
		for i := 6; i >= 0; i-- {
			days = append(days, today.AddDate(0, 0, -i).Format(time.DateOnly))
			running, suc, fails = append(running, 0), append(suc, 0), append(fails, 0)
		}
	}
	var b bytes.Buffer
	b.WriteString(`{"code":200,"msg":null,"content":{"triggerCountFailTotal":`)
	b.Write(jackson(tf))
	for _, kv := range []struct {
		k string
		v any
	}{{"triggerDayList", days}, {"triggerDayCountRunningList", running}, {"triggerCountSucTotal", ts},
		{"triggerDayCountFailList", fails}, {"triggerCountRunningTotal", tr}, {"triggerDayCountSucList", suc}} {
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
